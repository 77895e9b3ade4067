import type { SlashCommand } from './types.js';

/** `/permissions`: the rules in effect (config files and this session), the project's held-back
 * allow rules, the mode and the sandbox, in a panel (components/PermissionsPanel.tsx) where rules
 * are added (to this session or a config file) and removed; changes apply to the live policy. */
export const permissionsCommand: SlashCommand = {
  name: 'permissions',
  description: 'permission rules in effect: list, add, remove (this session or a config file)',
  whileRunning: true,
  run(context) {
    context.openPanel({ kind: 'permissions' });
  },
};
