import type { SlashCommand } from './types.js';

/** `/memory`: the project's memory in a panel (components/MemoryPanel.tsx): scores, recalls, age,
 * flags; show, search, pin, archive, restore. Like `seek memory`, through the same operations. */
export const memoryCommand: SlashCommand = {
  name: 'memory',
  description: 'project memory: show, search, pin, archive, restore',
  whileRunning: true,
  run(context) {
    if (!context.session.memory) {
      context.notice('memory is off in this session (SEEK_MEMORY=0 or memory.enabled false in config.json)', 'warn');
      return;
    }
    context.openPanel({ kind: 'memory' });
  },
};
