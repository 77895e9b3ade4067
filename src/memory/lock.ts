/**
 * The inter-process lock around every change to a project's memory files. Two seek processes in
 * the same project (two terminals, a headless run beside the TUI) each read the files fresh under
 * the lock, change them and replace them atomically, so no change is ever lost to a stale copy.
 *
 * proper-lockfile creates `<dir>/memory.lock` with mkdir (atomic on every local filesystem) and
 * refreshes its mtime while held; a lock left by a crashed process is taken over once it is older
 * than `STALE_MS`. Readers need no lock: files are only ever replaced by rename.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCK_NAME = 'memory.lock';
/** A held lock is refreshed every STALE_MS / 2; one not refreshed for this long is abandoned. */
const STALE_MS = 10_000;
/** How long a writer waits for the lock before giving up with an error. */
export const DEFAULT_LOCK_WAIT_MS = 30_000;

export class MemoryLockError extends Error {
  override readonly name = 'MemoryLockError';
}

/**
 * Runs `task` holding the lock of `dir` (created if missing). Waits with jittered backoff while
 * another process holds it; throws MemoryLockError after `waitMs`.
 */
export async function withMemoryLock<T>(dir: string, task: () => Promise<T>, waitMs = DEFAULT_LOCK_WAIT_MS): Promise<T> {
  await mkdir(dir, { recursive: true });
  const lockfilePath = join(dir, LOCK_NAME);
  const deadline = Date.now() + waitMs;
  // Loaded here, not at start-up: most runs change no memory (graceful-fs and friends come with it).
  const { default: lockfile } = await import('proper-lockfile');
  let release: (() => Promise<void>) | undefined;
  while (!release) {
    try {
      release = await lockfile.lock(dir, {
        lockfilePath,
        realpath: false,
        stale: STALE_MS,
        // Retries here are short; the loop below bounds the total wait by time, not by count.
        retries: { retries: 20, factor: 1.3, minTimeout: 2, maxTimeout: 60, randomize: true },
        // A compromised lock (refresh failed, e.g. the event loop stalled past STALE_MS) must not
        // crash seek from a timer; the write in progress still completes by rename.
        onCompromised: () => undefined,
      });
    } catch (error) {
      if ((error as { code?: string }).code !== 'ELOCKED') throw error;
      if (Date.now() > deadline) {
        throw new MemoryLockError(`another seek process has held the memory lock ${lockfilePath} for over ${Math.round(waitMs / 1000)} s; try again`);
      }
    }
  }
  try {
    return await task();
  } finally {
    await release().catch(() => undefined);
  }
}
