import { skillsListing } from '../../frontends/extensions-list.js';
import type { SlashCommand } from './types.js';

/** `/skills`: the installed skills, where each comes from and what it allows. */
export const skillsCommand: SlashCommand = {
  name: 'skills',
  description: 'installed skills',
  whileRunning: true,
  run(context) {
    context.notice(skillsListing(context.session.skills));
  },
};
