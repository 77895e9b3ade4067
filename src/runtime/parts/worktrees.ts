/** The session's worktree manager. */
import { WorktreeManager } from '../../worktree/manager.js';
import { symlinksFromConfig } from '../../worktree/include.js';
import type { SessionBase } from './base.js';

/** Git repositories only: elsewhere there are no worktree tools and isolated children fail. */
export function worktreesFor(base: SessionBase): WorktreeManager | undefined {
  if (!base.inGit) return undefined;
  return new WorktreeManager({ projectRoot: base.projectRoot, seekHome: base.home, projectId: base.pid, symlinks: symlinksFromConfig(base.config) });
}
