import { join } from 'node:path';
import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import type { UserMessage } from '../providers/types.js';
import { injectedContext } from '../session/context.js';
import { COMMAND_OUTPUT_MAX_CHARS, truncateHeadTail } from '../tools/truncate.js';
import { approvalDetails, coverageReason, type ApprovalDetail, type ApprovalState } from './approvals.js';
import { changedPin } from '../util/covered-files.js';
import { mcpErrorText } from './errors.js';
import { loadMcpConfig, type ConfiguredServer, type UnsupportedServer } from './config.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationHandler, ElicitationRequest } from './elicitation.js';
import type { ConnectionOptions, McpConnection, ServerState } from './connection.js';

/** The connection class, loaded only when a server will run: the SDK stays out of a plain start. */
type ConnectionClass = typeof import('./connection.js').McpConnection;

export interface ServerStatus {
  name: string;
  scope: ConfiguredServer['scope'];
  file: string;
  /** `disabled` in config, `unapproved` (project server not approved as it is), `unsupported` (a
   * transport seek does not speak; `error` says which), or the connection's state. */
  state: ServerState | 'disabled' | 'unapproved' | 'unsupported';
  approval: ApprovalState;
  /** Why a `changed` approval no longer holds (`file changed since approved: tools/mcp-server.js`). */
  approvalReason?: string;
  error?: string;
  tools: number;
}

export interface QualifiedTool {
  /** `mcp__<server>__<tool>`: the name permission rules and hooks use. */
  name: string;
  server: string;
  info: McpToolInfo;
  connection: McpConnection;
}

export interface McpManagerOptions {
  projectRoot: string;
  seekHome: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Declare elicitation (sessions; not `seek mcp list`). A question no front end takes (no
   * handler installed: headless, the plain line mode, an editor that cannot answer) is declined,
   * and said: to `onDeclined` (a notice, on stderr headless) and in the result of the calls then
   * in flight, so neither the user nor the model is left guessing. */
  elicitation?: boolean;
  onDeclined?: (text: string) => void;
  /** Answers servers' `sampling/createMessage` (runtime/mcp-sampling.ts); absent: not declared. */
  sample?: ConnectionOptions['sample'];
  /** Servers of this session only (the editor's, over ACP): added after the configured ones; a
   * name already configured keeps its configuration (and the clash is reported). */
  sessionServers?: readonly ConfiguredServer[];
}

export const MCP_PREFIX = 'mcp__';

/** A server runs when it is enabled and either the user's own or approved as it is now. */
function startable(server: ConfiguredServer, approvals: ReadonlyMap<string, ApprovalDetail>): boolean {
  if (server.definition.disabled) return false;
  const approval = approvals.get(server.name)?.state;
  return approval === 'not-needed' || approval === 'approved';
}

/** Before each start (a restart after a crash, /mcp reconnect too): the files the approval covers
 * are checked again, so a script changed while the session runs is never started. */
function verifier(server: ConfiguredServer, detail: ApprovalDetail | undefined): (() => Promise<string | undefined>) | undefined {
  const pinned = detail?.pinned ?? [];
  if (pinned.length === 0) return undefined;
  return async () => {
    const changed = await changedPin(pinned);
    return changed ? `not started: ${coverageReason('changed', changed.relative)}; review it, then run \`seek mcp approve ${server.name}\`` : undefined;
  };
}

/** The answer to a question nobody here can answer: decline, with the note the model sees. */
function declined(request: ElicitationRequest, report: ((text: string) => void) | undefined): ElicitResult & { note: string } {
  const message = request.message.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 200);
  const note = `[seek declined a question from MCP server ${request.server} ("${message}"): nobody can answer it in this mode; run seek in the terminal UI or an editor to answer such questions]`;
  report?.(note.slice(1, -1));
  return { action: 'decline', note };
}

export function qualifiedName(server: string, tool: string): string {
  return `${MCP_PREFIX}${server}__${tool}`;
}

/**
 * The session's MCP servers. Startable servers connect in parallel, in the background, from the
 * moment the manager opens: nothing waits for them before the first prompt. Tools are reached
 * tool_search / call_tool (or mcp_search / mcp_call; fixed schemas, so the request prefix never changes); a server
 * that becomes ready or fails is announced by a context message appended before the next prompt.
 */
export class McpManager {
  private readonly connections = new Map<string, McpConnection>();
  private readonly pendingAnnouncements = new Set<string>();
  /** Listeners for any change of a server's state (the TUI's /mcp view). */
  private readonly listeners = new Set<() => void>();
  private readonly connectionOptions: Omit<ConnectionOptions, 'server'>;
  private elicitationHandler: ElicitationHandler | undefined;
  /** The servers' one root (`roots/list`): the project, or the worktree the session works in. */
  private root: string;
  /** The tools the model loads and calls MCP tools with, as messages name them (see via()). */
  private reach = { search: 'mcp_search', call: 'mcp_call' };

  private constructor(
    private readonly configured: ConfiguredServer[],
    private readonly approvals: Map<string, ApprovalDetail>,
    readonly problems: string[],
    options: McpManagerOptions,
    private readonly Connection: ConnectionClass | undefined,
    private readonly unsupported: readonly UnsupportedServer[] = [],
  ) {
    this.root = options.projectRoot;
    this.connectionOptions = {
      env: options.env,
      cwd: options.cwd,
      root: () => this.root,
      ...(options.sample ? { sample: options.sample } : {}),
      logDir: join(options.seekHome, 'logs', 'mcp'),
      onChange: (connection) => this.changed(connection),
      ...(options.elicitation
        ? {
            // Nobody to ask at this moment (no front end installed a handler): declined, and said.
            elicit: (request, signal) => this.elicitationHandler?.(request, signal) ?? Promise.resolve(declined(request, options.onDeclined)),
          }
        : {}),
    };
    for (const server of configured) {
      if (!startable(server, approvals)) continue;
      const verify = verifier(server, approvals.get(server.name));
      this.connections.set(server.name, new Connection!({ ...this.connectionOptions, server, ...(verify ? { verify } : {}) }));
    }
  }

  static async open(options: McpManagerOptions): Promise<McpManager> {
    const config = await loadMcpConfig(options.projectRoot, options.seekHome);
    for (const server of options.sessionServers ?? []) {
      if (config.servers.some((configured) => configured.name === server.name)) {
        config.problems.push(`MCP server ${server.name} from the editor was not started: a server of that name is configured in ${config.servers.find((c) => c.name === server.name)!.file}`);
      } else {
        config.servers.push(server);
      }
    }
    const approvals = await approvalDetails(options.seekHome, options.projectRoot, config.servers);
    const anyStarts = config.servers.some((server) => startable(server, approvals));
    const Connection = anyStarts ? (await import('./connection.js')).McpConnection : undefined;
    const manager = new McpManager(config.servers, approvals, config.problems, options, Connection, config.unsupported);
    for (const server of config.servers) {
      const approval = approvals.get(server.name);
      if (server.definition.disabled || (approval?.state !== 'changed' && approval?.state !== 'not-approved')) continue;
      const why = approval.state === 'changed' ? `changed since you approved it (${approval.reason ?? 'definition changed since approved'})` : 'is defined by this project and not approved';
      manager.problems.push(`MCP server ${server.name} (${server.file}) ${why}; it was not started. Review it, then run \`seek mcp approve ${server.name}\` to start it.`);
    }
    return manager;
  }

  /** A configured server by name (running or not). */
  configuredServer(name: string): ConfiguredServer | undefined {
    return this.configured.find((server) => server.name === name);
  }

  /** Whether any server will run: only then are the MCP tools offered to the model. */
  get active(): boolean {
    return this.connections.size > 0;
  }

  /** Names of the servers that run (for the tools' descriptions, fixed for the session). */
  get serverNames(): string[] {
    return [...this.connections.keys()];
  }

  statuses(): ServerStatus[] {
    return this.configured.map((server): ServerStatus => {
      const connection = this.connections.get(server.name);
      const detail = this.approvals.get(server.name);
      const approval = detail?.state ?? 'not-approved';
      const state = connection?.state ?? (server.definition.disabled ? 'disabled' : 'unapproved');
      return {
        name: server.name,
        scope: server.scope,
        file: server.file,
        state,
        approval,
        ...(detail?.reason ? { approvalReason: detail.reason } : {}),
        ...(connection?.error ? { error: connection.error } : {}),
        tools: connection?.tools.length ?? 0,
      };
    }).concat(
      this.unsupported.map((server): ServerStatus => ({ name: server.name, scope: server.scope, file: server.file, state: 'unsupported', approval: 'not-needed', error: server.reason, tools: 0 })),
    );
  }

  /** Waits (up to `ms`) for servers still starting, so a search sees their tools. */
  async settle(ms: number): Promise<void> {
    const all = Promise.all([...this.connections.values()].map((connection) => connection.whenSettled()));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  /** Every tool of the ready servers. */
  tools(): QualifiedTool[] {
    const found: QualifiedTool[] = [];
    for (const [server, connection] of this.connections) {
      if (connection.state !== 'ready') continue;
      for (const info of connection.tools) found.push({ name: qualifiedName(server, info.name), server, info, connection });
    }
    return found;
  }

  /** The tool named `mcp__<server>__<tool>`, waiting for its server to finish starting. */
  /** Names the tools the model reaches MCP tools through in announcements and errors: tool_search
   * and call_tool when tools are on demand (src/mcp/deferred.ts), else mcp_search and mcp_call. */
  via(search: string, call: string): void {
    this.reach = { search, call };
  }

  async find(name: string): Promise<QualifiedTool | { error: string }> {
    const server = [...this.connections.keys()].find((candidate) => name.startsWith(qualifiedName(candidate, '')));
    if (!server) return { error: `No MCP server for ${name}. Servers: ${this.serverNames.join(', ') || 'none'}.` };
    const connection = this.connections.get(server)!;
    await connection.whenSettled();
    if (connection.state !== 'ready') return { error: `MCP server ${server} is not available: ${connection.error ?? connection.state}.` };
    const toolName = name.slice(qualifiedName(server, '').length);
    const info = connection.tools.find((tool) => tool.name === toolName);
    if (!info) return { error: `MCP server ${server} has no tool ${toolName}. Use ${this.reach.search} to list its tools.` };
    return { name, server, info, connection };
  }

  /**
   * The resources a prompt mentions as `@server:uri` (a server that runs here; other `@` words are
   * left alone), read and given to the model as context messages before the prompt. A resource
   * that cannot be read is a context message saying why, so the model is not left guessing.
   */
  async resourcesMentioned(prompt: string, signal: AbortSignal): Promise<UserMessage[]> {
    const messages: UserMessage[] = [];
    const seen = new Set<string>();
    for (const match of prompt.matchAll(/(?:^|\s)@([A-Za-z0-9_-]+):(\S+)/g)) {
      const [, server, uri] = match as unknown as [string, string, string];
      const connection = this.connections.get(server);
      if (!connection || seen.has(`${server}:${uri}`)) continue;
      seen.add(`${server}:${uri}`);
      let body: string;
      try {
        const result = await connection.readResource(uri, signal);
        body = result.contents
          .map((content) => ('text' in content && typeof content.text === 'string' ? content.text : `[${content.mimeType ?? 'binary'} content of ${content.uri} not shown]`))
          .join('\n');
        body = truncateHeadTail(body, COMMAND_OUTPUT_MAX_CHARS);
      } catch (error) {
        body = `[could not read it: ${mcpErrorText(error)}]`;
      }
      messages.push(injectedContext(`mcp.resource ${server}:${uri.replace(/"/g, "%22")}`, `\n${body}\n`));
    }
    return messages;
  }

  /** `/mcp__<server>__<prompt>` names of the ready servers' prompts, with their argument names. */
  promptCommands(): Array<{ name: string; description: string; arguments: string[] }> {
    const commands = [];
    for (const [server, connection] of this.connections) {
      if (connection.state !== 'ready') continue;
      for (const prompt of connection.prompts) {
        commands.push({ name: qualifiedName(server, prompt.name), description: prompt.description ?? '', arguments: (prompt.arguments ?? []).map((arg) => arg.name) });
      }
    }
    return commands;
  }

  /**
   * The text of a server prompt run as `/mcp__<server>__<prompt> ARGS`: ARGS as `name=value` pairs,
   * or plain words given to the prompt's arguments in order (the last takes the rest). Its
   * messages are joined into the text sent as the user's prompt.
   */
  async promptText(name: string, args: string, signal: AbortSignal): Promise<string> {
    const server = [...this.connections.keys()].find((candidate) => name.startsWith(qualifiedName(candidate, '')));
    if (!server) throw new Error(`no MCP server for /${name}; /mcp lists them`);
    const connection = this.connections.get(server)!;
    await connection.whenSettled();
    const promptName = name.slice(qualifiedName(server, '').length);
    const prompt = connection.prompts.find((candidate) => candidate.name === promptName);
    if (!prompt) throw new Error(`MCP server ${server} has no prompt ${promptName}${connection.prompts.length ? ` (it has: ${connection.prompts.map((p) => p.name).join(', ')})` : ''}`);
    const declared = (prompt.arguments ?? []).map((arg) => arg.name);
    const values: Record<string, string> = {};
    const words = args.trim() === '' ? [] : args.trim().split(/\s+/);
    if (words.every((word) => /^[\w-]+=/.test(word))) {
      for (const word of words) values[word.slice(0, word.indexOf('='))] = word.slice(word.indexOf('=') + 1);
    } else {
      declared.forEach((arg, at) => {
        const value = at === declared.length - 1 ? words.slice(at).join(' ') : words[at];
        if (value) values[arg] = value;
      });
    }
    const missing = (prompt.arguments ?? []).filter((arg) => arg.required && !(arg.name in values)).map((arg) => arg.name);
    if (missing.length) throw new Error(`/${name} needs ${missing.join(', ')} (as name=value or in order: ${declared.join(' ')})`);
    const result = await connection.getPrompt(promptName, values, signal).catch((error: unknown) => {
      throw new Error(mcpErrorText(error));
    });
    const parts = result.messages.map((message) =>
      message.content.type === 'text' ? message.content.text : message.content.type === 'resource' && 'text' in message.content.resource ? String(message.content.resource.text) : `[${message.content.type} content not shown]`,
    );
    return parts.join('\n\n');
  }

  /** Context messages for servers that became ready or failed since the last call. */
  takeAnnouncements(): UserMessage[] {
    const lines: string[] = [];
    for (const server of this.pendingAnnouncements) {
      const connection = this.connections.get(server);
      if (!connection) continue;
      if (connection.state === 'ready') {
        const names = connection.tools.map((tool) => tool.name);
        const listed = names.slice(0, 20).join(', ') + (names.length > 20 ? `, … (${names.length - 20} more)` : '');
        lines.push(`MCP server ${server} is ready: ${names.length} tool(s): ${listed}.`);
      } else if (connection.state === 'failed') {
        lines.push(`MCP server ${server} is not available: ${connection.error ?? 'it failed'}.`);
      }
    }
    this.pendingAnnouncements.clear();
    if (lines.length === 0) return [];
    lines.push(`Load a tool's parameters with ${this.reach.search}, then call it with ${this.reach.call}.`);
    return [injectedContext('mcp', lines.join('\n'))];
  }

  /** Closes and starts one server again (/mcp reconnect); false when no such server runs here. */
  async reconnect(name: string): Promise<boolean> {
    const old = this.connections.get(name);
    if (!old) return false;
    await old.close();
    this.connections.set(name, new this.Connection!({ ...this.connectionOptions, server: old.server }));
    for (const listener of this.listeners) listener();
    return true;
  }

  /** The front end that answers servers' form questions (`undefined` removes it). Only servers of
   * a manager opened with `elicitation: true` ask. */
  setElicitationHandler(handler: ElicitationHandler | undefined): void {
    this.elicitationHandler = handler;
  }

  /** The session moved into a worktree or back: servers are told their root changed. */
  setRoot(root: string): void {
    if (root === this.root) return;
    this.root = root;
    for (const connection of this.connections.values()) connection.rootsChanged();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  private changed(connection: McpConnection): void {
    this.pendingAnnouncements.add(connection.name);
    for (const listener of this.listeners) listener();
  }
}
