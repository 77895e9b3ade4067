/**
 * What the `/worktrees` panel needs from the project's seek worktrees, as a small interface so the
 * panel is tested with a fake and never depends on how the WorktreeManager is built. The real
 * source wraps `session.worktrees`.
 */
import { formatConflictReport } from '../../worktree/merge.js';
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
  /** What the worktree holds against the commit it started from (see WorktreeManager.diff), as display lines. */
  diff(path: string): Promise<string[]>;
}

/** The manager methods the panel uses (WorktreeManager has them). */
export interface WorktreeManagerLike {
  list(): Promise<WorktreeListing[]>;
  merge(idOrPath: string): Promise<CleanupOutcome>;
  remove(idOrPath: string, options?: { discard?: boolean }): Promise<CleanupOutcome>;
  diff(idOrPath: string, maxBytes?: number): Promise<{ base: string; text: string }>;
}

export function worktreePanelSource(manager: WorktreeManagerLike): WorktreePanelSource {
  return {
    list: () => manager.list(),
    merge: (id) => manager.merge(id),
    remove: (id, options) => manager.remove(id, options),
    diff: (path) => worktreeDiffLines(manager, path),
  };
}

/** More than this many diff lines are cut (the view says how to see the rest). */
export const MAX_DIFF_LINES = 5000;
const MAX_DIFF_BYTES = 2 * 1024 * 1024;

/** The diff view's lines: `WorktreeManager.diff` (against the commit the worktree started from,
 * new files included), cut at MAX_DIFF_LINES. */
export async function worktreeDiffLines(manager: WorktreeManagerLike, path: string): Promise<string[]> {
  const { base, text } = await manager.diff(path, MAX_DIFF_BYTES);
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  if (lines.length === 0) return [`nothing new since ${base.slice(0, 12)}, the commit it started from`];
  if (lines.length <= MAX_DIFF_LINES) return lines;
  return [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more lines: seek worktree diff ${path}`];
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
