import { Command, Option } from 'commander';
import { findProjectRoot, seekHome } from '../../config/paths.js';
import { approvedFiles, loadMcpConfig, McpManager, setApprovals, type ConfiguredServer, type McpScope, type ServerDefinition, type ServerStatus } from '../../mcp/index.js';
import { addServer, fileForScope, removeServer } from '../../mcp/config-write.js';
import { excludeFromGit } from '../../util/git-exclude.js';
import { guardedBy, processIO, type CommandIO } from '../command-io.js';

/**
 * `seek mcp list | get NAME | add NAME … | remove NAME | approve [NAME…] | login NAME | logout NAME`: the MCP servers seek
 * connects to, in Claude Code's `.mcp.json` format (see src/mcp/config.ts for the files). `list`
 * and `get` connect to each server that may start and report its state and tools. Exit 1 when a
 * server named does not exist or (list/get) a server that should run fails to.
 */
export function createMcpCommand(io: CommandIO = processIO): Command {
  const guarded = guardedBy(io);
  const where = () => ({ home: seekHome(io.env), root: findProjectRoot(io.cwd()) });
  const command = new Command('mcp')
    .description('MCP servers: list, inspect, add, remove, approve project servers, log in to remote ones')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });

  command
    .command('list')
    .description('every configured server: scope, approval, and whether it connects')
    .option('--json', 'print JSON')
    .action(
      guarded(async (opts: { json?: boolean }) => {
        const { home, root } = where();
        const statuses = await connectAll(home, root, io.env);
        if (opts.json) io.out(`${JSON.stringify(statuses, null, 2)}\n`);
        else if (statuses.length === 0) io.out('No MCP servers. Add one with `seek mcp add NAME -- COMMAND [ARGS…]` or `seek mcp add NAME --transport http URL`.\n');
        else io.out(`${statuses.map(statusLine).join('\n')}\n`);
        if (statuses.some((status) => status.state === 'failed')) io.setExitCode(1);
      }),
    );

  command
    .command('get')
    .description("one server's definition, state and tools")
    .argument('<name>')
    .option('--json', 'print JSON')
    .action(
      guarded(async (name: string, opts: { json?: boolean }) => {
        const { home, root } = where();
        const config = await loadMcpConfig(root, home);
        const server = config.servers.find((candidate) => candidate.name === name);
        if (!server) throw new Error(`no MCP server named ${name} (configured: ${config.servers.map((s) => s.name).join(', ') || 'none'})`);
        const manager = await McpManager.open({ projectRoot: root, seekHome: home, cwd: root, env: io.env });
        try {
          await manager.settle(60_000);
          const status = manager.statuses().find((candidate) => candidate.name === name)!;
          const tools = manager.tools().filter((tool) => tool.server === name).map((tool) => ({ name: tool.name, description: tool.info.description ?? '' }));
          if (opts.json) io.out(`${JSON.stringify({ ...status, definition: server.definition, tools }, null, 2)}\n`);
          else io.out(`${[statusLine(status), `  file: ${server.file}`, `  ${describeDefinition(server.definition)}`, ...tools.map((tool) => `  ${tool.name}  ${oneLine(tool.description)}`)].join('\n')}\n`);
          if (status.state === 'failed') io.setExitCode(1);
        } finally {
          await manager.close();
        }
      }),
    );

  command
    .command('add')
    .description('add a server: seek mcp add NAME -- COMMAND [ARGS…], or seek mcp add NAME --transport http URL')
    .argument('<name>')
    .argument('<commandOrUrl...>')
    .addOption(new Option('-s, --scope <scope>', 'where to save it').choices(['local', 'project', 'user']).default('local'))
    .addOption(new Option('-t, --transport <transport>', 'how to reach it').choices(['stdio', 'http', 'sse']).default('stdio'))
    .option('-e, --env <KEY=VALUE...>', 'environment for a stdio server (values may use ${VAR})')
    .option('-H, --header <Name: value...>', 'HTTP header for a remote server (values may use ${VAR})')
    .action(
      guarded(async (name: string, rest: string[], opts: { scope: McpScope; transport: 'stdio' | 'http' | 'sse'; env?: string[]; header?: string[] }) => {
        const { home, root } = where();
        const definition = definitionFrom(rest, opts);
        const file = fileForScope(opts.scope, root, home);
        await addServer(file, name, definition);
        // The local file is yours alone, like config.local.json: never committed by accident.
        if (opts.scope === 'local') excludeFromGit(root, file);
        // Adding it yourself is approving it.
        const added = (await loadMcpConfig(root, home)).servers.find((server) => server.name === name && server.file === file);
        if (added && added.scope !== 'user') await setApprovals(home, root, [added]);
        io.out(`Added MCP server ${name} to ${file}.\n`);
      }),
    );

  command
    .command('remove')
    .description('remove a server from the file that defines it')
    .argument('<name>')
    .addOption(new Option('-s, --scope <scope>', 'only from this file').choices(['local', 'project', 'user']))
    .action(
      guarded(async (name: string, opts: { scope?: McpScope }) => {
        const { home, root } = where();
        const scopes: McpScope[] = opts.scope ? [opts.scope] : ['local', 'project', 'user'];
        const removed: string[] = [];
        for (const scope of scopes) {
          const file = fileForScope(scope, root, home);
          if (await removeServer(file, name)) removed.push(file);
        }
        if (removed.length === 0) throw new Error(`no MCP server named ${name}${opts.scope ? ` in the ${opts.scope} file` : ''}`);
        io.out(`Removed MCP server ${name} from ${removed.join(', ')}.\n`);
        // Its OAuth login goes with the last definition of that name.
        if (!(await loadMcpConfig(root, home)).servers.some((server) => server.name === name)) {
          const { removeStoredAuth } = await import('../../mcp/oauth.js');
          if (await removeStoredAuth(home, name)) io.out(`Removed its stored login.\n`);
        }
      }),
    );

  command
    .command('approve')
    .description("let this project's servers start (as they are defined now); --revoke takes it back")
    .argument('[names...]')
    .option('--all', 'every server the project defines')
    .option('--revoke', 'withdraw the approval')
    .action(
      guarded(async (names: string[], opts: { all?: boolean; revoke?: boolean }) => {
        const { home, root } = where();
        const projectServers = (await loadMcpConfig(root, home)).servers.filter((server) => server.scope !== 'user');
        const chosen = opts.all ? projectServers : projectServers.filter((server) => names.includes(server.name));
        const unknown = names.filter((name) => !projectServers.some((server) => server.name === name));
        if (unknown.length > 0) throw new Error(`not a server of this project: ${unknown.join(', ')} (project servers: ${projectServers.map((s) => s.name).join(', ') || 'none'})`);
        if (chosen.length === 0) throw new Error('name the servers to approve, or pass --all');
        await setApprovals(home, root, chosen, opts.revoke === true);
        for (const server of chosen) {
          io.out(`${opts.revoke ? 'Revoked' : 'Approved'} ${server.name}: ${describeDefinition(server.definition)}\n`);
          if (opts.revoke) continue;
          // What else the approval covers: a change to any of these asks again.
          const files = Object.entries(await approvedFiles(server, root));
          if (files.length > 0) io.out(`  and what it runs in the project (a change to any of these asks again):\n${files.map(([key, sha]) => `    ${key} (sha256 ${sha.slice(0, 12)}…)\n`).join('')}`);
        }
      }),
    );
  command
    .command('login')
    .description('log in to a remote server that asks for OAuth: opens the browser, stores the tokens under ~/.seek/mcp-auth/')
    .argument('<name>')
    .action(
      guarded(async (name: string) => {
        const { home, root } = where();
        const config = await loadMcpConfig(root, home);
        const server = config.servers.find((candidate) => candidate.name === name);
        if (!server) throw new Error(`no MCP server named ${name} (configured: ${config.servers.map((s) => s.name).join(', ') || 'none'})`);
        const { loginToServer } = await import('../../mcp/oauth-login.js');
        const result = await loginToServer({ server, seekHome: home, env: io.env, say: (text) => io.err(text) });
        io.out(
          result.loggedIn
            ? `Logged in to ${name}: ✓ connected, ${result.tools} tool(s). Tokens saved in ${result.file}.\n`
            : `${name} did not ask for a login: ✓ connected, ${result.tools} tool(s). Nothing stored.\n`,
        );
      }),
    );

  command
    .command('logout')
    .description("forget a remote server's stored OAuth login")
    .argument('<name>')
    .action(
      guarded(async (name: string) => {
        const { removeStoredAuth, mcpAuthFile } = await import('../../mcp/oauth.js');
        const home = seekHome(io.env);
        const removed = await removeStoredAuth(home, name);
        io.out(removed ? `Logged out of ${name} (removed ${mcpAuthFile(home, name)}).\n` : `No stored login for ${name}.\n`);
      }),
    );

  command
    .command('serve')
    .description('run seek as an MCP server over stdio: one tool, `seek`, runs a prompt headless in this project')
    .option('--auto', 'calls may edit and run commands inside the project without asking (commands in the OS sandbox)')
    .option('--yolo', 'calls may do anything without asking')
    .action(
      guarded(async (opts: { auto?: boolean; yolo?: boolean }) => {
        const modeFlags = opts.yolo ? ['--yolo'] : opts.auto ? ['--auto'] : [];
        const { serveMcp } = await import('../../mcp/serve.js');
        await serveMcp({ seekBin: process.argv[1]!, cwd: io.cwd(), env: io.env, modeFlags });
      }),
    );
  return command;
}

async function connectAll(home: string, root: string, env: NodeJS.ProcessEnv): Promise<ServerStatus[]> {
  const manager = await McpManager.open({ projectRoot: root, seekHome: home, cwd: root, env });
  try {
    await manager.settle(60_000);
    return manager.statuses();
  } finally {
    await manager.close();
  }
}

function definitionFrom(rest: string[], opts: { transport: 'stdio' | 'http' | 'sse'; env?: string[]; header?: string[] }): ServerDefinition {
  if (opts.transport !== 'stdio') {
    if (rest.length !== 1) throw new Error(`a ${opts.transport} server takes one URL`);
    const headers = Object.fromEntries((opts.header ?? []).map((header) => {
      const at = header.indexOf(':');
      if (at <= 0) throw new Error(`header "${header}" must look like "Name: value"`);
      return [header.slice(0, at).trim(), header.slice(at + 1).trim()];
    }));
    return { type: opts.transport, url: rest[0]!, ...(Object.keys(headers).length ? { headers } : {}) };
  }
  const env = Object.fromEntries((opts.env ?? []).map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--env "${pair}" must look like KEY=VALUE`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }));
  const [commandName, ...args] = rest;
  return { command: commandName!, ...(args.length ? { args } : {}), ...(Object.keys(env).length ? { env } : {}) };
}

function describeDefinition(definition: ServerDefinition | ConfiguredServer['definition']): string {
  if ('url' in definition && typeof definition.url === 'string') return `${definition.type ?? 'http'} ${definition.url}`;
  const stdio = definition as { command: string; args?: string[] };
  return `stdio: ${[stdio.command, ...(stdio.args ?? [])].join(' ')}`;
}

function statusLine(status: ServerStatus): string {
  const state =
    status.state === 'ready'
      ? `✓ connected, ${status.tools} tool(s)`
      : status.state === 'unapproved'
        ? `not started: ${status.approval === 'changed' ? `changed since approved${status.approvalReason ? ` (${status.approvalReason})` : ''}` : 'not approved'} (seek mcp approve ${status.name})`
        : status.state === 'failed'
          ? `✗ failed: ${status.error ?? 'unknown error'}`
          : status.state === 'unsupported'
            ? `✗ not supported: ${status.error ?? ''}`
            : status.state;
  return `${status.name} (${status.scope}) ${state}`;
}

function oneLine(text: string): string {
  const first = text.trim().split('\n')[0] ?? '';
  return first.length > 100 ? `${first.slice(0, 99)}…` : first;
}

