/**
 * What the `/worktrees` panel needs from the project's seek worktrees, as a small interface so the
 * panel is tested with a fake and never depends on how the WorktreeManager is built. The real
 * source wraps `session.worktrees` and adds the diff view's git calls.
 */
import { dirname } from 'node:path';
import { formatConflictReport } from '../../worktree/merge.js';
import { runGit, type GitRunner } from '../../worktree/git.js';
import type { CleanupOutcome, WorktreeListing } from '../../worktree/types.js';

export interface WorktreePanelSource {
  /** Every seek worktree of the project, newest first (WorktreeManager.list). */
  list(): Promise<WorktreeListing[]>;
  /** Merge into the main tree's current branch, then remove (WorktreeManager.merge). Never throws
   * for git trouble: a `failed` or `merge_conflict` outcome says what happened. */
  merge(id: string): Promise<CleanupOutcome>;
  /** WorktreeManager.remove: throws a WorktreeError with code `dirty` when the worktree has
   * uncommitted changes and `discard` is not set (and `not_registered` likewise). */
  remove(id: string, options: { discard?: boolean }): Promise<CleanupOutcome>;
  /** The worktree's `git diff HEAD` followed by its untracked files, as display lines. */
  diff(path: string): Promise<string[]>;
}

/** The manager methods the panel uses (WorktreeManager has them). */
export interface WorktreeManagerLike {
  list(): Promise<WorktreeListing[]>;
  merge(idOrPath: string): Promise<CleanupOutcome>;
  remove(idOrPath: string, options?: { discard?: boolean }): Promise<CleanupOutcome>;
}

export function worktreePanelSource(manager: WorktreeManagerLike, git: GitRunner = runGit): WorktreePanelSource {
  return {
    list: () => manager.list(),
    merge: (id) => manager.merge(id),
    remove: (id, options) => manager.remove(id, options),
    diff: (path) => worktreeDiff(path, git),
  };
}

/** More than this many diff lines are cut (the view says how to see the rest). */
export const MAX_DIFF_LINES = 5000;
const DIFF_TIMEOUT_MS = 30_000;

/** `git -C <path> diff HEAD` plus the untracked (not ignored) file names. Throws with git's stderr
 * when git fails. Git never looks above the worktrees directory for a repository. */
export async function worktreeDiff(path: string, git: GitRunner = runGit): Promise<string[]> {
  const options = { cwd: path, env: { GIT_CEILING_DIRECTORIES: dirname(path) }, timeoutMs: DIFF_TIMEOUT_MS };
  const [diff, untracked] = await Promise.all([
    git(['-c', 'core.quotePath=false', 'diff', 'HEAD', '--no-color', '--no-ext-diff'], options),
    git(['ls-files', '--others', '--exclude-standard', '-z'], options),
  ]);
  for (const result of [diff, untracked]) {
    if (result.code !== 0) throw new Error(result.stderr.trim() || `git exited with status ${result.code} in ${path}`);
  }
  let lines = diff.stdout === '' ? [] : diff.stdout.replace(/\n$/, '').split('\n');
  if (lines.length > MAX_DIFF_LINES) {
    const more = lines.length - MAX_DIFF_LINES;
    lines = [...lines.slice(0, MAX_DIFF_LINES), `… ${more} more lines: git -C ${path} diff HEAD`];
  }
  const files = untracked.stdout.split('\0').filter(Boolean);
  if (files.length > 0) lines.push(...(lines.length > 0 ? [''] : []), `untracked files (${files.length}):`, ...files.map((file) => `  ${file}`));
  return lines.length > 0 ? lines : ['no changes against HEAD'];
}

/** The conflict report as display lines: the message, the files, then each file's hunks. */
export function conflictLines(outcome: Extract<CleanupOutcome, { kind: 'merge_conflict' }>): string[] {
  return formatConflictReport(outcome.report).split('\n');
}

/** `3 changes`, `1 change`. */
export function changesText(count: number): string {
  return `${count} change${count === 1 ? '' : 's'}`;
}

/** The rows in the panel's order (newest first, as listed) with the selection kept by id: a row
 * that went away selects the one now at its place. */
export function reselect(rows: readonly WorktreeListing[], previous: readonly WorktreeListing[], selectedId: string | undefined): string | undefined {
  if (selectedId && rows.some((row) => row.id === selectedId)) return selectedId;
  const index = Math.max(0, previous.findIndex((row) => row.id === selectedId));
  return rows[Math.min(index, rows.length - 1)]?.id;
}
