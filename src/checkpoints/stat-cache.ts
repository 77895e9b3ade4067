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
import { mkdtempSync, rmSync } from 'node:fs';
import { copyFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedIndex } from '../worktree/rescue.js';
import { listDriverOverrides, runGitWithOverrides, type GitClient } from '../worktree/git.js';

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
async function signature(path: string): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : '-';
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
  private overrides: { signature: string; args: string[] } | undefined;
  /** One snapshot at a time per repository: they share the private index. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly target: StatCacheTarget) {}

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

  private async runNow<T>(fn: (git: GitClient, env: { GIT_INDEX_FILE: string }) => Promise<T>): Promise<T> {
    const { target } = this;
    this.dir ??= privateDirectory();
    const env = { GIT_INDEX_FILE: join(this.dir, 'index') };
    const [git, userIndex] = await Promise.all([this.client(), signature(target.indexPath)]);
    try {
      if (userIndex !== this.seededFrom) {
        await seedIndex(target.git, target.root, target.indexPath, env.GIT_INDEX_FILE);
        this.seededFrom = userIndex;
        this.addedSinceSeed.clear();
      }
      const result = await fn(git, env);
      if (target.shadowIndex) {
        // The shadow repository's index is seek's own: other processes start from it.
        const staged = `${target.shadowIndex}.${process.pid}.tmp`;
        await copyFile(env.GIT_INDEX_FILE, staged);
        await rename(staged, target.shadowIndex);
        this.seededFrom = await signature(target.shadowIndex);
      }
      return result;
    } catch (error) {
      this.seededFrom = undefined;
      this.addedSinceSeed.clear();
      await rm(env.GIT_INDEX_FILE, { force: true });
      throw error;
    }
  }

  /** The repository's client with its driver overrides, listed again only when its config changed. */
  private async client(): Promise<GitClient> {
    const { target } = this;
    const current = (await Promise.all(target.configPaths.map(signature))).join('|');
    if (this.overrides?.signature !== current) {
      const [args, includes] = await Promise.all([listDriverOverrides({ cwd: target.root, env: target.git.environment }), this.hasIncludes()]);
      this.overrides = { signature: includes ? '' : current, args };
    }
    return target.git.withRunner(runGitWithOverrides(this.overrides.args));
  }

  /** Whether the repository's config includes other files (then it is listed every time). */
  private async hasIncludes(): Promise<boolean> {
    const result = await this.target.git.run(this.target.root, ['config', '--show-scope', '--get-regexp', '^include']);
    return result.code === 0 && /^(local|worktree)\t/m.test(result.stdout);
  }
}
