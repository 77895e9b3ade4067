import type { SlashCommand } from './types.js';

/** `/agents`: this session's subagents, live: select one to watch its transcript or stop it. */
export const agentsCommand: SlashCommand = {
  name: 'agents',
  description: 'subagents of this session: watch, kill',
  whileRunning: true,
  run(context) {
    if (context.subagents().children.length === 0) {
      context.notice('no subagents in this session yet');
      return;
    }
    context.openPanel({ kind: 'agents' });
  },
};
