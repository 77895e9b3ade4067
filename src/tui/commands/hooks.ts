import { formatProblem, loadHooks, type HookStatus } from '../../hooks/index.js';
import type { SlashCommand } from './types.js';

/** `/hooks`: the hooks that apply to this project and their status. */
export const hooksCommand: SlashCommand = {
  name: 'hooks',
  description: 'list the hooks of this project and user',
  async run(context) {
    const session = context.session;
    const loaded = await loadHooks({ seekHome: session.seekHome, projectRoot: session.projectRoot, checkSyntax: false });
    if (loaded.entries.length === 0) {
      context.notice('no hooks: add them to ~/.seek/hooks.toml or .seek/hooks.toml (see docs/configuration.md, Hooks)');
      return;
    }
    const lines = loaded.entries.map((entry) => `  ${entry.hook.event.padEnd(13)} ${entry.hook.name.padEnd(20)} ${entry.hook.source.padEnd(8)} ${statusText(entry.status)}`);
    const notes = [...loaded.notices, ...loaded.problems.map((problem) => formatProblem(problem))];
    context.notice(['Hooks', ...lines, ...notes.map((note) => `  ! ${note}`)].join('\n'), notes.length ? 'warn' : 'info');
  },
};

/** `active`, or the state with its reason (`untrusted (script changed: scripts/guard.sh)`). */
export function statusText(status: HookStatus): string {
  return status.state === 'active' ? 'active' : `${status.state} (${status.reason})`;
}
