import type { SlashCommand } from './types.js';

export const exitCommand: SlashCommand = {
  name: 'exit',
  description: 'quit seek (the session stays saved)',
  run(context) {
    context.exit();
  },
};
