import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, type CreateMessageRequest, type CreateMessageResult, type CallToolResult, type ElicitResult, type GetPromptResult, type Prompt, type ReadResourceResult, type Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationRequest } from './elicitation.js';
import { SEEK_VERSION } from '../util/version.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { seekHome } from '../config/paths.js';
import { expandVariables, isRemote, type ConfiguredServer } from './config.js';
import { mcpErrorText } from './errors.js';
import { NeedsLoginError, needsLoginMessage } from './oauth.js';
import { FallbackHttpTransport, remoteEndpoint, sessionAuthProvider } from './remote-transport.js';

export { remoteEndpoint } from './remote-transport.js';
import { findTaggedProcesses, newCommandTag, withCommandTag } from '../tools/process-group.js';

export type ServerState = 'starting' | 'ready' | 'failed' | 'closed';

export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/** Restarts after a crash: this many, waiting 1 s, 2 s, 4 s… (at most 30 s) before each. */
const MAX_RESTARTS = 5;

export interface ConnectionOptions {
  server: ConfiguredServer;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Where stdio servers' stderr is appended (`<dir>/<name>.log`). */
  logDir: string;
  /** Present when the session can answer `sampling/createMessage` (its model, asked first): the
   * client then declares `sampling`. A refusal throws; the server gets it as the request's error. */
  sample?: (server: string, params: CreateMessageRequest['params'], signal: AbortSignal) => Promise<CreateMessageResult>;
  /** The client's one root (`roots/list`): the project, or the worktree the session works in. */
  root: () => string;
  /** Told about every change of state (ready, failed, restarted). */
  onChange: (connection: McpConnection) => void;
  /** Called before every start (the first, each restart): a sentence when the server must not start
   * (a file its approval covers changed), which becomes its error. */
  verify?: () => Promise<string | undefined>;
  /** Present only where someone can answer (interactive sessions): the client then declares the
   * `elicitation: { form: {} }` capability and passes the server's form questions here. */
  elicit?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitResult & { note?: string }>;
}

/**
 * One MCP server: connects in the background, lists its tools, calls them with a timeout, and
 * restarts with backoff when it crashes. Never throws into the session: failures become `state`
 * and `error`, and a call on a failed server is an error result.
 */
export class McpConnection {
  state: ServerState = 'starting';
  error: string | undefined;
  tools: McpToolInfo[] = [];
  /** The server's prompts (its `prompts/list`), offered as `/mcp__<server>__<prompt>`. */
  prompts: Prompt[] = [];
  instructions: string | undefined;
  serverVersion: string | undefined;
  restarts = 0;
  private client: Client | undefined;
  private settled: Promise<void>;
  private closing = false;
  private log: WriteStream | undefined;
  private readonly tag = newCommandTag();
  private restartTimer: NodeJS.Timeout | undefined;
  private cancelRestart: (() => void) | undefined;
  /** The signals of the tool calls in flight: a question a server asks belongs to one of them. */
  private readonly callSignals = new Set<AbortSignal>();
  /** Notes for the calls in flight (a question seek declined for want of anyone to ask), added
   * to their results so the model knows why the server did without an answer. */
  private readonly callNotes = new Map<AbortSignal, string[]>();

  constructor(private readonly options: ConnectionOptions) {
    this.settled = this.connect();
  }

  get name(): string {
    return this.options.server.name;
  }

  get server(): ConfiguredServer {
    return this.options.server;
  }

  get callTimeoutMs(): number {
    return this.options.server.definition.timeout_ms ?? DEFAULT_CALL_TIMEOUT_MS;
  }

  /** Resolves once the server is ready or has failed (never rejects). */
  async whenSettled(): Promise<void> {
    await this.settled;
  }

  /**
   * Calls a tool. The call asks for progress notifications (the SDK sends a progress token only
   * when there is a listener): each one is passed on and restarts the timeout, so a long tool that
   * reports progress is not cut off while a silent, hung one is.
   */
  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal, onProgress: (text: string) => void = () => {}): Promise<CallToolResult> {
    await this.settled;
    if (this.state !== 'ready' || !this.client) throw new Error(`MCP server ${this.name} is not running (${this.error ?? this.state})`);
    this.callSignals.add(signal);
    const result = await this.client.callTool({ name, arguments: args }, undefined, {
      signal,
      timeout: this.callTimeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: (progress) => {
        const total = progress.total !== undefined ? `/${progress.total}` : '';
        onProgress(`progress ${progress.progress}${total}${progress.message ? `: ${progress.message}` : ''}`);
      },
    }).finally(() => this.callSignals.delete(signal));
    const notes = this.callNotes.get(signal) ?? [];
    this.callNotes.delete(signal);
    const called = result as CallToolResult;
    return notes.length > 0 ? { ...called, content: [...(called.content ?? []), ...notes.map((text) => ({ type: 'text' as const, text }))] } : called;
  }

  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<GetPromptResult> {
    await this.settled;
    if (this.state !== 'ready' || !this.client) throw new Error(`MCP server ${this.name} is not running (${this.error ?? this.state})`);
    return this.client.getPrompt({ name, arguments: args }, { signal, timeout: this.callTimeoutMs });
  }

  async readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    await this.settled;
    if (this.state !== 'ready' || !this.client) throw new Error(`MCP server ${this.name} is not running (${this.error ?? this.state})`);
    return this.client.readResource({ uri }, { signal, timeout: this.callTimeoutMs });
  }

  /** Tells a running server its roots changed (it asks `roots/list` again). */
  rootsChanged(): void {
    if (this.state === 'ready') void this.client?.sendRootsListChanged().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.state = 'closed';
    clearTimeout(this.restartTimer);
    this.cancelRestart?.();
    try {
      await this.client?.close();
    } catch {
      // Already gone.
    }
    // What the server started (npx starts node, which may start more) ends with it.
    for (const pid of findTaggedProcesses(this.tag)) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Gone meanwhile.
      }
    }
    this.log?.end();
  }

  private async connect(): Promise<void> {
    const { server } = this.options;
    const startupMs = server.definition.startup_timeout_ms ?? DEFAULT_STARTUP_TIMEOUT_MS;
    const client = new Client(
      { name: 'seek', version: SEEK_VERSION },
      { capabilities: { roots: { listChanged: true }, ...(this.options.sample ? { sampling: {} } : {}), ...(this.options.elicit ? { elicitation: { form: {} } } : {}) } },
    );
    if (this.options.elicit) this.answerElicitation(client, this.options.elicit);
    // Roots: the directory the session works in, so filesystem-minded servers stay inside it.
    client.setRequestHandler(ListRootsRequestSchema, () => {
      const root = this.options.root();
      return { roots: [{ uri: pathToFileURL(root).href, name: basename(root) }] };
    });
    if (this.options.sample) this.answerSampling(client, this.options.sample);
    try {
      const refused = await this.options.verify?.();
      if (refused !== undefined) throw new Error(refused);
      const transport = this.transport();
      await withTimeout(client.connect(transport, { timeout: startupMs }), startupMs, `did not start within ${startupMs} ms`);
      this.client = client;
      this.instructions = client.getInstructions();
      this.serverVersion = client.getServerVersion()?.version;
      this.tools = client.getServerCapabilities()?.tools ? await listAllTools(client, startupMs) : [];
      this.prompts = client.getServerCapabilities()?.prompts ? (await client.listPrompts(undefined, { timeout: startupMs })).prompts : [];
      client.onclose = () => this.onUnexpectedClose();
      this.state = 'ready';
      this.error = undefined;
    } catch (error) {
      try {
        await client.close();
      } catch {
        // Nothing to close.
      }
      this.state = this.closing ? 'closed' : 'failed';
      // The server wants an OAuth login nobody has done (or that expired for good): never a
      // browser from here, the user runs `seek mcp login`.
      this.error = error instanceof NeedsLoginError || error instanceof UnauthorizedError ? needsLoginMessage(this.name) : mcpErrorText(error);
    }
    if (!this.closing) this.options.onChange(this);
  }

  /**
   * Form-mode questions go to `elicit`, with a signal that aborts when the server cancels the
   * request or when every tool call that was in flight when it came has been cancelled (stdio
   * carries no link from the question to its call; a question with no call in flight waits for the
   * server or the user). A URL-mode question is declined (the SDK already refuses it with an
   * error, since only `form` is declared).
   */
  private answerElicitation(client: Client, elicit: NonNullable<ConnectionOptions['elicit']>): void {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const params = request.params;
      if (params.mode === 'url' || !('requestedSchema' in params)) return { action: 'decline' };
      const calls = [...this.callSignals];
      const controller = new AbortController();
      const abort = (): void => controller.abort();
      const onCallAborted = (): void => {
        if (calls.every((signal) => signal.aborted)) abort();
      };
      extra.signal.addEventListener('abort', abort, { once: true });
      for (const signal of calls) signal.addEventListener('abort', onCallAborted, { once: true });
      try {
        const { note, ...answer } = await elicit({ server: this.name, message: params.message, requestedSchema: params.requestedSchema }, controller.signal);
        if (note) for (const signal of calls) this.callNotes.set(signal, [...(this.callNotes.get(signal) ?? []), note]);
        return answer;
      } finally {
        extra.signal.removeEventListener('abort', abort);
        for (const signal of calls) signal.removeEventListener('abort', onCallAborted);
      }
    });
  }

  /** Sampling requests go to `sample` with a signal that aborts when the server cancels them. */
  private answerSampling(client: Client, sample: NonNullable<ConnectionOptions['sample']>): void {
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => sample(this.name, request.params, extra.signal));
  }

  private transport(): Transport {
    const { server, env } = this.options;
    const missing = new Set<string>();
    const expand = (text: string): string => expandVariables(text, env, missing);
    const definition = server.definition;
    let transport: Transport;
    if (isRemote(definition)) {
      const { url, headers, preRegistered } = remoteEndpoint(definition, expand);
      // SEEK_HOME from the same env the manager's seekHome came from (both callers compute it so).
      const authProvider = sessionAuthProvider(server.name, url, headers, seekHome(env), preRegistered);
      transport =
        definition.type === 'sse'
          ? new SSEClientTransport(url, { requestInit: { headers }, authProvider })
          : new FallbackHttpTransport(url, headers, authProvider, server.name);
    } else {
      const serverEnv: Record<string, string> = { ...getDefaultEnvironment() };
      for (const [key, value] of Object.entries(definition.env ?? {})) serverEnv[key] = expand(value);
      const stdio = new StdioClientTransport({
        command: expand(definition.command),
        args: (definition.args ?? []).map(expand),
        env: withCommandTag(serverEnv, this.tag) as Record<string, string>,
        cwd: definition.cwd ? expand(definition.cwd) : this.options.cwd,
        stderr: 'pipe',
      });
      stdio.stderr?.pipe(this.logStream(), { end: false });
      transport = stdio;
    }
    if (missing.size > 0) throw new Error(`environment variable ${[...missing].join(', ')} is not set`);
    return transport;
  }

  private logStream(): WriteStream {
    if (!this.log) {
      mkdirSync(this.options.logDir, { recursive: true, mode: 0o700 });
      this.log = createWriteStream(join(this.options.logDir, `${this.name}.log`), { flags: 'a', mode: 0o600 });
      this.log.on('error', () => undefined); // a full disk must not take the session down
    }
    return this.log;
  }

  /**
   * A crash: report it, then restart with backoff (up to MAX_RESTARTS times). Calls made meanwhile
   * wait for the restart (`settled`), so a server that comes back serves them.
   */
  private onUnexpectedClose(): void {
    if (this.closing || this.state !== 'ready') return;
    this.state = 'failed';
    this.error = 'the server exited';
    this.client = undefined;
    this.options.onChange(this);
    if (this.restarts >= MAX_RESTARTS) return;
    const delay = Math.min(30_000, 1000 * 2 ** this.restarts);
    this.restarts += 1;
    this.settled = new Promise<void>((resolve) => {
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        if (this.closing) return resolve();
        this.state = 'starting';
        void this.connect().then(resolve);
      }, delay);
      this.cancelRestart = resolve;
    });
  }
}

async function listAllTools(client: Client, timeout: number): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
