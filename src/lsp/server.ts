/**
 * One running language server: the process (already wrapped in the session's sandbox by the
 * caller), the JSON-RPC connection (vscode-languageserver-protocol), the documents it has open and
 * the diagnostics it last published for each. Loaded at the first server start, never at seek's.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  type ClientCapabilities,
  type Diagnostic,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import type { CommandSpawn } from '../agent/types.js';
import { openInheritedFiles } from '../util/inherited-files.js';

export type ServerState = 'starting' | 'running' | 'failed' | 'stopped';

export interface Published {
  items: Diagnostic[];
  /** Counts publications for this document, so a waiter can tell a fresh one. */
  serial: number;
  /** The document version they are for, when the server says. */
  version?: number;
}

const CAPABILITIES: ClientCapabilities = {
  textDocument: {
    synchronization: { didSave: false, dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: true },
    definition: { linkSupport: false },
    references: {},
    hover: { contentFormat: ['plaintext', 'markdown'] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
  },
  workspace: { workspaceFolders: true, configuration: true },
  window: { workDoneProgress: false },
};

/** Live processes of every server, ended synchronously if seek exits without stopping them. */
const live = new Set<ChildProcessWithoutNullStreams>();
let exitHook = false;
function track(child: ChildProcessWithoutNullStreams): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const proc of live) proc.kill('SIGKILL');
  });
}

export class LanguageServer {
  state: ServerState = 'starting';
  /** Why it failed, or what went wrong last. */
  problem: string | undefined;
  readonly diagnostics = new Map<string, Published>();
  readonly #docs = new Map<string, { version: number; text: string }>();
  readonly #listeners = new Set<(uri: string) => void>();
  #child: ChildProcessWithoutNullStreams | undefined;
  #connection: ProtocolConnection | undefined;
  #stderr = '';
  readonly ready: Promise<boolean>;

  constructor(
    readonly name: string,
    readonly root: string,
    spec: CommandSpawn,
    initializationOptions: Record<string, unknown> | undefined,
    initTimeoutMs: number,
    /** Diagnostics are asked for (pull.ts), not waited for. */
    readonly pulls = false,
  ) {
    this.ready = this.#start(spec, initializationOptions, initTimeoutMs).catch((error: unknown) => {
      this.#fail(error instanceof Error ? error.message : String(error));
      return false;
    });
  }

  /** Records diagnostics for `uri` (published, or asked for) and tells the waiters. */
  record(uri: string, items: Diagnostic[], version?: number): Published {
    // An answer asked for that says what the last one said is not news (it keeps its serial).
    const last = this.diagnostics.get(uri);
    if (this.pulls && last && JSON.stringify(last.items) === JSON.stringify(items)) return last;
    const published: Published = { items, serial: (this.diagnostics.get(uri)?.serial ?? 0) + 1, ...(version !== undefined ? { version } : {}) };
    this.diagnostics.set(uri, published);
    for (const listener of this.#listeners) listener(uri);
    return published;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  async #start(spec: CommandSpawn, initializationOptions: Record<string, unknown> | undefined, initTimeoutMs: number): Promise<boolean> {
    const inherited = openInheritedFiles(spec.inheritFiles);
    const stdio: ('pipe' | number)[] = ['pipe', 'pipe', 'pipe', ...inherited.fds];
    const child = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, stdio: stdio as ['pipe', 'pipe', 'pipe'] });
    inherited.close();
    this.#child = child;
    track(child);
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code === 'ENOENT' ? `${spec.file} not found` : error.message)));
    });
    child.stderr.on('data', (chunk: Buffer) => (this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-2000)));
    child.once('exit', (code, signal) => this.#fail(`exited (${signal ?? `code ${code}`})${this.#stderrTail()}`));
    child.stdin.on('error', () => undefined); // a dead server's pipe: the exit handler reports it
    await spawned;
    const connection = createProtocolConnection(child.stdout, child.stdin);
    this.#connection = connection;
    this.#handleServerRequests(connection);
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      // A server whose diagnostics are asked for publishes partial sets (syntax first): not kept.
      if (!this.pulls) this.record(params.uri, params.diagnostics, params.version);
    });
    connection.onError(() => undefined);
    connection.listen();
    const rootUri = pathToFileURL(this.root).href;
    const init = connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      rootPath: this.root,
      workspaceFolders: [{ uri: rootUri, name: 'root' }],
      capabilities: CAPABILITIES,
      ...(initializationOptions ? { initializationOptions } : {}),
    });
    await withTimeout(init, initTimeoutMs, `did not answer initialize within ${Math.round(initTimeoutMs / 1000)} s`);
    if (this.state !== 'starting') return false;
    await connection.sendNotification(InitializedNotification.type, {});
    this.state = 'running';
    return true;
  }

  /** Answers what servers ask of a client: settings (none), registrations, progress tokens. */
  #handleServerRequests(connection: ProtocolConnection): void {
    connection.onRequest('workspace/configuration', (params: { items?: unknown[] }) => (params.items ?? []).map(() => null));
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest('workspace/workspaceFolders', () => [{ uri: pathToFileURL(this.root).href, name: 'root' }]);
    connection.onRequest('window/showMessageRequest', () => null);
  }

  #stderrTail(): string {
    const last = this.#stderr.trim().split('\n').slice(-2).join(' | ').slice(0, 300);
    return last ? `: ${last}` : '';
  }

  #fail(problem: string): void {
    if (this.state === 'failed' || this.state === 'stopped') return;
    this.state = 'failed';
    this.problem = problem;
    this.#connection?.dispose();
    this.#child?.kill('SIGKILL');
    for (const listener of this.#listeners) listener('');
  }

  /** Opens the document, or sends its new text when it changed. Returns false when nothing was sent. */
  async sync(uri: string, languageId: string, text: string): Promise<boolean> {
    const connection = this.#connection;
    if (this.state !== 'running' || !connection) return false;
    const doc = this.#docs.get(uri);
    if (doc && doc.text === text) return false;
    if (!doc) {
      this.#docs.set(uri, { version: 1, text });
      await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
      return true;
    }
    doc.version += 1;
    doc.text = text;
    await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: doc.version }, contentChanges: [{ text }] });
    return true;
  }

  isOpen(uri: string): boolean {
    return this.#docs.has(uri);
  }

  openDocuments(): string[] {
    return [...this.#docs.keys()];
  }

  /** Resolves when `uri` has a publication after `serial`, the server fails, or `ms` pass. */
  waitPublished(uri: string, serial: number, ms: number): Promise<Published | undefined> {
    // A publication for an older version of the text than the one sent last is not the answer.
    const fresh = (published: Published | undefined): published is Published =>
      published !== undefined && published.serial > serial && (published.version === undefined || published.version >= (this.#docs.get(uri)?.version ?? 0));
    const now = this.diagnostics.get(uri);
    if (fresh(now)) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = (value: Published | undefined): void => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
        resolve(value);
      };
      const listener = (changed: string): void => {
        if (this.state === 'failed' || this.state === 'stopped') done(undefined);
        const published = this.diagnostics.get(uri);
        if (changed === uri && fresh(published)) done(published);
      };
      const timer = setTimeout(() => done(undefined), Math.max(0, ms));
      this.#listeners.add(listener);
    });
  }

  /** Calls `listener` with each document the server publishes for (and '' when it fails). */
  onPublish(listener: (uri: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async request<R>(method: string, params: unknown, ms: number): Promise<R> {
    if (this.state !== 'running' || !this.#connection) throw new Error(`the ${this.name} server is ${this.state}${this.problem ? `: ${this.problem}` : ''}`);
    return withTimeout(this.#connection.sendRequest<R>(method, params), ms, `${this.name} did not answer ${method} within ${Math.round(ms / 1000)} s`);
  }

  /** Asks the server to shut down, then ends the process whatever it does. */
  async stop(graceMs = 1000): Promise<void> {
    if (this.state === 'stopped') return;
    const connection = this.state === 'running' ? this.#connection : undefined;
    this.state = 'stopped';
    const child = this.#child;
    if (connection) {
      try {
        await withTimeout(connection.sendRequest(ShutdownRequest.type), graceMs, 'shutdown');
        await connection.sendNotification(ExitNotification.type);
      } catch {
        // killed below
      }
    }
    connection?.dispose();
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
    for (const listener of this.#listeners) listener('');
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
