import { formatCost } from '../../cost/format.js';
import { listSessions } from '../../session/list.js';
import { formatAge } from '../../util/age.js';
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
    // Never offer an empty session (no prompt): there is nothing in it to continue. One killed
    // before its first answer is offered: its prompt is kept.
    const sessions = (await listSessions(session.seekHome, session.projectId)).filter((entry) => entry.id !== session.id && entry.title.trim() !== '');
    if (sessions.length === 0) {
      context.notice('no other sessions in this project yet');
      return;
    }
    const now = new Date();
    context.openPicker({
      title: 'Resume a session',
      items: sessions.slice(0, 50).map((entry) => ({
        value: entry.id,
        // How long ago it was last used, then its first prompt (what it was about).
        label: `${formatAge(entry.updated_at, now).padStart(3)} ago  ${entry.title}`,
        description: `${entry.turns} turns · ${formatCost(entry.cost_usd, entry.cost_known)} · ${entry.id}`,
      })),
      onSelect: (value) => context.switchSession({ resume: value }),
    });
  },
};
