import type { SlashCommand } from './types.js';

/** `/compact [focus]`: summarise the conversation so far and continue from the summary. */
export const compactCommand: SlashCommand = {
  name: 'compact',
  description: 'summarise the history to free context',
  usage: '[FOCUS]',
  async run(context, args) {
    try {
      const event = await context.runBusy('compacting', (signal) => context.session.compact(args.trim() || undefined, signal));
      if (!event) context.notice('nothing to compact yet');
    } catch (error) {
      context.notice(`compaction failed: ${error instanceof Error ? error.message : String(error)}`, 'error');
    }
  },
};
