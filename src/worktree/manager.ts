/**
 * `WorktreeManager`: seek-managed git worktrees of one project (seek-spec section 4).
 *
 * A worktree lives at `<SEEK_HOME>/projects/<pid>/worktrees/<id>` on branch `seek/wt/<id>` (or a
 * branch the caller names), created from a base commit that the anchor ref
 * `refs/seek/worktrees/<id>` remembers; seek's metadata sits next to it in `worktrees/<id>.json`.
 * Everything here works from any process: state is on disk and in git, nothing only in memory.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { worktreesDir } from '../config/paths.js';
import { isSessionId, newSessionId } from '../session/format.js';
import {
  baseOf,
  discard,
  failed,
  kept,
  mergeAndRemove,
  removeClean,
  worktreeStatus,
  type CleanupContext,
  type Target,
} from './cleanup.js';
import { WorktreeError } from './errors.js';
import { errorText, GitClient, runGit, type Env, type GitRunner } from './git.js';
import {
  ANCHOR_PREFIX,
  DISCARDED_MAX_AGE_MS,
  findWorktree,
  housekeep,
  problemNotice,
  problemOf,
  scanWorktrees,
  toListing,
  type HousekeepingReport,
  type ScannedWorktree,
} from './housekeeping.js';
import { copyIncluded, includedFiles, linkFolders } from './include.js';
import { pruneDiscarded, workingStateTree } from './rescue.js';
import { diffTrees } from './diff.js';
import { collectStale, type StaleCollection } from './stale.js';
import { liveOtherOwner, readMeta, removeMeta, WorktreeDirs, writeMeta } from './store.js';
import type { CleanupOutcome, CreateOptions, IfDirty, MergeGuard, MergeTarget, WorktreeInfo, WorktreeListing } from './types.js';
import { mapLimit } from '../util/map-limit.js';

export { WorktreeError, type WorktreeErrorCode } from './errors.js';
export { DISCARDED_MAX_AGE_MS, problemNotice, type HousekeepingReport } from './housekeeping.js';
export type { StaleCollection } from './stale.js';
export type { CreateOptions, MergeGuard, MergeRefusal, MergeTarget } from './types.js';

const GC_TIMEOUT_MS = 30_000;

export interface WorktreeManagerOptions {
  projectRoot: string;
  seekHome: string;
  projectId: string;
  /** Folders of the main tree to link into new worktrees (config `worktree.symlink`). */
  symlinks?: string[];
  /** Replaces `runGit` (tests inject failures). */
  git?: GitRunner;
  /** Extra environment for every git call (tests point GIT_CONFIG_GLOBAL at an empty file). */
  env?: Env;
  /** The clock for ids and rescue ref names (tests). */
  clock?: () => Date;
}

export class WorktreeManager {
  readonly projectRoot: string;
  private readonly dirs: WorktreeDirs;
  private readonly git: GitClient;
  private readonly symlinks: string[];
  private readonly clock: () => Date;
  private identity: Promise<string[]> | undefined;
  private mainGitDir: Promise<string> | undefined;
  private adding: Promise<unknown> = Promise.resolve();

  /**
   * Called just before a merge changes a working tree (the session sets it: a checkpoint of that
   * tree, so a rewind can go back to just before the merge). Must not throw.
   */
  beforeMerge: ((root: string, what: string) => Promise<void>) | undefined;

  constructor(options: WorktreeManagerOptions) {
    this.projectRoot = options.projectRoot;
    this.dirs = new WorktreeDirs(worktreesDir(options.seekHome, options.projectId));
    this.git = new GitClient(options.git ?? runGit, options.env);
    this.symlinks = options.symlinks ?? [];
    this.clock = options.clock ?? (() => new Date());
  }

  /** The directory holding this project's worktrees. */
  get worktreesDir(): string {
    return this.dirs.dir;
  }

  /** Creates a worktree at `base` (default HEAD) on a new branch. Throws a WorktreeError carrying
   * git's stderr; on failure nothing is left behind (no worktree, branch, ref or metadata). */
  async create(options: CreateOptions = {}): Promise<WorktreeInfo> {
    const root = this.projectRoot;
    for (const value of [options.branch, options.base]) {
      if (value !== undefined && (value === '' || value.startsWith('-'))) throw new WorktreeError(`invalid branch or base "${value}"`, 'create_error');
    }
    const resolved = await this.git.run(options.baseDir ?? root, ['rev-parse', '--verify', `${options.base ?? 'HEAD'}^{commit}`]);
    if (resolved.code !== 0) throw new WorktreeError(`cannot resolve base ${options.base ?? 'HEAD'}: ${resolved.stderr.trim()}`, 'create_error');
    const base = resolved.stdout.trim();
    if (options.branch && (await this.git.run(root, ['show-ref', '--verify', '--quiet', `refs/heads/${options.branch}`])).code === 0) {
      throw new WorktreeError(`a branch named '${options.branch}' already exists`, 'create_error');
    }
    await mkdir(this.dirs.dir, { recursive: true });
    const createdAt = this.clock();
    const id = newSessionId(createdAt);
    const info: WorktreeInfo = { id, path: this.dirs.pathOf(id), branch: options.branch ?? `seek/wt/${id}`, base };

    // The include listing walks the main tree; it runs while git checks the worktree out.
    const [added, included] = await Promise.all([
      this.serialAdd(() => this.git.run(root, ['worktree', 'add', '-b', info.branch, info.path, base])),
      includedFiles(this.git, root).then(
        (files) => ({ files }),
        (error: unknown) => ({ error }),
      ),
    ]);
    if (added.code !== 0) {
      await this.undoCreate(info);
      throw new WorktreeError(`git worktree add failed: ${added.stderr.trim()}`, 'create_error');
    }
    await this.git.run(root, ['update-ref', `${ANCHOR_PREFIX}${id}`, base]); // failure ignored (spec)
    try {
      const meta = {
        schema_version: 1 as const,
        id,
        path: info.path,
        branch: info.branch,
        base,
        created_at: createdAt.toISOString(),
        owner_pid: process.pid,
        owner_host: hostname(),
      };
      await writeMeta(this.dirs.dir, options.ownerSubSid ? { ...meta, owner_sub_sid: options.ownerSubSid } : meta);
      if ('error' in included) throw included.error;
      await copyIncluded(root, info.path, included.files);
      if (this.symlinks.length > 0) await linkFolders(this.wtGit(), root, info.path, this.symlinks);
    } catch (error) {
      await this.undoCreate(info);
      throw new WorktreeError(`preparing the worktree failed: ${errorText(error)}`, 'create_error');
    }
    return info;
  }

  /** `git worktree add` one at a time per project: concurrent adds (parallel editors of a plan)
   * race on the repository's shared files and fail now and then. */
  private serialAdd<T>(add: () => Promise<T>): Promise<T> {
    const turn = this.adding.then(add);
    this.adding = turn.catch(() => undefined);
    return turn;
  }

  private async undoCreate(info: WorktreeInfo): Promise<void> {
    await this.git.run(this.projectRoot, ['worktree', 'remove', '--force', info.path]);
    await rm(info.path, { recursive: true, force: true });
    await this.git.run(this.projectRoot, ['update-ref', '-d', `${ANCHOR_PREFIX}${info.id}`]);
    await this.git.run(this.projectRoot, ['update-ref', '-d', `refs/heads/${info.branch}`, info.base]);
    await removeMeta(this.dirs.dir, info.id);
  }

  /** `git status --porcelain` line count: untracked files count, ignored ones (copied includes,
   * linked folders) do not. Throws a GitError when git cannot tell. */
  async status(path: string): Promise<number> {
    return (await worktreeStatus(this.wtGit(), path)).changes;
  }

  /** The commit the worktree started from: its metadata, else its anchor ref. */
  async baseOf(id: string): Promise<string | undefined> {
    return baseOf(this.context(), { id, path: this.dirs.pathOf(id), meta: await readMeta(this.dirs.dir, id) });
  }

  /** Records this process as the worktree's user (a resumed session works in it again), so
   * `seek worktree gc` leaves it alone while this process runs. Best effort. */
  async adopt(id: string): Promise<void> {
    const meta = await readMeta(this.dirs.dir, id).catch(() => undefined);
    if (meta) await writeMeta(this.dirs.dir, { ...meta, owner_pid: process.pid, owner_host: hostname() }).catch(() => undefined);
  }

  /** Commits on the worktree's HEAD that `base` does not have (0 when git cannot tell). */
  async commitsSince(path: string, base: string): Promise<number> {
    const counted = await this.wtGit().run(path, ['rev-list', '--count', `${base}..HEAD`]);
    return counted.code === 0 ? Number(counted.stdout.trim()) || 0 : 0;
  }

  /** Uncommitted changes in `dir` (default: the main working tree), counted like `status`. */
  async treeChanges(dir: string = this.projectRoot): Promise<number> {
    return (await worktreeStatus(this.git, dir)).changes;
  }

  /**
   * Ends a worktree (CONTRACT.md result strings); `merge` goes into `options.into` (default: the
   * main working tree). A worktree whose owner (the seek process that made or resumed it, see
   * `adopt`) is another process still running on this host is refused whatever `ifDirty` says:
   * that session may be working in it. Never throws.
   */
  async cleanup(path: string, ifDirty: IfDirty = 'keep', options: MergeTarget = {}): Promise<CleanupOutcome> {
    if (!['keep', 'discard', 'merge'].includes(ifDirty)) return failed('cleanup_error', `unknown if_dirty value "${String(ifDirty)}"`);
    try {
      const target = await this.target(path);
      if (!target) return failed('cleanup_error', `${path} is not a seek-managed worktree of this project`);
      const owner = options.anyOwner ? undefined : liveOtherOwner(target.meta);
      if (owner !== undefined) {
        return failed('cleanup_error', `worktree ${target.id} belongs to another running seek process (pid ${owner}), which may be working in it; it was not touched`);
      }
      if (!existsSync(target.path)) return removeClean(this.context(), target);
      let status;
      try {
        status = await worktreeStatus(this.wtGit(), target.path);
      } catch (error) {
        return failed('unknown_status', errorText(error));
      }
      if (ifDirty === 'merge') return mergeAndRemove(this.context(options.into, options.guard), target, status);
      if (status.changes === 0) return removeClean(this.context(), target);
      if (ifDirty === 'keep') return kept(target.path, status.branch ?? target.meta?.branch ?? '(detached)', status.changes);
      return discard(this.context(), target, status);
    } catch (error) {
      return failed('cleanup_error', errorText(error));
    }
  }

  /** `seek worktree merge ID|PATH`: merge the worktree into the main tree's current branch. */
  async merge(idOrPath: string): Promise<CleanupOutcome> {
    const found = await this.findScanned(idOrPath);
    const problem = problemOf(found);
    if (problem) return failed('merge_error', `worktree ${found.id} cannot be merged: ${problem.replace('_', ' ')}`);
    return this.cleanup(found.path, 'merge', { anyOwner: true });
  }

  /**
   * `seek worktree diff ID` and the `/worktrees` diff view: everything the worktree holds against
   * the commit it started from (its commits, uncommitted changes and new files, which is what a
   * merge brings), as `git diff --stat` then the patch, cut at `maxBytes`. Nothing in the worktree
   * changes. Throws a WorktreeError (not_found, ambiguous, or a worktree with a problem) or a
   * GitError.
   */
  async diff(idOrPath: string, maxBytes = Number.POSITIVE_INFINITY): Promise<{ id: string; base: string; text: string }> {
    const found = await this.findScanned(idOrPath);
    const problem = problemOf(found);
    if (problem) throw new WorktreeError(`worktree ${found.id} has no diff to show: ${problem.replace('_', ' ')}`, 'not_found');
    const base = (await this.baseOf(found.id)) ?? (await this.wtGit().value(found.path, ['rev-parse', 'HEAD']));
    return { id: found.id, base, text: await this.diffTrees(base, await this.snapshotTree(found.path), maxBytes) };
  }

  /**
   * `seek worktree remove ID [--discard]`. A clean worktree is removed; a dirty one is refused (a
   * WorktreeError naming the change count) unless `discard`, which rescues the changes first. A
   * worktree whose directory is gone just loses its records; one git no longer knows is deleted
   * only with `discard` (git cannot rescue it).
   */
  async remove(idOrPath: string, options: { discard?: boolean } = {}): Promise<CleanupOutcome> {
    const found = await this.findScanned(idOrPath);
    const target: Target = { id: found.id, path: found.path, meta: found.meta };
    if (!found.hasDirectory) return removeClean(this.context(), target);
    if (!found.registration) {
      if (!options.discard) {
        throw new WorktreeError(`git no longer knows worktree ${found.id} (${found.path}), so its changes cannot be rescued; use --discard to delete the directory`, 'not_registered');
      }
      await rm(found.path, { recursive: true, force: true });
      return removeClean(this.context(), target);
    }
    let status;
    try {
      status = await worktreeStatus(this.wtGit(), found.path);
    } catch (error) {
      return failed('unknown_status', errorText(error));
    }
    if (status.changes === 0) return removeClean(this.context(), target);
    if (!options.discard) {
      const changes = `${status.changes} uncommitted change${status.changes === 1 ? '' : 's'}`;
      throw new WorktreeError(`worktree ${found.id} has ${changes} (${found.path}); use --discard to remove it anyway (the changes are saved under refs/seek/discarded/ first)`, 'dirty');
    }
    return discard(this.context(), target, status);
  }

  /** Every seek worktree of the project, newest first, with change counts and problems. */
  async list(): Promise<WorktreeListing[]> {
    const found = await scanWorktrees(this.git, this.projectRoot, this.dirs);
    return mapLimit(found, 4, async (entry) => {
      const changes = problemOf(entry) ? undefined : await this.status(entry.path).catch(() => undefined);
      return toListing(entry, changes);
    });
  }

  /** Deletes `refs/seek/discarded/*` older than `olderThanMs` by the time in their name (0 = all).
   * Returns how many; see `formatPruneMessage`. */
  async gc(options: { olderThanMs?: number } = {}): Promise<number> {
    const git = this.git.withSignal(AbortSignal.timeout(GC_TIMEOUT_MS));
    return pruneDiscarded(git, this.projectRoot, options.olderThanMs ?? DISCARDED_MAX_AGE_MS, this.clock());
  }

  /**
   * The worktree half of `seek worktree gc`: removes clean worktrees created more than `olderThanMs`
   * ago (0 = any age) whose seek process is gone, the way a clean exit would (a branch holding
   * commits is kept). Worktrees with uncommitted changes are never touched, only counted; neither
   * are ones whose process still runs on this host (a session may be working in them), nor
   * problem worktrees (see `seek worktree remove`).
   */
  async collectStale(options: { olderThanMs?: number } = {}): Promise<StaleCollection> {
    const olderThanMs = options.olderThanMs ?? DISCARDED_MAX_AGE_MS;
    const cutoff = this.clock().getTime() - olderThanMs;
    return collectStale(this.context(), await scanWorktrees(this.git, this.projectRoot, this.dirs), olderThanMs, cutoff);
  }

  /**
   * Housekeeping, best effort and bounded by `maxMs` (default 2 s): prunes discarded refs older
   * than 48 h and finds problem worktrees. Starts no git process when the project has no
   * `refs/seek/` refs and no worktrees directory. Never throws; on timeout it returns what it had.
   */
  housekeep(options: { maxMs?: number } = {}): Promise<HousekeepingReport> {
    return housekeep(this.git, this.projectRoot, this.dirs, this.clock(), options.maxMs ?? 2000);
  }

  /** `housekeep` for session start: one notice per problem worktree, for people. */
  async startupHousekeeping(options: { maxMs?: number } = {}): Promise<string[]> {
    return (await this.housekeep(options)).problems.map(problemNotice);
  }

  /**
   * The full working state of `dir` (default: the main working tree) as a git tree id: tracked
   * changes and untracked files, ignored ones excepted. Nothing in `dir` changes. Two snapshots
   * and `diffTrees` give exactly what happened in between.
   */
  async snapshotTree(dir: string = this.projectRoot): Promise<string> {
    return workingStateTree(dir === this.projectRoot ? this.git : this.wtGit(), dir);
  }

  /** `git diff --stat` then the patch between two trees, cut at `maxBytes` with a marker saying
   * how to see the rest. Empty when they are the same. */
  async diffTrees(from: string, to: string, maxBytes: number): Promise<string> {
    return diffTrees(this.git, this.projectRoot, from, to, maxBytes);
  }

  /** A path inside one of this project's seek worktrees -> the same relative path under the
   * project root; any other path is returned unchanged. */
  mapToProject(path: string): string {
    const split = this.dirs.split(path);
    return split ? join(this.projectRoot, ...split.rest) : path;
  }

  /** The worktree named by id, unique id prefix, or a path at or inside it; undefined when none.
   * Throws a WorktreeError('ambiguous') for a prefix that matches several. */
  async findByPathOrId(idOrPath: string): Promise<WorktreeListing | undefined> {
    const found = await this.findScanned(idOrPath).catch((error: unknown) => {
      if (error instanceof WorktreeError && error.code === 'not_found') return undefined;
      throw error;
    });
    if (!found) return undefined;
    const changes = problemOf(found) ? undefined : await this.status(found.path).catch(() => undefined);
    return toListing(found, changes);
  }

  private async findScanned(idOrPath: string): Promise<ScannedWorktree> {
    return findWorktree(await scanWorktrees(this.git, this.projectRoot, this.dirs), idOrPath, this.dirs);
  }

  /** The worktree at or containing `pathOrId`, when seek knows it (directory or metadata). */
  private async target(pathOrId: string): Promise<Target | undefined> {
    const id = this.dirs.split(pathOrId)?.id ?? (isSessionId(pathOrId) ? pathOrId : undefined);
    if (!id) return undefined;
    const path = this.dirs.pathOf(id);
    const meta = await readMeta(this.dirs.dir, id);
    if (!meta && !existsSync(path)) return undefined;
    return { id, path, meta };
  }

  /** Git for commands inside worktrees: never looks for a repository above the worktrees dir. */
  private wtGit(): GitClient {
    return this.git.withEnv({ GIT_CEILING_DIRECTORIES: this.dirs.realDir() ?? this.dirs.dir });
  }

  /** `into`: the tree merges go into (a worktree the parent works in); default the main tree. */
  private context(into?: string, guard?: MergeGuard): CleanupContext {
    const root = into ?? this.projectRoot;
    return {
      git: this.git,
      wtGit: this.wtGit(),
      root,
      worktreesDir: this.dirs.dir,
      identity: () => (this.identity ??= this.git.identityArgs(this.projectRoot)),
      gitDir: () =>
        root === this.projectRoot
          ? (this.mainGitDir ??= this.git.value(root, ['rev-parse', '--absolute-git-dir']))
          : this.git.value(root, ['rev-parse', '--absolute-git-dir']),
      now: this.clock,
      ...(this.beforeMerge ? { beforeMerge: this.beforeMerge } : {}),
      ...(guard ? { guard } : {}),
    };
  }
}
