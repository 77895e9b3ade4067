/**
 * One writer per session file. A seek process that writes a session records itself in an owner
 * file next to it (`<sid>.jsonl` -> `<sid>.owner.json`: pid, host, a random token, and `settled`,
 * the number of entries that belong to finished turns). Another process that wants to continue
 * the session (`--continue`, `--resume`, `/resume`) sees a live owner and forks instead of writing
 * into the same file (see resume.ts).
 *
 * Robust to crashes: an owner is live only while its pid runs (on this host), so a crashed seek
 * never locks its session: the next process takes the lock over. Taking the lock (read the owner,
 * check it, write ours) happens under a short proper-lockfile mutex (`<sid>.owner.lock`), so two
 * processes starting at once never both win. Known limits: a reused pid looks alive (the session
 * is then forked, never corrupted), and an owner on another host (a shared home) always counts as
 * live, since its pid cannot be checked from here.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { isProcessAlive } from '../util/process.js';

export interface SessionOwner {
  pid: number;
  hostname: string;
  /** When the lock was taken (ISO). */
  since: string;
  /** Identifies one holder; release removes the file only while it still holds this token. */
  token: string;
  /** Entries with index < settled belong to finished turns (updated at every turn end); a fork
   * copies only those. Absent: every entry on file. */
  settled?: number;
}

/** The outcome of `lockSession`: the lock, or the live process that holds it (undefined when the
 * owner could not be checked at all, e.g. the mutex stayed busy). */
export type LockOutcome = { lock: SessionLock } | { heldBy: SessionOwner | undefined };

/** The mutex only guards a read and a write (milliseconds); one left by a crash is stale after this. */
const MUTEX_STALE_MS = 5_000;

/** `<dir>/<name>.jsonl` -> `<dir>/<name>.owner.json` (listing ignores it: not a `.jsonl` name). */
export function ownerFile(sessionPath: string): string {
  return `${sessionPath.replace(/\.jsonl$/, '')}.owner.json`;
}

/** A held session lock. `settle` and `release` are synchronous so the writer can call them from
 * anywhere (its close runs at exit). */
export class SessionLock {
  constructor(
    readonly path: string,
    private owner: SessionOwner,
  ) {}

  get pid(): number {
    return this.owner.pid;
  }

  /** Records that the first `entries` entries are complete (a turn ended). Never throws: the lock
   * still holds without it, a fork just copies less. */
  settle(entries: number): void {
    if (this.owner.settled === entries) return;
    this.owner = { ...this.owner, settled: entries };
    try {
      writeOwner(this.path, this.owner);
    } catch {
      // See above.
    }
  }

  /** Removes the owner file if it is still ours. Idempotent, never throws. */
  release(): void {
    try {
      if (readOwner(this.path)?.token === this.owner.token) unlinkSync(this.path);
    } catch {
      // A lock that cannot be removed is taken over once this process has ended.
    }
  }
}

/** The live process holding `sessionPath`, if any. */
export function liveOwner(sessionPath: string): SessionOwner | undefined {
  const owner = readOwner(ownerFile(sessionPath));
  return owner && isLive(owner) ? owner : undefined;
}

/** Takes the lock of an existing session file, unless a live process holds it. */
export async function lockSession(sessionPath: string): Promise<LockOutcome> {
  const path = ownerFile(sessionPath);
  let unlockMutex: (() => Promise<void>) | undefined;
  // Loaded on first use, not at start-up (only resumed sessions are locked this way).
  const { default: lockfile } = await import('proper-lockfile');
  try {
    unlockMutex = await lockfile.lock(path, {
      lockfilePath: `${path.replace(/\.json$/, '')}.lock`,
      realpath: false,
      stale: MUTEX_STALE_MS,
      // Bounded by count; together about 8 s, past MUTEX_STALE_MS, so a crashed holder is taken over.
      retries: { retries: 40, factor: 1.3, minTimeout: 5, maxTimeout: 250, randomize: true },
      onCompromised: () => undefined,
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ELOCKED') return { heldBy: liveOwner(sessionPath) };
    throw error;
  }
  try {
    const current = readOwner(path);
    if (current && isLive(current)) return { heldBy: current };
    return { lock: claim(path) };
  } finally {
    await unlockMutex().catch(() => undefined);
  }
}

/** Locks a session file this process has just created (a fresh id: nobody else can contend). */
export function claimNewSession(sessionPath: string, settled: number): SessionLock {
  return claim(ownerFile(sessionPath), settled);
}

function claim(path: string, settled?: number): SessionLock {
  const owner: SessionOwner = {
    pid: process.pid,
    hostname: hostname(),
    since: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
    ...(settled !== undefined ? { settled } : {}),
  };
  writeOwner(path, owner);
  return new SessionLock(path, owner);
}

function isLive(owner: SessionOwner): boolean {
  return owner.hostname !== hostname() || isProcessAlive(owner.pid);
}

/** The owner on file; undefined when there is none or it cannot be read (a stale leftover). */
function readOwner(path: string): SessionOwner | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const owner = value as Partial<SessionOwner>;
  if (typeof owner.pid !== 'number' || typeof owner.hostname !== 'string' || typeof owner.token !== 'string') return undefined;
  return { since: '', ...owner } as SessionOwner;
}

/** Write then rename: a reader sees the old owner or the new one, never half of one. */
function writeOwner(path: string, owner: SessionOwner): void {
  const temporary = `${path}.${owner.token}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
