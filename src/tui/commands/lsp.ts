import type { SlashCommand } from './types.js';

/** `/lsp`: the language servers this session may start (src/lsp, config.json "lsp") and how each is doing. */
export const lspCommand: SlashCommand = {
  name: 'lsp',
  description: 'Language servers: which run, where, in which sandbox, and why one is missing',
  whileRunning: true,
  run(context) {
    const lsp = context.session.lsp;
    if (!lsp.service.settings.enabled) return context.notice('language servers are off ("lsp": false in config.json)');
    const lines = ['Language servers (diagnostics after edits, the lsp tool)'];
    for (const status of lsp.service.status()) {
      const where = status.root ? ` · ${status.root}` : '';
      const pid = status.pid !== undefined ? ` · pid ${status.pid}` : '';
      const sandbox = status.sandbox ? ` · ${status.sandbox}` : '';
      const docs = status.documents !== undefined ? ` · ${status.documents} open file(s)` : '';
      lines.push(`  ${status.name}: ${status.state}${where}${pid}${sandbox}${docs}${status.problem ? ` — ${status.problem}` : ''}`);
    }
    return context.notice(lines.join('\n'));
  },
};
