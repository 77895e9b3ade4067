/** Errors of the worktree manager that are refusals or failures for people, not git crashes. */

export type WorktreeErrorCode = 'create_error' | 'not_found' | 'ambiguous' | 'dirty' | 'not_registered';

/** A refusal or failure for people (CLI) and tools; the message names the worktree and the cause. */
export class WorktreeError extends Error {
  override readonly name = 'WorktreeError';
  constructor(
    message: string,
    readonly code: WorktreeErrorCode,
  ) {
    super(message);
  }
}
