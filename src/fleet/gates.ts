/**
 * What a worker checks before it runs a job, all kept in Redis so it holds with the coordinator
 * gone: a cancelled run's (or job's) jobs fail ("cancelled", not retried); a reference to a
 * dependency completes with that dependency's value once it has completed, and is put back as a
 * delayed job until then (BullMQ brings it back; no worker waits); a run's `maxJobs` slots are
 * taken per running job, and a job finding them all taken is delayed the same way.
 */
import { DelayedError, Queue, UnrecoverableError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { KEY_PREFIX } from './connection.js';
import type { FleetRef } from './payload.js';

const KEEP_SECONDS = 7 * 24 * 3600;
export const CANCELLED = 'cancelled';
const cancelledKey = (runId: string): string => `${KEY_PREFIX}:cancelled:${runId}`;
const cancelledJobKey = (jobId: string): string => `${KEY_PREFIX}:cancelled-job:${jobId}`;
const slotsKey = (runId: string): string => `${KEY_PREFIX}:slots:${runId}`;

/** Marks a run cancelled: none of its jobs starts from now on. */
export async function markCancelled(redis: Redis, runId: string): Promise<void> {
  await redis.set(cancelledKey(runId), '1', 'EX', KEEP_SECONDS);
}

/** Marks one job cancelled: it does not start from now on. */
export async function markJobCancelled(redis: Redis, jobId: string): Promise<void> {
  await redis.set(cancelledJobKey(jobId), '1', 'EX', KEEP_SECONDS);
}

/** Lifts one job's cancel (it is submitted again). */
export async function clearJobCancelled(redis: Redis, jobId: string): Promise<void> {
  await redis.del(cancelledJobKey(jobId));
}

/** Lifts a run's cancel (`--rerun-cancelled`). */
export async function clearCancelled(redis: Redis, runId: string): Promise<void> {
  await redis.del(cancelledKey(runId));
}

export async function isCancelled(redis: Redis, runId: string): Promise<boolean> {
  return (await redis.exists(cancelledKey(runId))) === 1;
}

/** Throws "cancelled" (not retried) when the job or its run was cancelled. */
export async function refuseCancelled(redis: Redis, runId: string, jobId: string): Promise<void> {
  if ((await redis.exists(cancelledKey(runId), cancelledJobKey(jobId))) > 0) throw new UnrecoverableError(CANCELLED);
}

/** How a waiting job comes back: after `minMs`, doubling each time it is still waiting, up to
 * `maxMs`. BullMQ's rate limiter counts every start, a waiting job's too, so few polls matter;
 * the wake-ups below bring a waiting job back as soon as what it waits for happens. */
export interface Polling {
  minMs: number;
  maxMs: number;
}

/** Puts the active job back as delayed (the caller throws the DelayedError). */
async function later(job: Job, token: string | undefined, polling: Polling): Promise<DelayedError> {
  const waits = Math.max(0, job.attemptsStarted - 1);
  const delay = Math.min(polling.maxMs, polling.minMs * 2 ** Math.min(waits, 20));
  await job.moveToDelayed(Date.now() + delay, token);
  return new DelayedError();
}

const ACQUIRE = `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('SADD', KEYS[1], ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[3])
  return 1
end
return 0`;

/** Frees a job's slot of the run (never throws; a worker that frees one also wakes the waiters). */
export async function releaseSlot(redis: Redis, runId: string, jobId: string): Promise<void> {
  await redis.srem(slotsKey(runId), jobId).catch(() => undefined);
}

const refWaitersKey = (jobId: string): string => `${KEY_PREFIX}:refs:${jobId}`;
const slotWaitersKey = (runId: string): string => `${KEY_PREFIX}:slot-waiters:${runId}`;

/**
 * The waits of a worker's jobs. A reference resolves to the referenced job's value once that job
 * has completed; a job of a run with `maxJobs` takes a slot. Either, when it must wait, goes back
 * as a delayed job noted under what it waits for, and the worker that completes the referenced
 * job, or frees a slot, promotes the waiters at once.
 */
export class Waits {
  private queue: Queue | undefined;

  constructor(
    private readonly connection: () => Queue,
    private readonly redis: Redis,
    private readonly polling: Polling,
  ) {}

  /** The referenced job's value, or throws a DelayedError (wait) or an UnrecoverableError. */
  async resolve(job: Job, token: string | undefined, ref: FleetRef): Promise<unknown> {
    const target = await this.open().getJob(ref.ref);
    if (!target) throw new UnrecoverableError(`dependency ${ref.taskId} (job ${ref.ref}) is not in the queue`);
    const state = await target.getState();
    if (state === 'completed') {
      // `target` was read before its state: a job that completed in between was read without
      // its value, so the value is read again now that the job is known to be complete.
      const done = target.returnvalue ?? (await this.open().getJob(ref.ref))?.returnvalue;
      if (done === undefined || done === null) throw new UnrecoverableError(`dependency ${ref.taskId} (job ${ref.ref}) completed without a result`);
      return done;
    }
    if (state === 'failed') throw new UnrecoverableError(`dependency ${ref.taskId} failed: ${target.failedReason}`);
    await this.note(refWaitersKey(ref.ref), job.id!);
    throw await later(job, token, this.polling);
  }

  /** A slot among the run's `maxJobs` running jobs, or a DelayedError to throw. A job retried
   * after its worker died finds its own slot still held. */
  async takeSlot(job: Job, token: string | undefined, runId: string, maxJobs: number): Promise<DelayedError | undefined> {
    const taken = await this.redis.eval(ACQUIRE, 1, slotsKey(runId), job.id!, String(maxJobs), String(KEEP_SECONDS));
    if (taken === 1) return undefined;
    await this.note(slotWaitersKey(runId), job.id!);
    return later(job, token, this.polling);
  }

  async releaseSlot(runId: string, jobId: string): Promise<void> {
    await releaseSlot(this.redis, runId, jobId);
    await this.wake(slotWaitersKey(runId));
  }

  /** `jobId` has just completed: the references waiting for it come back now. */
  async completed(jobId: string): Promise<void> {
    await this.wake(refWaitersKey(jobId));
  }

  async close(): Promise<void> {
    await this.queue?.close();
  }

  private async note(key: string, jobId: string): Promise<void> {
    await this.redis.multi().sadd(key, jobId).expire(key, KEEP_SECONDS).exec();
  }

  /** Promotes the delayed jobs noted under `key` (never throws: their polls bring them anyway). */
  private async wake(key: string): Promise<void> {
    try {
      const waiting = await this.redis.smembers(key);
      if (waiting.length === 0) return;
      await this.redis.srem(key, ...waiting);
      await Promise.all(waiting.map(async (id) => (await this.open().getJob(id))?.promote().catch(() => undefined)));
    } catch {
      // the poll brings them back
    }
  }

  private open(): Queue {
    return (this.queue ??= this.connection());
  }
}
