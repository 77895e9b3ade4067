/**
 * The orchestration journal: every completed task is an `orchestration_task` event in the session
 * file (`{plan_hash, call_id, record}`), written when the task completes, so a crash or Esc loses
 * no finished work. A resumed session reads them back; running the same plan again (same hash)
 * reuses them instead of running those tasks again. Malformed events are ignored.
 */
import { lazySchema } from '../util/zod.js';
import type { SessionEntry } from '../session/format.js';
import type { Journal } from './orchestrator.js';
import type { TaskRecord } from './types.js';

export const JOURNAL_EVENT = 'orchestration_task';
/** A task submitted to a fleet (`seek run --queue`): `{plan_hash, task_id, job_id}`. */
export const FLEET_JOB_EVENT = 'fleet_job';
/** A fleet run of the plan was cancelled (Ctrl-C, SIGTERM): `{plan_hash}`. */
export const FLEET_CANCEL_EVENT = 'fleet_cancel';

const recordSchema = lazySchema((z) =>
  z.looseObject({
    id: z.string(),
    role: z.string(),
    status: z.literal('completed'),
    turns: z.number(),
    modelCalls: z.number(),
    toolCalls: z.number(),
    tokens: z.looseObject({ prompt: z.number(), completion: z.number(), cache_hit: z.number() }),
    costUsd: z.number(),
  }),
);
const dataSchema = lazySchema((z) => z.looseObject({ plan_hash: z.string(), call_id: z.string(), record: recordSchema() }));
const fleetJobSchema = lazySchema((z) => z.looseObject({ plan_hash: z.string(), task_id: z.string(), job_id: z.string() }));

/** Where new journal events go (the session writer, once it exists). */
export type JournalSink = { append?: (entry: { type: 'event'; name: string; data: unknown }) => void };

export class SessionJournal implements Journal {
  private readonly byPlan = new Map<string, Map<string, TaskRecord>>();
  /** The `delegate_tasks` call each plan last ran under (resume answers that call). */
  private readonly callOf = new Map<string, string>();
  /** Fleet jobs by the plan (hash) they belong to. */
  private readonly fleetJobs = new Map<string, string[]>();
  /** Plans whose fleet run was cancelled. */
  private readonly fleetCancels = new Set<string>();

  constructor(
    earlier: readonly SessionEntry[],
    private readonly sink: JournalSink,
  ) {
    for (const entry of earlier) {
      if (entry.type === 'event' && entry.name === FLEET_JOB_EVENT) {
        const job = fleetJobSchema().safeParse(entry.data);
        if (job.success) this.rememberJob(job.data.plan_hash, job.data.job_id);
      }
      if (entry.type === 'event' && entry.name === FLEET_CANCEL_EVENT) {
        const hash = (entry.data as { plan_hash?: unknown } | undefined)?.plan_hash;
        if (typeof hash === 'string') this.fleetCancels.add(hash);
      }
      if (entry.type !== 'event' || entry.name !== JOURNAL_EVENT) continue;
      const parsed = dataSchema().safeParse(entry.data);
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

  /** Records that a task of the plan went to the fleet as `jobId` (running the plan again must go there too). */
  recordFleetJob(planHash: string, taskId: string, jobId: string): void {
    if (this.fleetJobs.get(planHash)?.includes(jobId)) return;
    this.rememberJob(planHash, jobId);
    this.sink.append?.({ type: 'event', name: FLEET_JOB_EVENT, data: { plan_hash: planHash, task_id: taskId, job_id: jobId } });
  }

  /** Records that the plan's fleet run was cancelled. */
  recordFleetCancel(planHash: string): void {
    if (this.fleetCancels.has(planHash)) return;
    this.fleetCancels.add(planHash);
    this.sink.append?.({ type: 'event', name: FLEET_CANCEL_EVENT, data: { plan_hash: planHash } });
  }

  fleetCancelled(planHash: string): boolean {
    return this.fleetCancels.has(planHash);
  }

  /** The fleet jobs of a plan in this session (empty for a plan run only in-process). */
  fleetJobsOf(planHash: string): readonly string[] {
    return this.fleetJobs.get(planHash) ?? [];
  }

  private rememberJob(planHash: string, jobId: string): void {
    const jobs = this.fleetJobs.get(planHash) ?? [];
    jobs.push(jobId);
    this.fleetJobs.set(planHash, jobs);
  }

  private remember(planHash: string, callId: string, record: TaskRecord): void {
    let tasks = this.byPlan.get(planHash);
    if (!tasks) this.byPlan.set(planHash, (tasks = new Map()));
    tasks.set(record.id, record);
    this.callOf.set(planHash, callId);
  }
}
