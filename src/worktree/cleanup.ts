/**
 * The ways a seek worktree ends: removed clean, discarded (after a rescue), merged into the main
 * tree, or forgotten (its directory was already gone). Every function returns a `CleanupOutcome`
 * whose `result` is the exact model-facing string of CONTRACT.md; none throws.
 */
import { existsSync } from 'node:fs';
import { errorText, type GitClient } from './git.js';
import { ANCHOR_PREFIX } from './housekeeping.js';
import { filesBrought, formatConflictReport, guardRefusal, mergeIntoMain } from './merge.js';
import { rescueCommit, snapshotCommit, writeRescueRef } from './rescue.js';
import { removeMeta, type WorktreeMeta } from './store.js';
import type { CleanupOutcome, MergeConflictReport, MergeGuard } from './types.js';

export type FailureReason = Extract<CleanupOutcome, { kind: 'failed' }>['reason'];

// ---- Outcomes (CONTRACT.md result strings) --------------------------------------------------------

export const cleaned = (): CleanupOutcome => ({ kind: 'cleaned', result: '[worktree: cleaned]' });

export const kept = (path: string, branch: string, changes: number): CleanupOutcome => ({
  kind: 'kept',
  result: `[worktree: kept path=${path} branch=${branch} changes=${changes}]`,
  path,
  branch,
  changes,
});

export const discarded = (changes: number, rescueRef: string): CleanupOutcome => ({
  kind: 'discarded',
  result: `[worktree: discarded changes=${changes}] rescue stash at ${rescueRef}`,
  changes,
  rescueRef,
});

export const merged = (branch: string, commit: string): CleanupOutcome => ({
  kind: 'merged',
  result: `[worktree: merged branch=${branch} commit=${commit}]`,
  branch,
  commit,
});

export const mergeConflict = (report: MergeConflictReport): CleanupOutcome => ({
  kind: 'merge_conflict',
  result: `[worktree: merge_conflict files=${report.files.length}]\n${formatConflictReport(report)}`,
  report,
});

export const failed = (reason: FailureReason, detail: string): CleanupOutcome => ({
  kind: 'failed',
  result: `[worktree: failed reason=${reason}] ${detail.trim()}`,
  reason,
});

// ---- Flows ----------------------------------------------------------------------------------------

/** What the flows need from the manager. `wtGit` runs git inside worktrees (with a ceiling so git
 * never wanders up into a repository that happens to contain SEEK_HOME). */
export interface CleanupContext {
  git: GitClient;
  wtGit: GitClient;
  root: string;
  worktreesDir: string;
  identity(): Promise<string[]>;
  gitDir(): Promise<string>;
  now(): Date;
  /** Called just before a merge changes `root` (a session checkpoints it there); never throws. */
  beforeMerge?: (root: string, what: string) => Promise<void>;
  /** Files the merge may not bring (MergeTarget.guard). */
  guard?: MergeGuard;
}

export interface Target {
  id: string;
  path: string;
  meta?: WorktreeMeta;
}

export interface WorktreeStatus {
  /** `git status --porcelain` line count (untracked included, ignored excluded). */
  changes: number;
  head?: string;
  branch?: string;
}

/** One `git status --porcelain=v2 --branch`: the change count plus HEAD and branch. */
export async function worktreeStatus(wtGit: GitClient, path: string): Promise<WorktreeStatus> {
  const out = await wtGit.ok(path, ['status', '--porcelain=v2', '--branch', '--untracked-files=normal']);
  const status: WorktreeStatus = { changes: 0 };
  for (const line of out.split('\n')) {
    if (line === '') continue;
    if (!line.startsWith('# ')) status.changes++;
    else if (line.startsWith('# branch.oid ') && line !== '# branch.oid (initial)') status.head = line.slice(13);
    else if (line.startsWith('# branch.head ') && line !== '# branch.head (detached)') status.branch = line.slice(14);
  }
  return status;
}

export async function baseOf(ctx: CleanupContext, target: Target): Promise<string | undefined> {
  if (target.meta?.base) return target.meta.base;
  const anchor = await ctx.git.run(ctx.root, ['rev-parse', '--verify', '--quiet', `${ANCHOR_PREFIX}${target.id}`]);
  return anchor.code === 0 ? anchor.stdout.trim() : undefined;
}

/** After the directory is gone: drop the anchor ref, the default branch when it holds no commits
 * beyond the base (compare-and-delete, so a branch with work is kept), and the metadata file. */
async function forgetRecords(ctx: CleanupContext, target: Target, base: string | undefined): Promise<void> {
  await ctx.git.run(ctx.root, ['update-ref', '-d', `${ANCHOR_PREFIX}${target.id}`]);
  if (base) await ctx.git.run(ctx.root, ['update-ref', '-d', `refs/heads/seek/wt/${target.id}`, base]);
  await removeMeta(ctx.worktreesDir, target.id).catch(() => undefined);
}

/** `worktree remove --force`, then the records. Also used when the directory is already gone
 * (git then just drops its registration). */
export async function removeClean(ctx: CleanupContext, target: Target): Promise<CleanupOutcome> {
  const base = await baseOf(ctx, target);
  const removed = await ctx.git.run(ctx.root, ['worktree', 'remove', '--force', target.path]);
  // With the directory already gone there is nothing left to protect: drop the records anyway.
  if (removed.code !== 0 && existsSync(target.path)) {
    return failed('cleanup_error', removed.stderr || `git worktree remove exited with status ${removed.code}`);
  }
  await forgetRecords(ctx, target, base);
  return cleaned();
}

const rfc3339 = (now: Date): string => `${now.toISOString().slice(0, 19)}Z`;

/**
 * Discard, in the original's order: rescue snapshot -> `refs/seek/discarded/<UTC ts>` ->
 * `reset --hard` -> `clean -fd` -> `worktree remove --force` -> anchor ref deleted. Nothing is
 * reset unless the rescue commit and its ref both exist.
 */
export async function discard(ctx: CleanupContext, target: Target, status: WorktreeStatus): Promise<CleanupOutcome> {
  if (!status.head) return failed('rescue_failed', 'rescue stash failed: the worktree has no HEAD commit');
  const now = ctx.now();
  let ref: string;
  try {
    const message = `seek discarded worktree ${rfc3339(now)}`;
    const sha = await rescueCommit(ctx.wtGit, target.path, status.head, message, await ctx.identity());
    ref = await writeRescueRef(ctx.git, ctx.root, sha, now);
  } catch (error) {
    return failed('rescue_failed', `rescue stash failed: ${errorText(error)}`);
  }
  const base = await baseOf(ctx, target);
  const steps: Array<[GitClient, string, string[]]> = [
    [ctx.wtGit, target.path, ['reset', '--hard', '-q']],
    [ctx.wtGit, target.path, ['clean', '-fd']],
    [ctx.git, ctx.root, ['worktree', 'remove', '--force', target.path]],
  ];
  for (const [git, cwd, args] of steps) {
    const result = await git.run(cwd, args);
    if (result.code !== 0) return failed('cleanup_error', `${result.stderr.trim()} (the discarded changes are saved at ${ref})`);
  }
  await forgetRecords(ctx, target, base);
  return discarded(status.changes, ref);
}

/**
 * Merge: snapshot the worktree (untouched) as a commit on top of its HEAD, merge that into the
 * main tree's current branch, and only then move the worktree's branch to the snapshot and remove
 * the worktree (the branch stays: it holds the commits). Nothing to merge -> removed as clean.
 */
export async function mergeAndRemove(ctx: CleanupContext, target: Target, status: WorktreeStatus): Promise<CleanupOutcome> {
  const head = status.head;
  if (!head) return failed('merge_error', 'the worktree has no HEAD commit');
  if (status.changes === 0 && head === (await baseOf(ctx, target))) return removeClean(ctx, target);
  let commit: string;
  try {
    const message = `seek: changes of worktree ${target.id}`;
    commit = status.changes === 0 ? head : await snapshotCommit(ctx.wtGit, target.path, head, message, await ctx.identity());
  } catch (error) {
    return failed('merge_error', `snapshot of the worktree failed: ${errorText(error)}`);
  }
  if (commit === head && (await ctx.git.run(ctx.root, ['merge-base', '--is-ancestor', commit, 'HEAD'])).code === 0) {
    return removeClean(ctx, target); // already part of the main tree's branch
  }
  if (ctx.guard) {
    let refusal: MergeConflictReport | undefined;
    try {
      refusal = guardRefusal(ctx.guard(ctx.root, await filesBrought(ctx.git, ctx.root, commit)), target.id);
    } catch (error) {
      return failed('merge_error', `could not list the files the merge would change: ${errorText(error)}; nothing was changed`);
    }
    if (refusal) return mergeConflict(refusal);
  }
  await ctx.beforeMerge?.(ctx.root, `merge of worktree ${target.id}`);
  const attempt = await mergeIntoMain(ctx.git, {
    root: ctx.root,
    gitDir: await ctx.gitDir(),
    commit,
    message: `seek: merge worktree ${target.id}`,
    identity: await ctx.identity(),
  });
  if (attempt.kind === 'conflict') return mergeConflict(attempt.report);
  if (attempt.kind === 'error') return failed('merge_error', attempt.detail);

  const branch = status.branch ?? target.meta?.branch ?? '(detached)';
  try {
    if (commit !== head) await ctx.wtGit.ok(target.path, ['update-ref', '-m', 'seek: worktree merged', 'HEAD', commit, head]);
    await ctx.wtGit.ok(target.path, ['reset', '-q']);
  } catch (error) {
    return failed('cleanup_error', `merged as ${attempt.commit}, but updating the worktree failed: ${errorText(error)}`);
  }
  const removed = await removeClean(ctx, target);
  if (removed.kind !== 'cleaned') {
    return failed('cleanup_error', `merged as ${attempt.commit}, but removing the worktree failed: ${removed.result}`);
  }
  return merged(branch, attempt.commit);
}
