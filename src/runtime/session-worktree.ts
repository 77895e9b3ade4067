/**
 * A session's own worktree. `seek --worktree [--worktree-branch NAME]`: the whole session works in
 * a fresh seek worktree, as if the model had called enter_worktree before the first prompt, so
 * the user's working tree is never touched. The terminal UI's `/clear` hands the worktree on to the
 * next session. At the end the user is told what the worktree holds and how to bring it back
 * (`seek worktree merge`) or continue in it (`--resume`).
 */
import type { UserMessage } from '../providers/types.js';
import { injectedContext } from '../session/context.js';
import type { WorktreeManager } from '../worktree/manager.js';
import type { WorktreeInfo } from '../worktree/types.js';
import type { Workspace } from './workspace.js';

export interface SessionWorktreeStart {
  info: WorktreeInfo;
  notice: string;
  /** For the model: where it works and that the user's tree is elsewhere. */
  note: UserMessage;
}

/** Creates the worktree and moves the workspace into it. Throws an Error meant for the user. */
export async function startInWorktree(workspace: Workspace, manager: WorktreeManager, branch: string | undefined): Promise<SessionWorktreeStart> {
  let info: WorktreeInfo;
  try {
    info = await manager.create(branch ? { branch } : {});
  } catch (error) {
    throw new Error(`--worktree: ${(error as Error).message}`);
  }
  workspace.enter(info);
  return {
    info,
    notice: `working in worktree ${info.path} (branch ${info.branch}); your working tree is not touched`,
    note: injectedContext(
      'worktree',
      `This session works in its own git worktree ${info.path} (branch ${info.branch}, from commit ${info.base.slice(0, 12)}): your working directory, file tools and bash act there, and the user's working tree ${workspace.projectRoot} is not touched. Uncommitted changes in the user's tree are not in the worktree. When the session ends the user brings your work back with seek worktree merge.`,
    ),
  };
}

/** Enters an existing seek worktree for a new session (the terminal UI's `/clear` inside one).
 * Null when it is gone or broken (the session then works in the project). */
export async function continueInWorktree(workspace: Workspace, manager: WorktreeManager | undefined, path: string): Promise<SessionWorktreeStart | null> {
  const found = await manager?.findByPathOrId(path).catch(() => undefined);
  if (!manager || !found || found.problem) return null;
  const base = await manager.baseOf(found.id).catch(() => undefined);
  const info: WorktreeInfo = { id: found.id, path: found.path, branch: found.branch, base: base ?? '' };
  await manager.adopt(found.id);
  workspace.enter(info);
  return {
    info,
    notice: `working in worktree ${info.path} (branch ${info.branch}), as the previous session did`,
    note: injectedContext(
      'worktree',
      `This session works in the git worktree ${info.path} (branch ${info.branch}), where an earlier session of the user worked (it may hold changes): your working directory, file tools and bash act there, and the user's working tree ${workspace.projectRoot} is not touched. The user brings the work back with seek worktree merge.`,
    ),
  };
}

/**
 * When a session closes inside a worktree (`--worktree`, or enter_worktree without exit_worktree):
 * the line telling the user what it holds and how to bring it back. The worktree is kept, empty or
 * not: a resumed session goes back into it (its history says it works there). Only an unsaved
 * session's empty worktree, which nothing can return to, is removed. Never throws.
 */
export async function finishSessionWorktree(workspace: Workspace, manager: WorktreeManager, sessionId: string | undefined): Promise<string | undefined> {
  const current = workspace.worktree;
  if (!current) return undefined;
  try {
    const [changes, commits] = await Promise.all([manager.status(current.path), manager.commitsSince(current.path, current.base)]);
    const where = `the session's worktree ${current.path} (branch ${current.branch})`;
    if (changes === 0 && commits === 0) {
      if (sessionId !== undefined) return `${where} holds no work; it stays for seek --resume ${sessionId} (seek worktree gc removes it later)`;
      const removed = (await manager.cleanup(current.path, 'keep')).kind === 'cleaned';
      return removed ? `${where} held no work and was removed` : `${where} holds no work`;
    }
    const work = [changes > 0 ? `${changes} uncommitted change${changes === 1 ? '' : 's'}` : '', commits > 0 ? `${commits} commit${commits === 1 ? '' : 's'}` : '']
      .filter(Boolean)
      .join(' and ');
    const resume = sessionId ? `, or continue there with: seek --resume ${sessionId}` : '';
    return `${where} keeps ${work}: bring it into ${workspace.projectRoot} with: seek worktree merge ${current.id}${resume}`;
  } catch (error) {
    return `the session's worktree ${current.path} was kept (${(error as Error).message})`;
  }
}
