import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { HOOK_EVENTS, type AuditRecord, type HookEvent } from './types.js';

/** `<SEEK_HOME>/hooks-audit.jsonl`: one JSON line per hook run, appended, never rewritten. */
export function auditFile(seekHome: string): string {
  return path.join(seekHome, 'hooks-audit.jsonl');
}

/**
 * Appends one record as a single write of one line (O_APPEND), so concurrent sessions interleave
 * whole lines, never fragments. Throws on I/O errors; the runner reports and carries on.
 */
export async function appendAudit(seekHome: string, record: AuditRecord): Promise<void> {
  await mkdir(seekHome, { recursive: true });
  await appendFile(auditFile(seekHome), `${JSON.stringify(record)}\n`, { encoding: 'utf8', mode: 0o600 });
}

const AuditRecordSchema = z.looseObject({
  ts: z.string(),
  event: z.enum(HOOK_EVENTS as [HookEvent, ...HookEvent[]]),
  hook: z.string(),
  tool: z.string().nullable(),
  session_id: z.string(),
  duration_ms: z.number(),
  exit_code: z.number().nullable(),
  denied: z.boolean(),
  reason: z.string().nullable(),
  project_id: z.string().optional(),
  subagent_id: z.string().optional(),
});

export interface AuditFilter {
  /** Only records at or after this time. */
  since?: Date;
  tool?: string;
  deniedOnly?: boolean;
}

/** Reads the audit log (missing file = no records), skipping lines that do not parse. */
export async function readAudit(seekHome: string, filter: AuditFilter = {}): Promise<AuditRecord[]> {
  let text: string;
  try {
    text = await readFile(auditFile(seekHome), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records: AuditRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    const result = AuditRecordSchema.safeParse(parsed);
    if (!result.success) continue;
    const record = result.data as AuditRecord;
    if (filter.since && !(Date.parse(record.ts) >= filter.since.getTime())) continue;
    if (filter.tool !== undefined && record.tool !== filter.tool) continue;
    if (filter.deniedOnly && !record.denied) continue;
    records.push(record);
  }
  return records;
}

export { parseDuration } from '../util/duration.js';
