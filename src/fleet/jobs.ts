/**
 * Submitting fleet jobs and waiting for them, for every coordinator (`seek run --queue`, `seek
 * batch`). A job id is chosen by the caller and fixed by what the job is, so submitting again
 * attaches to the job already in Redis (waiting, running or finished) instead of doing it twice;
 * only a job that failed is replaced. New jobs start only while the run's spend is under its caps.
 * `maxJobs` bounds the jobs queued or running at once for `seek batch --prompt` here; a plan's jobs
 * (a BullMQ flow, flow.ts) are bounded by the workers, which hold a slot per running job.
 * A Redis outage is said in two lines (outage.ts) and waited out; `close` is bounded, so a
 * coordinator stopped during one still exits.
 */
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { fleetTimings, QUEUE_NAME, connectionOptions } from './connection.js';
import { ConnectionWatch, valueWithin, within } from './outage.js';
import { assertNoSecrets, resultSchema, type FleetJob, type FleetResult } from './payload.js';
import { attemptErrors, capOvershoot, capReached, jobSpend, resetAttemptErrors, resetJobSpend, runSpend, type Spend } from './spend.js';
import { abortOrDelay } from '../util/abort.js';
import { Slots } from './slots.js';

export type JobOutcome =
  | { kind: 'completed'; result: FleetResult; spend: Spend; attempts: number }
  /** `reason`: the job's own failed reason (its last attempt's error, "cancelled", or the
   * failure of a dependency that failed it). */
  | { kind: 'failed'; errors: string[]; spend: Spend; attempts: number; reason?: string }
  /** Not submitted: the run's cap was reached (`why` says which). */
  | { kind: 'capped'; why: string }
  /** The caller stopped waiting (the job, if submitted, goes on). */
  | { kind: 'canceled'; spend: Spend };

export interface FleetJobsOptions {
  url: string;
  redis: Redis;
  limits: { costCapUsd?: number; tokenCap?: number };
  maxJobs?: number;
  env: Readonly<Record<string, string | undefined>>;
  /** Where the outage lines go (default: stderr, prefixed "seek: "). */
  log?: (line: string) => void;
}

export const ZERO_SPEND: Spend = { costUsd: 0, prompt: 0, completion: 0, cacheHit: 0, modelCalls: 0, unpriced: 0 };

export class FleetJobs {
  readonly queue: Queue;
  readonly events: QueueEvents;
  /** A place among `maxJobs` queued or running jobs. */
  private readonly slots: Slots;
  /** The runs this coordinator ran jobs of (for the caps' report). */
  private readonly runIds = new Set<string>();
  private readonly pending = new Set<Promise<unknown>>();
  /** Says when Redis is lost and back; every BullMQ object of the coordinator reports to it. */
  readonly watch: ConnectionWatch;

  constructor(private readonly options: FleetJobsOptions) {
    this.slots = new Slots(options.maxJobs);
    this.watch = new ConnectionWatch(options.url, options.log ?? ((line) => void process.stderr.write(`seek: ${line}\n`)));
    this.watch.watch(options.redis);
    this.queue = new Queue(QUEUE_NAME, { connection: connectionOptions(options.url) });
    this.events = new QueueEvents(QUEUE_NAME, { connection: connectionOptions(options.url) });
    this.queue.on('error', this.watch.onError);
    this.events.on('error', this.watch.onError);
  }

  get redis(): Redis {
    return this.options.redis;
  }

  get url(): string {
    return this.options.url;
  }

  get env(): Readonly<Record<string, string | undefined>> {
    return this.options.env;
  }

  async ready(): Promise<void> {
    await Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady()]);
  }

  /** Keeps `work` (fire-and-forget Redis writes) from being cut off by `close`. */
  track(work: Promise<unknown>): void {
    const settled = work.catch(() => undefined);
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
  }

  /** Waits (bounded) for tracked writes, then closes the queue's connections; with Redis
   * unreachable they are dropped after a few seconds instead. */
  async close(): Promise<void> {
    await within(Promise.allSettled([...this.pending]), this.patience(2_000));
    if (!(await within(Promise.allSettled([this.events.close(), this.queue.close()]), this.patience(2_000)))) {
      // BullMQ's disconnect waits for a connection first: bounded too.
      await within(Promise.allSettled([this.events.disconnect(), this.queue.disconnect()]), 200);
    }
  }

  /** A job's spend, or nothing known (zero) when Redis does not answer in time (an outage). */
  spendOf(jobId: string): Promise<Spend> {
    return valueWithin(jobSpend(this.redis, jobId), this.patience(2_000), ZERO_SPEND);
  }

  /** How long to wait for Redis on the way out: `ms`, or a moment while it is unreachable
   * (the steps of a stop add up, and the whole must stay under 10 s). */
  patience(ms: number): number {
    return this.watch.lost ? 200 : ms;
  }

  /**
   * Runs job `jobId` of run `runId` to its end: the existing one, or a new one with `data()` (called only when
   * one is submitted; it may do work first, such as pushing the base commit). `onJob` sees the
   * job once it is in the queue. Throws only when submitting fails.
   */
  async run(jobId: string, runId: string, data: () => Promise<FleetJob>, signal: AbortSignal, onJob?: (job: Job) => void): Promise<JobOutcome> {
    this.runIds.add(runId);
    let job: Job | undefined = await this.queue.getJob(jobId);
    if (job && (await job.getState()) === 'failed') {
      await job.remove();
      await Promise.all([resetJobSpend(this.redis, jobId), resetAttemptErrors(this.redis, jobId)]);
      job = undefined;
    }
    let release: (() => void) | undefined;
    try {
      if (!job) {
        release = await this.slots.acquire(signal);
        if (!release) return { kind: 'canceled', spend: ZERO_SPEND };
        const cap = capReached(await runSpend(this.redis, runId), this.options.limits);
        if (cap) return { kind: 'capped', why: cap };
        const payload = await data();
        assertNoSecrets(payload);
        const timings = fleetTimings(this.options.env);
        job = await this.queue.add(payload.taskId, payload, {
          jobId,
          attempts: timings.attempts,
          backoff: { type: 'fixed', delay: timings.backoffMs },
          removeOnComplete: { age: 7 * 24 * 3600 },
          removeOnFail: { age: 7 * 24 * 3600 },
        });
      }
      onJob?.(job);
      return await this.outcome(job, signal);
    } finally {
      release?.();
    }
  }

  /** For each run of this coordinator whose cap was reached: which cap stopped it and by how much
   * the final spend went past it (read once every job ended). */
  async capReports(): Promise<string[]> {
    const reports = await valueWithin(
      Promise.all([...this.runIds].map(async (runId) => capOvershoot(await runSpend(this.redis, runId), this.options.limits))),
      this.patience(2_000),
      [],
    );
    return reports.filter((line): line is string => line !== undefined);
  }

  /** Counts run `runId` in `capReports` (a plan's flow, submitted without `run`). */
  noteRun(runId: string): void {
    this.runIds.add(runId);
  }

  /** Waits for job `jobId`, already in the queue (a plan's flow submitted it). */
  async wait(jobId: string, signal: AbortSignal): Promise<JobOutcome> {
    const job = await this.queue.getJob(jobId);
    if (!job) return { kind: 'failed', errors: [`job ${jobId} is not in the queue`], spend: ZERO_SPEND, attempts: 0 };
    return this.outcome(job, signal);
  }

  /** Waits for the job; a cancelled caller stops waiting (the job goes on, a resume finds it). */
  private async outcome(job: Job, signal: AbortSignal): Promise<JobOutcome> {
    const jobId = job.id!;
    // The run's signal outlives this job: its listener goes when the job ends (util/abort.ts).
    const abort = abortOrDelay(signal);
    const aborted = abort.done.then(() => 'aborted' as const);
    const finished = job.waitUntilFinished(this.events).then(
      (value: unknown) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error: error as Error }),
    );
    const ended = await Promise.race([finished, aborted]);
    abort.cancel();
    if (ended === 'aborted') return { kind: 'canceled', spend: await this.spendOf(jobId) };
    const spend = await jobSpend(this.redis, jobId);
    const fresh = await this.queue.getJob(jobId);
    const attempts = fresh?.attemptsStarted ?? 1;
    if (!ended.ok) {
      const errors = await attemptErrors(this.redis, jobId);
      const last = fresh?.failedReason ?? ended.error.message;
      if (!errors.some((line) => line.endsWith(last))) errors.push(last);
      return { kind: 'failed', errors, spend, attempts, ...(fresh?.failedReason ? { reason: fresh.failedReason } : {}) };
    }
    return { kind: 'completed', result: resultSchema.parse(ended.value), spend, attempts };
  }
}
