/**
 * What the `/worktrees` panel needs from the project's seek worktrees, as a small interface so the
 * panel is tested with a fake and never depends on how the WorktreeManager is built. The real
 * source wraps `session.worktrees` and adds the diff view's git calls.
 */
import { dirname } from 'node:path';
import { formatConflictReport } from '../../worktree/merge.js';
import { GitClient, runGit, type GitRunner } from '../../worktree/git.js';
import { workingStateDiff } from '../../worktree/rescue.js';
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
  /** The worktree's changes against HEAD, new files' content included, as display lines. */
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

/** The worktree's changes against its HEAD as display lines: tracked changes, staged or not, and
 * new (untracked, not ignored) files with their content, the same snapshot a merge would commit.
 * Nothing in the worktree changes. Throws with git's stderr when git fails. Git never looks above
 * the worktrees directory for a repository. */
export async function worktreeDiff(path: string, git: GitRunner = runGit): Promise<string[]> {
  const client = new GitClient(git, { GIT_CEILING_DIRECTORIES: dirname(path) });
  const diff = await workingStateDiff(client, path, { timeoutMs: DIFF_TIMEOUT_MS });
  const lines = diff === '' ? [] : diff.replace(/\n$/, '').split('\n');
  if (lines.length === 0) return ['no changes against HEAD'];
  if (lines.length <= MAX_DIFF_LINES) return lines;
  return [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more lines (new files included): git -C ${path} diff HEAD`];
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
