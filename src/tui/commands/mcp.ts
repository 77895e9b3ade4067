import type { SlashCommand } from './types.js';

/**
 * `/mcp`: each MCP server's state and tools; `/mcp reconnect NAME` starts one again. Servers are
 * configured in .mcp.json files and approved with `seek mcp approve` (see the README).
 */
const SETTLE_MS = 10_000;

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

export const mcpCommand: SlashCommand = {
  name: 'mcp',
  description: 'MCP servers: state and tools; /mcp reconnect NAME, /mcp login NAME',
  usage: '[reconnect NAME | login NAME]',
  whileRunning: true,
  async run(context, args) {
    const manager = context.session.mcp;
    const [verb, name] = args.trim().split(/\s+/);
    if (verb === 'login') {
      const server = name ? manager.configuredServer(name) : undefined;
      if (!server) return context.notice(`usage: /mcp login NAME (a configured remote server)`, 'warn');
      const { loginToServer } = await import('../../mcp/oauth-login.js');
      try {
        const result = await context.runBusy(`logging in to ${server.name} (finish in the browser)`, () =>
          loginToServer({ server, seekHome: context.session.seekHome, env: process.env, say: (text) => context.notice(text.trim()) }),
        );
        if (!result) return;
        await manager.reconnect(server.name);
        return context.notice(result.loggedIn ? `logged in to ${server.name}; reconnecting` : `${server.name} did not ask for a login`);
      } catch (error) {
        return context.notice(`login to ${server.name} failed: ${(error as Error).message}`, 'error');
      }
    }
    if (verb === 'reconnect') {
      if (!name) return context.notice('usage: /mcp reconnect NAME', 'warn');
      if (!(await manager.reconnect(name))) return context.notice(`no running MCP server named ${name} (approved and enabled servers only)`, 'warn');
      return context.notice(`reconnecting MCP server ${name}…`);
    }
    // Servers still starting get a few seconds (Esc stops waiting), so the list says how they ended up.
    if (manager.statuses().some((status) => status.state === 'starting')) {
      await context.runBusy('waiting for MCP servers to start', (signal) => Promise.race([manager.settle(SETTLE_MS), aborted(signal)]));
    }
    const statuses = manager.statuses();
    if (statuses.length === 0) {
      return context.notice('no MCP servers: add one with `seek mcp add NAME -- COMMAND` or a .mcp.json file (see docs/mcp.md)');
    }
    const tools = manager.tools();
    const lines = ['MCP servers'];
    for (const status of statuses) {
      const state =
        status.state === 'ready'
          ? `connected · ${status.tools} tool(s)`
          : status.state === 'unapproved'
            ? `not started: ${status.approval === 'changed' ? `changed since approved${status.approvalReason ? ` (${status.approvalReason})` : ''}` : 'not approved'} — seek mcp approve ${status.name}`
            : status.state === 'failed'
              ? `failed: ${status.error ?? 'unknown error'} — ${status.error?.startsWith('needs login') ? `/mcp login ${status.name}` : `/mcp reconnect ${status.name}`}`
              : status.state === 'unsupported'
                ? `not supported: ${status.error ?? ''}`
                : status.state;
      lines.push(`  ${status.name} (${status.scope}) ${state}`);
      const names = tools.filter((tool) => tool.server === status.name).map((tool) => tool.info.name);
      if (names.length > 0) lines.push(`    ${names.join(', ')}`);
      const prompts = manager.promptCommands().filter((prompt) => prompt.name.startsWith(`mcp__${status.name}__`));
      if (prompts.length > 0) lines.push(`    prompts: ${prompts.map((prompt) => `/${prompt.name}${prompt.arguments.length ? ` ${prompt.arguments.join(' ')}` : ''}`).join(', ')}`);
    }
    const failed = statuses.some((status) => status.state === 'failed' || status.state === 'unapproved');
    context.notice(lines.join('\n'), failed ? 'warn' : 'info');
  },
};
