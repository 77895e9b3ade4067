import { formatCost } from '../../cost/format.js';
import { listSessions } from '../../session/list.js';
import type { SlashCommand } from './types.js';

/** `/resume [SID]`: continue a saved session of this project (a picker without an argument). */
export const resumeCommand: SlashCommand = {
  name: 'resume',
  description: 'continue a saved session of this project',
  usage: '[SID]',
  async run(context, args) {
    const target = args.trim();
    if (target) {
      await context.switchSession({ resume: target });
      return;
    }
    const session = context.session;
    // Never offer an empty session (no model response): there is nothing in it to continue.
    const sessions = (await listSessions(session.seekHome, session.projectId)).filter((entry) => entry.id !== session.id && entry.turns > 0);
    if (sessions.length === 0) {
      context.notice('no other sessions in this project yet');
      return;
    }
    context.openPicker({
      title: 'Resume a session',
      items: sessions.slice(0, 50).map((entry) => ({
        value: entry.id,
        label: `${entry.updated_at.slice(0, 16).replace('T', ' ')}  ${entry.title || '(no prompt)'}`,
        description: `${entry.turns} turns · ${formatCost(entry.cost_usd, entry.cost_known)} · ${entry.id}`,
      })),
      onSelect: (value) => context.switchSession({ resume: value }),
    });
  },
};
