/**
 * The editor side of `seek acp` in end-to-end tests: the real `seek acp` process (bin/seek.js) and
 * the ACP SDK's own client app over its stdin/stdout. Records every `session/update` and client
 * request; answers permission requests with what the test decides; serves `fs/*` from in-memory
 * buffers (an editor's unsaved files) when the test gives it some.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { EditorTerminals } from './acp-terminals.js';
import { SEEK_BIN } from './seek-process.js';

export interface AcpHarnessOptions {
  cwd: string;
  env: Record<string, string>;
  args?: string[];
  /** Offer `fs/read_text_file` and `fs/write_text_file`, served from these buffers (absolute path
   * → text), falling back to the disk for reads. Writes land in the buffers only (unsaved). */
  buffers?: Map<string, string>;
  /** Answer `elicitation/create` (offer it with `initialize({ elicitation: true })`). */
  elicit?: (params: acp.CreateElicitationRequest) => acp.CreateElicitationResponse;
  /** Serve `terminal/*` with these terminals (offer them with `initialize({ terminal: true })`). */
  terminals?: EditorTerminals;
}

/** `hold`: leave the request open until `release` answers it (an editor still showing the question). */
export type PermissionAnswer = 'allow' | 'always' | 'reject' | 'cancelled' | 'hold';

export class AcpHarness {
  readonly updates: acp.SessionNotification[] = [];
  readonly permissionRequests: acp.RequestPermissionRequest[] = [];
  readonly fsReads: string[] = [];
  readonly fsWrites: Array<{ path: string; content: string }> = [];
  readonly elicitations: acp.CreateElicitationRequest[] = [];
  stderr = '';
  /** How the next permission requests are answered, in order. */
  readonly answers: PermissionAnswer[] = [];
  private readonly waiters = new Set<() => void>();
  private held: Array<(answer: Exclude<PermissionAnswer, 'hold'>) => void> = [];
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly connection: acp.ClientConnection,
  ) {
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.exited = new Promise((resolve) => child.on('close', (code) => resolve(code)));
  }

  static start(options: AcpHarnessOptions): AcpHarness {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...options.env };
    const child = spawn(process.execPath, [SEEK_BIN, 'acp', ...(options.args ?? [])], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const holder: { harness?: AcpHarness } = {};
    const buffers = options.buffers;
    let app = acp
      .client({ name: 'seek-e2e-editor' })
      .onNotification('session/update', ({ params }) => holder.harness!.record(params))
      .onRequest('session/request_permission', ({ params }) => holder.harness!.answerPermission(params));
    const elicit = options.elicit;
    if (elicit) {
      app = app.onRequest('elicitation/create', ({ params }) => {
        holder.harness!.elicitations.push(params);
        holder.harness!.changed();
        return elicit(params);
      });
    }
    const terminals = options.terminals;
    if (terminals) {
      terminals.onChange = () => holder.harness?.changed();
      app = app
        .onRequest('terminal/create', ({ params }) => terminals.create(params))
        .onRequest('terminal/output', ({ params }) => terminals.output(params))
        .onRequest('terminal/wait_for_exit', ({ params }) => terminals.waitForExit(params))
        .onRequest('terminal/kill', ({ params }) => terminals.kill(params))
        .onRequest('terminal/release', ({ params }) => terminals.release(params));
    }
    if (buffers) {
      app = app
        .onRequest('fs/read_text_file', ({ params }) => {
          holder.harness!.fsReads.push(params.path);
          holder.harness!.changed();
          return { content: buffers.get(params.path) ?? readFileSync(params.path, 'utf8') };
        })
        .onRequest('fs/write_text_file', ({ params }) => {
          holder.harness!.fsWrites.push({ path: params.path, content: params.content });
          buffers.set(params.path, params.content);
          holder.harness!.changed();
          return {};
        });
    }
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
    const harness = new AcpHarness(child, app.connect(stream));
    holder.harness = harness;
    return harness;
  }

  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  /** `initialize` as an editor sends it, offering the file system and notices when asked to. */
  initialize(offer: { fs?: boolean; notices?: boolean; elicitation?: boolean; terminal?: boolean } = {}): Promise<acp.InitializeResponse> {
    return this.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {
        ...(offer.fs ? { fs: { readTextFile: true, writeTextFile: true } } : {}),
        ...(offer.notices ? { session: { notices: {} } } : {}),
        ...(offer.elicitation ? { elicitation: { form: {} } } : {}),
        ...(offer.terminal ? { terminal: true } : {}),
      },
      clientInfo: { name: 'seek-e2e-editor', version: '1' },
    });
  }

  /** The updates of one session, unwrapped. */
  updatesOf(sessionId: string): acp.SessionUpdate[] {
    return this.updates.filter((notification) => notification.sessionId === sessionId).map((notification) => notification.update);
  }

  /** Resolves once `check` holds (checked at every update, request and answer); rejects after `timeoutMs`. */
  async waitFor<T>(what: string, check: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
    const now = check();
    if (now) return now;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(test);
        reject(new Error(`timed out waiting for ${what}\nupdates: ${JSON.stringify(this.updates.map((n) => n.update.sessionUpdate))}\nstderr: ${this.stderr}`));
      }, timeoutMs);
      const test = (): void => {
        const value = check();
        if (!value) return;
        clearTimeout(timer);
        this.waiters.delete(test);
        resolve(value);
      };
      this.waiters.add(test);
    });
  }

  /** Ends the connection (stdin closes) and waits for seek to exit; returns its exit status. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
      this.connection.close();
    }
  }

  private record(notification: acp.SessionNotification): void {
    this.updates.push(notification);
    this.changed();
  }

  /** Answers the permission requests left open by `hold`. */
  release(answer: Exclude<PermissionAnswer, 'hold'>): void {
    for (const resolve of this.held.splice(0)) resolve(answer);
  }

  private async answerPermission(params: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> {
    this.permissionRequests.push(params);
    this.changed();
    const first = this.answers.shift() ?? 'reject';
    const answer = first === 'hold' ? await new Promise<Exclude<PermissionAnswer, 'hold'>>((resolve) => this.held.push(resolve)) : first;
    if (answer === 'cancelled') return { outcome: { outcome: 'cancelled' } };
    const kind = answer === 'allow' ? 'allow_once' : answer === 'always' ? 'allow_always' : 'reject_once';
    const option = params.options.find((candidate) => candidate.kind === kind);
    return { outcome: { outcome: 'selected', optionId: option?.optionId ?? 'missing' } };
  }

  changed(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** The text of every chunk of one kind, concatenated. */
export function chunkText(updates: readonly acp.SessionUpdate[], kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
  return updates
    .filter((update): update is Extract<acp.SessionUpdate, { sessionUpdate: typeof kind }> => update.sessionUpdate === kind)
    .map((update) => (update.content.type === 'text' ? update.content.text : ''))
    .join('');
}
