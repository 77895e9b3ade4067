import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentContext, ClientCapabilities, LoadSessionResponse, McpServer, NewSessionResponse } from '@agentclientprotocol/sdk';
import { resolveProject, seekHome } from '../config/paths.js';
import { openSession, type OpenSessionOptions } from '../runtime/session.js';
import { listSessions } from '../session/list.js';
import { SessionError } from '../session/format.js';
import { SEEK_VERSION } from '../util/version.js';
import { AcpSession } from './acp-session.js';
import { ClientFiles } from './client-files.js';
import { ClientTerminal } from './client-terminal.js';
import { editorMcpServers } from './editor-mcp.js';
import { editorElicitation } from './elicitation.js';
import { editorAsk, editorPlanReview } from './permissions.js';
import { configOptions, isSeekMode, modelChoices, modeState } from './session-config.js';

/** What `seek acp` was started with: the flags every session of the connection uses. */
export type AcpSessionDefaults = Pick<OpenSessionOptions, 'env' | 'maxTurns' | 'provider' | 'model' | 'baseUrl' | 'yolo' | 'auto' | 'plan'>;

/**
 * seek as an ACP agent: the app answering the editor's requests. `initialize` records what the
 * client offers (its file system, its terminals); `session/new` and `session/load` open seek sessions (a load
 * replays the saved history first); `session/list` lists the project's saved sessions;
 * `session/prompt` runs a turn; `session/cancel` aborts it; `session/close` ends a session;
 * `session/set_mode` and `session/set_config_option` (the model) change the session.
 */
export class SeekAcpAgent {
  private readonly sessions = new Map<string, AcpSession>();
  private clientCapabilities: ClientCapabilities = {};

  constructor(private readonly defaults: AcpSessionDefaults) {}

  app(): acp.AgentApp {
    return acp
      .agent({ name: 'seek' })
      .onRequest('initialize', ({ params }) => {
        this.clientCapabilities = params.clientCapabilities ?? {};
        return {
          protocolVersion: acp.PROTOCOL_VERSION,
          agentCapabilities: {
            loadSession: true,
            sessionCapabilities: { list: {}, close: {} },
            promptCapabilities: { image: false, audio: false, embeddedContext: true },
            mcpCapabilities: { http: true, sse: true },
          },
          agentInfo: { name: 'seek', title: 'seek', version: SEEK_VERSION },
          authMethods: [],
        };
      })
      .onRequest('session/new', async ({ params, client }) => {
        const session = await this.open(client, params.cwd, params.mcpServers);
        const response: NewSessionResponse = { sessionId: session.id, ...this.describe(session) };
        return response;
      })
      .onRequest('session/load', async ({ params, client }) => {
        const session = await this.open(client, params.cwd, params.mcpServers, params.sessionId);
        session.replayHistory(); // before the answer, as the protocol asks
        const response: LoadSessionResponse = this.describe(session);
        return response;
      })
      .onRequest('session/list', async ({ params }) => {
        // The project's saved sessions, newest first (one page: seek keeps them per project).
        const cwd = params.cwd ?? process.cwd();
        const home = seekHome(this.defaults.env);
        const sessions = await listSessions(home, resolveProject(cwd, home).pid);
        return { sessions: sessions.map((session) => ({ sessionId: session.id, cwd, title: session.title, updatedAt: session.updated_at })) };
      })
      .onRequest('session/close', async ({ params }) => {
        const session = this.sessions.get(params.sessionId);
        this.sessions.delete(params.sessionId);
        await session?.close();
        return {};
      })
      .onRequest('session/prompt', async ({ params }) => ({ stopReason: await this.session(params.sessionId).prompt(params.prompt) }))
      .onNotification('session/cancel', ({ params }) => {
        this.sessions.get(params.sessionId)?.cancel();
      })
      .onRequest('session/set_mode', ({ params }) => {
        if (!isSeekMode(params.modeId)) throw acp.RequestError.invalidParams(undefined, `unknown mode ${params.modeId}: ask, auto, plan or yolo`);
        this.session(params.sessionId).setMode(params.modeId);
        return {};
      })
      .onRequest('session/set_config_option', ({ params }) => {
        const session = this.session(params.sessionId);
        if (params.configId !== 'model' || typeof params.value !== 'string') throw acp.RequestError.invalidParams(undefined, `unknown option ${params.configId}`);
        if (!modelChoices(session.session).includes(params.value)) throw acp.RequestError.invalidParams(undefined, `${params.value} is not one of the models offered`);
        session.session.setModel(params.value);
        return { configOptions: configOptions(session.session) };
      });
  }

  /** Ends every session (the connection closed). */
  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(open.map((session) => session.close()));
  }

  private async open(client: AgentContext, cwd: string, mcpServers: readonly McpServer[] | undefined, resume?: string): Promise<AcpSession> {
    if (!path.isAbsolute(cwd)) throw acp.RequestError.invalidParams(undefined, `cwd must be an absolute path: ${cwd}`);
    if (resume !== undefined) await this.sessions.get(resume)?.close(); // loading it again starts afresh
    const ids: { acp?: string; wrapped?: AcpSession } = {};
    const files = new ClientFiles(client, this.clientCapabilities.fs, cwd);
    // The editor's terminals run the session's foreground commands when it offers them.
    const terminal = this.clientCapabilities.terminal === true ? new ClientTerminal(client, (callId, terminalId) => ids.wrapped?.send(ids.wrapped.mapper.attachTerminal(callId, terminalId))) : undefined;
    const session = await openSession({
      ...this.defaults,
      cwd,
      interactive: true,
      save: true,
      ...(resume !== undefined ? { resume } : {}),
      ask: editorAsk(client, () => ids.acp),
      reviewPlan: editorPlanReview(client, () => ids.acp, () => ids.wrapped?.mapper.lastDelegateCall),
      ...(files.active ? { files } : {}),
      ...(terminal ? { commands: terminal } : {}),
      mcpServers: editorMcpServers(mcpServers),
    }).catch((error: unknown) => {
      throw resume !== undefined ? loadError(resume, error) : error;
    });
    // A loaded session keeps the id the editor knows (seek may have forked it: another process had it open).
    const id = resume ?? session.id;
    ids.acp = id;
    files.sessionId = id;
    if (terminal) terminal.sessionId = id;
    const wrapped = new AcpSession(id, session, client, this.clientCapabilities.session?.notices != null);
    ids.wrapped = wrapped;
    // The editor answers MCP servers' form questions when it says it can; otherwise they are
    // declined with a notice (the manager's default).
    if (this.clientCapabilities.elicitation?.form != null) session.mcp.setElicitationHandler(editorElicitation(client, id));
    this.sessions.set(id, wrapped);
    setTimeout(() => wrapped.announceCommands(), 0); // after the answer that tells the editor the id
    return wrapped;
  }

  /** The session's modes and options, as `session/new` and `session/load` answer them. */
  private describe(session: AcpSession): LoadSessionResponse {
    return { modes: modeState(session.session), configOptions: configOptions(session.session) };
  }

  private session(id: string): AcpSession {
    const session = this.sessions.get(id);
    if (!session) throw acp.RequestError.sessionNotFound(id);
    return session;
  }
}

/**
 * A session/load that cannot open the session, as the protocol's own errors: an id this project
 * has no session for is "resource not found" (-32002 with `data.sessionId`, the SDK's
 * sessionNotFound); an ambiguous prefix or a file that cannot be read is invalid params, with
 * seek's sentence. Anything else stays an internal error.
 */
function loadError(sessionId: string, error: unknown): unknown {
  if (!(error instanceof SessionError)) return error;
  if (error.code === 'not_found') return acp.RequestError.sessionNotFound(sessionId);
  return acp.RequestError.invalidParams({ sessionId }, error.message);
}
