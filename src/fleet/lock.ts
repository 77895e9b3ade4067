/**
 * A worker's view of its jobs' locks. BullMQ renews each running job's lock on a timer; when Redis
 * was unreachable for longer than the lock (or came back without it), the renewal fails, the
 * stalled check of some worker puts the job back in the queue and another attempt runs it. The
 * attempt that lost its lock must then leave no trace of its own: it is aborted at once (its
 * model calls stop), it publishes nothing (worker.ts renews the lock right before pushing, and a
 * refused renewal is a loss too), and it records no failure of the job. What it spent stays
 * counted: usage goes to Redis call by call and is kept by the job's spend (spend.ts).
 *
 * One line says it, once per attempt; BullMQ's own errors about that lock ("could not renew lock",
 * "Missing lock … moveToFinished", "Lock mismatch", "not in the active state") are explained by it
 * and not logged again.
 */
import type { Worker } from 'bullmq';

/** The abort reason of an attempt that lost its lock. */
export const LOCK_LOST = 'lock lost';

export class LockLost extends Error {
  override readonly name = 'LockLost';
}

const LOCK_ERROR = [/^could not renew lock for job (.+)$/, /^Missing lock for job (.+?)\. \w+/, /^Lock mismatch for job (.+?)\. Cmd/, /^Job (.+) is not in the active state/];
/** Lost jobs remembered for BullMQ's late errors about them (bounded). */
const REMEMBERED = 1_000;

export class LockWatch {
  /** Running jobs and their attempt. */
  private readonly attempts = new Map<string, number>();
  private readonly lostIds = new Set<string>();

  constructor(
    private readonly worker: () => Worker,
    private readonly log: (line: string) => void,
  ) {}

  /** A new attempt of `jobId` runs here: whatever an earlier one lost is forgotten. */
  track(jobId: string, attempt: number): void {
    this.attempts.set(jobId, attempt);
    this.lostIds.delete(jobId);
  }

  untrack(jobId: string): void {
    this.attempts.delete(jobId);
  }

  isLost(jobId: string): boolean {
    return this.lostIds.has(jobId);
  }

  /** Records that this worker no longer holds `jobId`'s lock: says so once, aborts the attempt if
   * it still runs, and returns the error its processor throws. */
  lost(jobId: string): LockLost {
    const attempt = this.attempts.get(jobId);
    const which = attempt === undefined ? '' : ` attempt ${attempt}`;
    if (!this.lostIds.has(jobId)) {
      this.lostIds.add(jobId);
      if (this.lostIds.size > REMEMBERED) this.lostIds.delete(this.lostIds.values().next().value!);
      this.log(`job ${jobId}${which} lost its lock (Redis was unreachable for longer than the lock); this attempt is stopped and publishes nothing, another attempt runs the task`);
      if (attempt !== undefined) this.worker().cancelJob(jobId, LOCK_LOST);
    }
    return new LockLost(`job ${jobId}${which} lost its lock`);
  }

  /** Whether a BullMQ error is about a lock this worker lost (then reported by `lost`). */
  explains(error: Error): boolean {
    for (const pattern of LOCK_ERROR) {
      const jobId = pattern.exec(error.message)?.[1];
      if (jobId === undefined) continue;
      this.lost(jobId);
      return true;
    }
    return false;
  }
}
