/**
 * Where the session starts working, decided before the session file exists (so a failure leaves
 * nothing behind): a fresh worktree (`--worktree`), an existing one (`/clear` inside one), the
 * worktree a resumed session was in, or the project itself.
 */
import type { WorktreeManager } from '../../worktree/manager.js';
import { savedWorktree, type Workspace } from '../workspace.js';
import { continueInWorktree, startInWorktree } from '../session-worktree.js';
import type { OpenSessionOptions } from '../session-types.js';
import type { SessionBase } from './base.js';
import type { Conversation } from './conversation.js';

export interface WorkspaceStart {
  /** The worktree a resumed session was in: it goes back there once its file is open. */
  inWorktree: ReturnType<typeof savedWorktree>;
  /** A worktree entered now (fresh or continued), with its notice and note for the history. */
  started: Awaited<ReturnType<typeof startInWorktree>> | undefined;
}

export async function startWorkspace(base: SessionBase, options: OpenSessionOptions, conversation: Conversation, workspace: Workspace, worktrees: WorktreeManager | undefined): Promise<WorkspaceStart> {
  const { board, worktreeFlag } = base;
  const resumed = conversation.resumed;
  const inWorktree = resumed ? savedWorktree(resumed.entries) : undefined;
  if (worktreeFlag && inWorktree) board.add('info', '--worktree ignored: the resumed session goes back to its own worktree');
  const continued = options.continueInWorktree && !inWorktree ? await continueInWorktree(workspace, worktrees, options.continueInWorktree) : undefined;
  if (continued === null) board.add('warn', `the worktree ${options.continueInWorktree} is gone${worktreeFlag ? '' : `; this session works in ${base.projectRoot}`}`);
  const started = continued ?? (worktreeFlag && !inWorktree ? await startInWorktree(workspace, worktrees!, typeof options.worktree === 'string' ? options.worktree : undefined) : undefined);
  return { inWorktree, started };
}
