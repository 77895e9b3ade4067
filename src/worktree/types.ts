/**
 * The vocabulary of seek-managed git worktrees (seek-spec section 4, CONTRACT.md result formats).
 * Worktrees live at `<SEEK_HOME>/projects/<pid>/worktrees/<id>` on branch `seek/wt/<id>`, anchored
 * by `refs/seek/worktrees/<id>`; discarded work is rescued at `refs/seek/discarded/<UTC ts>`.
 */

export interface WorktreeInfo {
  /** Session-id shaped: `YYYYMMDD-HHMMSS-<6hex>` (UTC), so ids sort by creation time. */
  id: string;
  path: string;
  branch: string;
  /** The commit it was created from. */
  base: string;
}

export type IfDirty = 'keep' | 'discard' | 'merge';

/** How `cleanup` ended. `result` is the exact model-facing string of CONTRACT.md. */
export type CleanupOutcome =
  | { kind: 'cleaned'; result: string }
  | { kind: 'kept'; result: string; path: string; branch: string; changes: number }
  | { kind: 'discarded'; result: string; changes: number; rescueRef?: string }
  | { kind: 'merged'; result: string; branch: string; commit: string }
  | { kind: 'merge_conflict'; result: string; report: MergeConflictReport }
  | { kind: 'failed'; result: string; reason: 'cleanup_error' | 'unknown_status' | 'rescue_failed' | 'merge_error' };

export interface MergeConflictReport {
  /** Files git reported as conflicting (or that local changes in the main tree would overwrite). */
  files: string[];
  /** Per file, the conflicting hunks as git showed them (conflict markers), capped in size. */
  hunks: Array<{ file: string; text: string }>;
  /** One line for people: what happened and that both trees are as they were. */
  message: string;
}

/** One row of `seek worktree list` and the `/worktrees` panel. */
export interface WorktreeListing {
  id: string;
  path: string;
  branch: string;
  /** `git status --porcelain` line count; undefined when the directory is missing. */
  changes: number | undefined;
  /** The subagent that owns it (from the index or the worktree's marker file), if any. */
  ownerSubSid?: string;
  createdAt: string;
  /** Directory gone, or git no longer knows it: reported, never removed automatically. */
  problem?: 'missing_directory' | 'not_registered';
}

/** A file a merge may not bring into `root`, and why (a deny rule, a protected path). */
export interface MergeRefusal {
  file: string;
  reason: string;
}

/** Judges the files a merge would change in `root` (relative to it, `/`-separated) before it
 * starts: the ones it may not bring. Set for merges the agent asks for (exit_worktree, a plan's
 * editors), whose yes came from the mode or a prompt about the merge, not about each file;
 * absent for the user's own `seek worktree merge`. */
export type MergeGuard = (root: string, files: readonly string[]) => MergeRefusal[];

export interface MergeTarget {
  /** The working tree a merge goes into; default the main working tree. */
  into?: string;
  /** Refuses the merge (reported as a merge_conflict, nothing changed) when it would bring a file
   * this names. */
  guard?: MergeGuard;
  /** Skip the owner check (`seek worktree merge`: the user's own command). */
  anyOwner?: boolean;
}

export interface CreateOptions {
  branch?: string;
  base?: string;
  /** Where `base` (default HEAD) is resolved: the project (default) or a worktree of it. */
  baseDir?: string;
  ownerSubSid?: string;
}
