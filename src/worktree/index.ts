/** seek-managed git worktrees: the public surface for tools, subagents and the CLI. */
export * from './types.js';
export { WorktreeManager, WorktreeError, DISCARDED_MAX_AGE_MS } from './manager.js';
export type { WorktreeManagerOptions, CreateOptions, HousekeepingReport, StaleCollection, WorktreeErrorCode } from './manager.js';
export { runGit, gitOrThrow, isGitRepository, GitError } from './git.js';
export type { GitRunner, GitRunOptions, GitResult } from './git.js';
export { formatPruneMessage, discardedRefTime } from './rescue.js';
export { formatConflictReport } from './merge.js';
export { formatAge, parseDuration, problemNotice } from './housekeeping.js';
export { INCLUDE_FILE, symlinksFromConfig } from './include.js';
