import type { SlashCommand } from './types.js';

/** `/auto`, `/yolo` and `/plan` toggle their mode (back to ask); `/ask` sets ask. Same as Shift+Tab. */
function modeCommand(name: 'auto' | 'yolo' | 'plan' | 'ask', description: string): SlashCommand {
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

export const autoCommand = modeCommand('auto', 'toggle auto: edits and commands inside the project without asking, commands in the OS sandbox');
export const yoloCommand = modeCommand('yolo', 'toggle yolo: allow every action without asking, commands unsandboxed');
export const planCommand = modeCommand('plan', 'toggle plan mode: read-only, investigate and propose');
export const askCommand = modeCommand('ask', 'ask before dangerous actions (the default)');
