/**
 * What makes a checkpoint cheap when little changed: a private index per repository, kept for the
 * life of the process, and the repository's driver overrides listed once while its config files
 * stay the same.
 *
 * The private index. Checkpoints never write the user's index, but a fresh copy of it on every
 * snapshot (worktree/rescue.ts `seedIndex`) inherits its stale stat data: every file modified
 * since the user's last git command, and every file written in the second before it (a checkout),
 * is read and hashed again on each snapshot. So the first snapshot in a process seeds a private
 * index from the user's, and later ones start from the private index as the previous snapshot
 * left it: git wrote it, so its stat data and racy-timestamp handling are git's own. When the
 * user's index changes (a `git add`, a commit, a checkout), the private one is seeded again, so
 * the files git tracks (ignored ones included) follow the user's index as before. The private
 * index lives in a temporary directory removed when the process exits.
 *
 * The overrides (worktree/git.ts `listDriverOverrides`) depend only on the repository's own
 * config files; they are listed again when one of those files changes, and on every snapshot
 * when the configuration includes other files (their changes could not be seen).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { copyFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedIndex } from '../worktree/rescue.js';
import { listConfigSafety, runGitWithOverrides, type GitClient } from '../worktree/git.js';
import type { LeftOutSet } from './untracked.js';

export interface StatCacheTarget {
  readonly root: string;
  readonly git: GitClient;
  /** The index a snapshot starts from: the user's, or a shadow repository's own. */
  readonly indexPath: string;
  /** A shadow repository's own index: written back after every snapshot, for other processes. */
  readonly shadowIndex?: string;
  /** The repository's own config files (local and worktree scope), whether they exist or not. */
  readonly configPaths: readonly string[];
}

const privateDirs = new Set<string>();
let exitHookInstalled = false;

function privateDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'seek-checkpoint-index-'));
  privateDirs.add(dir);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const path of privateDirs) rmSync(path, { recursive: true, force: true });
    });
  }
  return dir;
}

/** A file's identity for "has it changed": inode, size and mtime; `-` when it does not exist. */
function signature(path: string): string {
  return fileState(path).signature;
}

/** Synchronous on purpose: one stat of a small file costs microseconds, where a thread-pool round
 * trip waits for a busy main thread (a snapshot checks three files before its first git process). */
function fileState(path: string): { signature: string; mtimeMs?: number } {
  let info;
  try {
    info = statSync(path, { throwIfNoEntry: false });
  } catch {
    info = undefined; // unreadable counts as missing, as it always did
  }
  return info ? { signature: `${info.ino}:${info.size}:${info.mtimeMs}`, mtimeMs: info.mtimeMs } : { signature: '-' };
}

/** What a listing of the config gives: the overrides, and whether the config includes files. */
interface Overrides {
  args: string[];
  includes: boolean;
}

/**
 * A listing of the overrides begun when the repository is opened, beside the `rev-parse` that
 * finds its config files (repository.ts): the first snapshot then need not list the config on its
 * own path. It is used only when no config file was written after the listing began (mtimes older
 * than its start by a margin for coarse file times); otherwise, or when the config includes other
 * files, the snapshot lists the config itself, as it always did.
 */
export interface EarlyListing {
  startedAt: number;
  result: Promise<Overrides | undefined>;
}

/** Mtimes within this of a listing's start may hide a write made after it began. */
const EARLY_LISTING_MARGIN_MS = 2000;

/** Starts listing the overrides of the repository at `cwd` (see EarlyListing). */
export function beginEarlyListing(git: GitClient, cwd: string): EarlyListing {
  const startedAt = Date.now();
  return { startedAt, result: listOverrides(git, cwd).catch(() => undefined) };
}

/** The overrides, and whether the config includes other files (then it is listed every time). */
async function listOverrides(git: GitClient, cwd: string): Promise<Overrides> {
  const { overrides, includes } = await listConfigSafety({ cwd, env: git.environment });
  return { args: overrides, includes };
}

export class StatCache {
  private dir: string | undefined;
  private seededFrom: string | undefined;
  /**
   * Files the private index tracks only because a snapshot added them (untracked in the user's
   * index when it was seeded). Unlike the user's tracked files, one that .gitignore starts to
   * match must leave the snapshot, as it would if each snapshot started from the user's index.
   */
  readonly addedSinceSeed = new Set<string>();
  /** Untracked directories snapshots leave out (untracked.ts): kept while the process lives. */
  readonly leftOut: LeftOutSet = new Map();
  private overrides: { signature: string; args: string[] } | undefined;
  /** One snapshot at a time per repository: they share the private index. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly target: StatCacheTarget,
    private early?: EarlyListing,
  ) {}

  /**
   * Runs `fn` with GIT_INDEX_FILE set to the private index, brought up to date with the user's
   * index first, and a client that carries the driver overrides. A failure discards the private
   * index (the next snapshot seeds a new one).
   */
  run<T>(fn: (git: GitClient, env: { GIT_INDEX_FILE: string }) => Promise<T>): Promise<T> {
    const next = this.queue.then(() => this.runNow(fn));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Lists the overrides and seeds the private index now, ahead of the first snapshot (a session
   * calls it when it opens the repository): a snapshot then only checks that the config files and
   * the user's index are as they were, and its git processes start with the listing done.
   * A failure is left for the snapshot to meet again.
   */
  prepare(): Promise<void> {
    return this.run(async () => undefined).catch(() => undefined);
  }

  private async runNow<T>(fn: (git: GitClient, env: { GIT_INDEX_FILE: string }) => Promise<T>): Promise<T> {
    const { target } = this;
    this.dir ??= privateDirectory();
    const env = { GIT_INDEX_FILE: join(this.dir, 'index') };
    try {
      // Seeding reads no file through a driver (a copy of the user's index, or read-tree of HEAD),
      // so it runs beside the config listing; the snapshot's own git processes wait for both, and
      // a failure of either is handled once both are over (none may touch the index after).
      const [listed, seeded] = await Promise.allSettled([this.client(), this.seed(env.GIT_INDEX_FILE)]);
      if (listed.status === 'rejected') throw listed.reason;
      if (seeded.status === 'rejected') throw seeded.reason;
      const result = await fn(listed.value, env);
      if (target.shadowIndex) {
        // The shadow repository's index is seek's own: other processes start from it.
        const staged = `${target.shadowIndex}.${process.pid}.tmp`;
        await copyFile(env.GIT_INDEX_FILE, staged);
        await rename(staged, target.shadowIndex);
        this.seededFrom = signature(target.shadowIndex);
      }
      return result;
    } catch (error) {
      this.seededFrom = undefined;
      this.addedSinceSeed.clear();
      await rm(env.GIT_INDEX_FILE, { force: true });
      throw error;
    }
  }

  /** Brings the private index up to date with the user's: a new copy when the user's changed. */
  private async seed(privateIndex: string): Promise<void> {
    const userIndex = signature(this.target.indexPath);
    if (userIndex === this.seededFrom) return;
    await seedIndex(this.target.git, this.target.root, this.target.indexPath, privateIndex);
    this.seededFrom = userIndex;
    this.addedSinceSeed.clear();
  }

  /** The repository's client with its driver overrides, listed again only when its config changed. */
  private async client(): Promise<GitClient> {
    const { target } = this;
    const states = target.configPaths.map(fileState);
    const current = states.map((state) => state.signature).join('|');
    if (this.overrides?.signature !== current) {
      const { args, includes } = (await this.earlyListingFor(states)) ?? (await listOverrides(target.git, target.root));
      this.overrides = { signature: includes ? '' : current, args };
    }
    return target.git.withRunner(runGitWithOverrides(this.overrides.args));
  }

  /** The early listing, once, if it stands for the config files as they are now (EarlyListing). */
  private async earlyListingFor(states: readonly { mtimeMs?: number }[]): Promise<Overrides | undefined> {
    const early = this.early;
    this.early = undefined;
    if (!early || states.some((state) => state.mtimeMs !== undefined && state.mtimeMs >= early.startedAt - EARLY_LISTING_MARGIN_MS)) return undefined;
    const listed = await early.result;
    return listed && !listed.includes ? listed : undefined;
  }
}
