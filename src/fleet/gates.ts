/**
 * What a worker checks before it runs a job, all kept in Redis so it holds with the coordinator
 * gone: a cancelled run's jobs fail ("cancelled", not retried); a reference to a dependency
 * completes with that dependency's value once it has completed, and is put back as a delayed job
 * until then (BullMQ retries it after `pollMs`; no worker waits); a run's `maxJobs` slots are
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

/** Puts the active job back as delayed for `pollMs` (the caller rethrows the DelayedError). */
async function later(job: Job, token: string | undefined, pollMs: number): Promise<DelayedError> {
  await job.moveToDelayed(Date.now() + pollMs, token);
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

/**
 * A slot among the run's `maxJobs` running jobs, or a DelayedError to throw (the job comes back
 * after `pollMs`). A job retried after its worker died finds its own slot still held.
 */
export async function takeSlot(redis: Redis, job: Job, token: string | undefined, runId: string, maxJobs: number, pollMs: number): Promise<DelayedError | undefined> {
  const taken = await redis.eval(ACQUIRE, 1, slotsKey(runId), job.id!, String(maxJobs), String(KEEP_SECONDS));
  return taken === 1 ? undefined : later(job, token, pollMs);
}

export async function releaseSlot(redis: Redis, runId: string, jobId: string): Promise<void> {
  await redis.srem(slotsKey(runId), jobId);
}

const waitersKey = (jobId: string): string => `${KEY_PREFIX}:refs:${jobId}`;

/**
 * Resolves references to dependencies: the referenced job's value, or a DelayedError to throw. A
 * delayed reference is noted under the job it waits for, and a worker that completes that job
 * promotes it (`wake`), so a dependant usually starts at once rather than after the poll.
 */
export class References {
  private queue: Queue | undefined;

  constructor(
    private readonly connection: () => Queue,
    private readonly redis: Redis,
  ) {}

  async resolve(job: Job, token: string | undefined, ref: FleetRef, pollMs: number): Promise<unknown> {
    const target = await this.open().getJob(ref.ref);
    if (!target) throw new UnrecoverableError(`dependency ${ref.taskId} (job ${ref.ref}) is not in the queue`);
    const state = await target.getState();
    if (state === 'completed') return target.returnvalue;
    if (state === 'failed') throw new UnrecoverableError(`dependency ${ref.taskId} failed: ${target.failedReason}`);
    await this.redis.multi().sadd(waitersKey(ref.ref), job.id!).expire(waitersKey(ref.ref), KEEP_SECONDS).exec();
    throw await later(job, token, pollMs);
  }

  /** Promotes the references waiting for `jobId`, which has just completed (never throws). */
  async wake(jobId: string): Promise<void> {
    try {
      const waiting = await this.redis.smembers(waitersKey(jobId));
      if (waiting.length === 0) return;
      await this.redis.del(waitersKey(jobId));
      await Promise.all(waiting.map(async (id) => (await this.open().getJob(id))?.promote().catch(() => undefined)));
    } catch {
      // the poll brings them anyway
    }
  }

  private open(): Queue {
    return (this.queue ??= this.connection());
  }

  async close(): Promise<void> {
    await this.queue?.close();
  }
}
