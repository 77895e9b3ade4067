import type { SlashCommand } from './types.js';

/** `/worktrees`: the project's seek worktrees: look at a diff, merge one, remove one (the panel
 * is components/WorktreesPanel.tsx over `session.worktrees`). Outside a git repository the session
 * has no worktree manager, and the command says so. Not while a turn runs: merging or removing a
 * worktree a running subagent works in would pull the ground from under it. */
export const worktreesCommand: SlashCommand = {
  name: 'worktrees',
  description: 'seek worktrees of this project: diff, merge, remove',
  run(context) {
    if (!context.session.worktrees) {
      context.notice('not a git repository: seek worktrees need one', 'warn');
      return;
    }
    context.openPanel({ kind: 'worktrees' });
  },
};
