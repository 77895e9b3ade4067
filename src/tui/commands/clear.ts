import type { SlashCommand } from './types.js';

/** `/clear`: start a fresh session (the current one stays saved and can be resumed). */
export const clearCommand: SlashCommand = {
  name: 'clear',
  description: 'start a new session (this one stays saved)',
  async run(context) {
    await context.switchSession({});
  },
};
