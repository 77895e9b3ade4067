/**
 * The orchestration journal: every completed task is an `orchestration_task` event in the session
 * file (`{plan_hash, call_id, record}`), written when the task completes, so a crash or Esc loses
 * no finished work. A resumed session reads them back; running the same plan again (same hash)
 * reuses them instead of running those tasks again. Malformed events are ignored.
 */
import { z } from 'zod';
import type { SessionEntry } from '../session/format.js';
import type { Journal } from './orchestrator.js';
import type { TaskRecord } from './types.js';

export const JOURNAL_EVENT = 'orchestration_task';

const recordSchema = z.looseObject({
  id: z.string(),
  role: z.string(),
  status: z.literal('completed'),
  turns: z.number(),
  modelCalls: z.number(),
  toolCalls: z.number(),
  tokens: z.looseObject({ prompt: z.number(), completion: z.number(), cache_hit: z.number() }),
  costUsd: z.number(),
});
const dataSchema = z.looseObject({ plan_hash: z.string(), call_id: z.string(), record: recordSchema });

/** Where new journal events go (the session writer, once it exists). */
export type JournalSink = { append?: (entry: { type: 'event'; name: string; data: unknown }) => void };

export class SessionJournal implements Journal {
  private readonly byPlan = new Map<string, Map<string, TaskRecord>>();
  /** The `delegate_tasks` call each plan last ran under (resume answers that call). */
  private readonly callOf = new Map<string, string>();

  constructor(
    earlier: readonly SessionEntry[],
    private readonly sink: JournalSink,
  ) {
    for (const entry of earlier) {
      if (entry.type !== 'event' || entry.name !== JOURNAL_EVENT) continue;
      const parsed = dataSchema.safeParse(entry.data);
      if (parsed.success) this.remember(parsed.data.plan_hash, parsed.data.call_id, parsed.data.record as TaskRecord);
    }
  }

  completed(planHash: string): ReadonlyMap<string, TaskRecord> {
    return this.byPlan.get(planHash) ?? new Map();
  }

  /** Plans with journalled tasks under this tool call id. */
  plansOfCall(callId: string): string[] {
    return [...this.callOf.entries()].filter(([, call]) => call === callId).map(([hash]) => hash);
  }

  record(planHash: string, callId: string, record: TaskRecord): void {
    this.remember(planHash, callId, record);
    this.sink.append?.({ type: 'event', name: JOURNAL_EVENT, data: { plan_hash: planHash, call_id: callId, record } });
  }

  private remember(planHash: string, callId: string, record: TaskRecord): void {
    let tasks = this.byPlan.get(planHash);
    if (!tasks) this.byPlan.set(planHash, (tasks = new Map()));
    tasks.set(record.id, record);
    this.callOf.set(planHash, callId);
  }
}
