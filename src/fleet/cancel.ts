/**
 * Cancelling a run across the fleet. The coordinator marks the run cancelled in Redis (no job of
 * it starts from then on: gates.ts) and publishes the run's id on one channel every worker
 * subscribes to; a worker running a job of that run aborts it through BullMQ's `cancelJob` (the
 * processor's AbortSignal), so the task's turn stops, what it spent stays counted, and the job
 * fails "cancelled" without a retry.
 */
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { KEY_PREFIX } from './connection.js';
import { CANCELLED, markCancelled, markJobCancelled } from './gates.js';
import type { FleetJobs } from './jobs.js';
import { within } from './outage.js';

export const CANCEL_CHANNEL = `${KEY_PREFIX}:cancel`;

/** A published message: a run's id, or `job:` and a job's id. */
const JOB_MESSAGE = 'job:';

/** Marks the run cancelled, then tells every worker. */
export async function cancelRun(redis: Redis, runId: string): Promise<void> {
  await markCancelled(redis, runId);
  await redis.publish(CANCEL_CHANNEL, runId);
}

/** Marks one job cancelled, then tells every worker (the one running it stops it). */
export async function cancelJob(redis: Redis, jobId: string): Promise<void> {
  await markJobCancelled(redis, jobId);
  await redis.publish(CANCEL_CHANNEL, `${JOB_MESSAGE}${jobId}`);
}

/** How long a cancel waits for the run's running jobs to stop (a worker aborts one in well under
 * a second); short enough that a coordinator stopped by SIGTERM exits within 10 s. */
export const CANCEL_WAIT_MS = 5_000;

/**
 * Cancels the run, then waits (at most `waitMs`, Redis calls included: during an outage they
 * would wait for its return) until none of `jobIds` is running, so what the stopped jobs spent is
 * in Redis when the caller reads it. Never throws.
 */
export async function cancelAndWait(jobs: FleetJobs, runId: string, jobIds: readonly string[], waitMs = jobs.patience(CANCEL_WAIT_MS)): Promise<void> {
  const deadline = Date.now() + waitMs;
  const cancel = async (): Promise<void> => {
    await cancelRun(jobs.redis, runId);
    while (Date.now() < deadline) {
      const states = await Promise.all(jobIds.map(async (id) => (await jobs.queue.getJob(id))?.getState()));
      if (!states.includes('active')) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  // Redis gone: the jobs' own locks and the cancel flag (once it is written) do the rest.
  await within(cancel(), waitMs);
}

/** A worker's side: which of its running jobs belong to which run, and the subscription. */
export class CancelListener {
  private readonly running = new Map<string, string>();
  private subscriber: Redis | undefined;

  constructor(private readonly worker: () => Worker) {}

  /** Subscribes on a connection of its own (a subscribed client can do nothing else). */
  async start(redis: Redis, log: (line: string) => void): Promise<void> {
    const subscriber = redis.duplicate();
    subscriber.on('error', () => undefined); // it reconnects and subscribes again by itself
    subscriber.on('message', (_channel: string, message: string) => {
      const job = message.startsWith(JOB_MESSAGE) ? message.slice(JOB_MESSAGE.length) : undefined;
      for (const [jobId, run] of this.running) {
        if (job ? jobId !== job : run !== message) continue;
        if (this.worker().cancelJob(jobId, CANCELLED)) log(`job ${jobId} cancelled by its coordinator`);
      }
    });
    await subscriber.subscribe(CANCEL_CHANNEL);
    this.subscriber = subscriber;
  }

  /** Tracks a job for the length of `work`. */
  async around<T>(jobId: string, runId: string, work: () => Promise<T>): Promise<T> {
    this.running.set(jobId, runId);
    try {
      return await work();
    } finally {
      this.running.delete(jobId);
    }
  }

  async close(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }
}
