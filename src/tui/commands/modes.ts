import type { SlashCommand } from './types.js';

/** `/yolo` and `/plan` toggle their mode (back to ask); `/ask` sets ask. Same as Shift+Tab. */
function modeCommand(name: 'yolo' | 'plan' | 'ask', description: string): SlashCommand {
  return {
    name,
    description,
    run(context) {
      const policy = context.session.policy;
      const current = policy.mode;
      const target = name !== 'ask' && current === name ? 'ask' : name;
      const label = context.session.setMode(target);
      context.notice(`mode: ${label}`);
    },
  };
}

export const yoloCommand = modeCommand('yolo', 'toggle yolo: allow every action without asking');
export const planCommand = modeCommand('plan', 'toggle plan mode: read-only, investigate and propose');
export const askCommand = modeCommand('ask', 'ask before dangerous actions (the default)');
