/**
 * The append-only subagent index `projects/<pid>/subagents.jsonl` (seek-spec 3.6): one JSON event a
 * line, never rewritten. Several seek processes of one project append to it at once, so every event
 * is one `appendFileSync` (O_APPEND: the kernel positions each write at the end, and a small
 * regular-file write is not split, so lines never interleave). Readers fold the events per sub-sid.
 */
import { isProcessAlive } from '../util/process.js';
import { appendFileSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { lazySchema } from '../util/zod.js';
import { projectDir, subagentIndexFile } from '../config/paths.js';
import type { SubagentIndexEvent, SubagentRecord, SubagentStatus, SubagentTokens } from './types.js';

/**
 * Appends one event as one line. Creates the project directory when missing. Never throws: the
 * index is bookkeeping, and a full disk must not fail a child; problems go to `onProblem`.
 * Returns whether the line was written.
 */
export function appendSubagentEvent(
  home: string,
  pid: string,
  event: SubagentIndexEvent,
  onProblem?: (message: string) => void,
): boolean {
  const file = subagentIndexFile(home, pid);
  const line = `${JSON.stringify(event)}\n`;
  try {
    try {
      appendFileSync(file, line, { flag: 'a', mode: 0o600 });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
      // First event of a new project: create the directory, then append (the common path pays
      // no mkdir).
      mkdirSync(projectDir(home, pid), { recursive: true });
      appendFileSync(file, line, { flag: 'a', mode: 0o600 });
    }
    return true;
  } catch (error) {
    onProblem?.(`could not record subagent ${event.sub_sid} (${event.event}) in ${file}: ${(error as Error).message}`);
    return false;
  }
}

// ---- Reading ------------------------------------------------------------------------------------

const baseSchema = lazySchema((z) => z.looseObject({ event: z.string(), sub_sid: z.string().min(1), ts: z.string().min(1) }));
const tokensSchema = lazySchema((z) =>
  z.looseObject({
    prompt: z.number(),
    completion: z.number(),
    cache_hit: z.number().default(0),
  }),
);
/**
 * `pid` and `host` are optional on read: lines written by other tools (or by hand) may lack them.
 * Such a record gets `pid: 0, host: ''`, meaning "process unknown" (see `recoverOrphans`).
 */
const startedSchema = lazySchema((z) =>
  z.looseObject({
    parent_sid: z.string(),
    parent_sub_sid: z.string().optional(),
    type: z.string(),
    description: z.string(),
    depth: z.number().int().default(1),
    pid: z.number().int().default(0),
    host: z.string().default(''),
    worktree_path: z.string().optional(),
  }),
);
/** Fields a later event may carry; each one present replaces the folded value (last wins). */
const laterSchema = lazySchema((z) =>
  z.looseObject({
    tokens: tokensSchema().optional(),
    turns: z.number().int().optional(),
    reason: z.string().optional(),
  }),
);
const promotedSchema = lazySchema((z) => z.looseObject({ session_id: z.string().min(1) }));

const LATER_STATUS: Readonly<Record<string, SubagentStatus>> = {
  completed: 'completed',
  failed: 'failed',
  killed: 'killed',
  orphaned: 'orphaned',
  promoted: 'promoted',
};

export interface SubagentIndex {
  /** Newest first (by start time, then sub-sid). */
  records: SubagentRecord[];
  /** Non-blank lines that did not count: malformed, an event before its `started`, a duplicate
   * `started`, or an unknown event kind (maybe from a newer seek). */
  skippedLines: number;
}

/** Reads and folds the index. A missing file is an empty index; other read errors throw. */
export async function readSubagentIndex(home: string, pid: string): Promise<SubagentIndex> {
  let text: string;
  try {
    text = await readFile(subagentIndexFile(home, pid), 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { records: [], skippedLines: 0 };
    throw error;
  }
  return foldSubagentIndex(text);
}

/**
 * Folds index text (seek-spec 3.6): `started` sets the fixed fields and status `active`; each later
 * event sets the status and `ended_at` (its ts), and tokens, turns and reason when it carries them;
 * `promoted` also sets `promoted_to`. A torn last line (a crash mid-append) is just malformed.
 */
export function foldSubagentIndex(text: string): SubagentIndex {
  const byId = new Map<string, SubagentRecord>();
  let skippedLines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (!applyLine(byId, line)) skippedLines += 1;
  }
  const records = [...byId.values()].sort(
    (a, b) => compare(b.started_at, a.started_at) || compare(b.sub_sid, a.sub_sid),
  );
  return { records, skippedLines };
}

/** Applies one line; false when it is skipped. */
function applyLine(byId: Map<string, SubagentRecord>, line: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return false;
  }
  const base = baseSchema().safeParse(json);
  if (!base.success) return false;
  const { event, sub_sid: subSid, ts } = base.data;
  const existing = byId.get(subSid);

  if (event === 'started') {
    if (existing) return false;
    const started = startedSchema().safeParse(json);
    if (!started.success) return false;
    const s = started.data;
    byId.set(subSid, {
      sub_sid: subSid,
      parent_sid: s.parent_sid,
      ...(s.parent_sub_sid !== undefined ? { parent_sub_sid: s.parent_sub_sid } : {}),
      type: s.type,
      description: s.description,
      depth: s.depth,
      pid: s.pid,
      host: s.host,
      ...(s.worktree_path !== undefined ? { worktree_path: s.worktree_path } : {}),
      status: 'active',
      started_at: ts,
    });
    return true;
  }

  const status = LATER_STATUS[event];
  if (status === undefined || !existing) return false;
  const later = laterSchema().safeParse(json);
  if (!later.success) return false;
  let promotedTo: string | undefined;
  if (status === 'promoted') {
    const promoted = promotedSchema().safeParse(json);
    if (!promoted.success) return false;
    promotedTo = promoted.data.session_id;
  }
  existing.status = status;
  existing.ended_at = ts;
  if (later.data.tokens) existing.tokens = pickTokens(later.data.tokens);
  if (later.data.turns !== undefined) existing.turns = later.data.turns;
  if (later.data.reason !== undefined) existing.reason = later.data.reason;
  if (promotedTo !== undefined) existing.promoted_to = promotedTo;
  return true;
}

function pickTokens(tokens: SubagentTokens): SubagentTokens {
  return { prompt: tokens.prompt, completion: tokens.completion, cache_hit: tokens.cache_hit };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---- Orphans ------------------------------------------------------------------------------------

export { isProcessAlive };

export interface RecoverOrphansOptions {
  /** Replaces `isProcessAlive` (tests). */
  isAlive?: (pid: number) => boolean;
  /** This machine's name; default `os.hostname()`. */
  host?: string;
  onProblem?: (message: string) => void;
}

/**
 * Marks `orphaned` every `active` child whose seek process is gone, and returns their sub-sids.
 * Gone means: recorded on this host, not this process, and no process has its pid. Children of
 * another host, or with an unknown process (`pid` 0 / `host` ''), are left alone: we cannot tell.
 * Idempotent (an orphaned child is no longer active); two processes racing here may both append
 * `orphaned`, which folds to the same record. Known limit: a reused pid keeps a dead child active.
 */
export async function recoverOrphans(home: string, pid: string, options: RecoverOrphansOptions = {}): Promise<string[]> {
  const { records } = await readSubagentIndex(home, pid);
  const host = options.host ?? hostname();
  const isAlive = options.isAlive ?? isProcessAlive;
  const marked: string[] = [];
  for (const record of records) {
    if (record.status !== 'active') continue;
    if (record.pid <= 0 || record.host === '' || record.host !== host) continue;
    if (record.pid === process.pid || isAlive(record.pid)) continue;
    const event: SubagentIndexEvent = { event: 'orphaned', sub_sid: record.sub_sid, ts: new Date().toISOString() };
    if (appendSubagentEvent(home, pid, event, options.onProblem)) marked.push(record.sub_sid);
  }
  return marked;
}
