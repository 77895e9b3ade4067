/**
 * The LSP service of a session: after edit_file and write_file, the errors the language server
 * reports for the file (and for other open files the edit changed), within a time budget; what
 * arrives later comes with the next result of a file or command tool. Created once per session by
 * `createLspService` and shared with its subagents (the pool keys servers by tree).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import type { SandboxLauncher } from '../sandbox/index.js';
import { realpathOfNearestExisting, resolvePath } from '../tools/paths.js';
import { languageIdOf, lspSettingsFrom, type LspSettings } from './config.js';
import { formatDiagnostics, reportable, shownPath, type FileDiagnostics } from './format.js';
import { ServerPool, type ServerStatus } from './pool.js';
import { freshDiagnostics } from './pull.js';
import type { LanguageServer } from './server.js';

export interface LspServiceOptions {
  /** config.json's `lsp` value. */
  config: unknown;
  env: NodeJS.ProcessEnv;
  policy: { readonly mode: string; readonly preference: string };
  sandbox?: Pick<SandboxLauncher, 'available' | 'forCall'>;
  sandboxReady?: () => Promise<void>;
  /** Overrides settings.waitMs (tests, bench). */
  waitMs?: number;
  initTimeoutMs?: number;
}

export interface EditDiagnostics {
  /** Appended to the tool result ('' adds nothing). */
  text: string;
  errors: number;
  warnings: number;
}

/** Tools whose results may carry diagnostics that arrived late (never the agent's, whose result
 * format scripts parse). */
const CARRIERS = new Set(['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'list_dir', 'git', 'lsp']);
const EDITS = new Set(['write_file', 'edit_file']);
/** How long an edit's result waits for other open files once the edited one is in. */
const OTHERS_WAIT_MS = 400;
/** At most this many other open files are asked about. */
const OTHERS_MAX = 8;

interface Pending {
  server: LanguageServer;
  base: string;
  /** The publication serial at the edit's sync; undefined until the server was ready to sync. */
  serial?: number;
}

export class LspService {
  readonly settings: LspSettings;
  readonly pool: ServerPool;
  /** Documents whose last report had errors: a clean report after them says so once. */
  readonly #reported = new Map<string, number>();
  readonly #pending = new Map<string, Pending>();
  readonly #notes = new Set<string>();
  readonly #waitMs: number;

  constructor(options: LspServiceOptions) {
    this.settings = lspSettingsFrom(options.config);
    this.#waitMs = options.waitMs ?? this.settings.waitMs;
    this.pool = new ServerPool({ ...options, settings: this.settings });
  }

  /** The diagnostics of `file` after an edit, waiting at most the budget. */
  async diagnosticsAfterEdit(file: string, root: string): Promise<EditDiagnostics> {
    const none: EditDiagnostics = { text: '', errors: 0, warnings: 0 };
    if (!this.settings.enabled) return none;
    const spec = this.pool.specFor(file);
    if (!spec) return none;
    const deadline = Date.now() + this.#waitMs;
    const realRoot = realpathOfNearestExisting(root);
    const real = realpathOfNearestExisting(file);
    const uri = pathToFileURL(real).href;
    this.#pending.delete(uri);
    const server = await this.pool.serverFor(spec, realRoot);
    if (typeof server === 'string') return { ...none, text: this.#noteOnce(`LSP: ${server}.`) };
    const ready = await Promise.race([server.ready, sleep(deadline - Date.now()).then(() => undefined)]);
    if (ready === undefined) {
      this.#pending.set(uri, { server, base: realRoot });
      void server.ready.then(async (ok) => (ok ? this.#syncPending(uri, real) : undefined));
      return { ...none, text: `LSP: the ${spec.name} server is starting; diagnostics for ${shownPath(uri, realRoot)} come with a later result.` };
    }
    if (!ready) return { ...none, text: this.#noteOnce(`LSP: the ${spec.name} language server ${server.problem ?? 'failed'}; edits go on without its diagnostics.`) };
    const before = this.#serials(server);
    await this.#resyncOpen(server, uri);
    const serial = server.diagnostics.get(uri)?.serial ?? 0;
    const sent = await server.sync(uri, languageIdOf(path.extname(real).slice(1).toLowerCase()), await readText(real));
    const published = sent || server.pulls || !server.diagnostics.has(uri) ? await freshDiagnostics(server, uri, serial, deadline - Date.now()) : server.diagnostics.get(uri);
    if (!published) {
      if (server.state === 'failed') return { ...none, text: this.#noteOnce(`LSP: the ${spec.name} language server ${server.problem ?? 'failed'}; edits go on without its diagnostics.`) };
      this.#pending.set(uri, { server, base: realRoot, serial });
      return none;
    }
    await this.#othersSettled(server, uri, before, deadline);
    return this.#report(server, uri, realRoot, before);
  }

  /** Other open documents usually get new diagnostics with the edited one (files importing it):
   * a short wait for them, within the budget. */
  async #othersSettled(server: LanguageServer, uri: string, before: Map<string, number>, deadline: number): Promise<void> {
    const ms = Math.min(OTHERS_WAIT_MS, deadline - Date.now());
    const others = server.openDocuments().filter((other) => other !== uri);
    if (ms > 0) await Promise.all(others.slice(-OTHERS_MAX).map((other) => freshDiagnostics(server, other, before.get(other) ?? 0, ms)));
  }

  /** The report for `uri` as published, with other open files whose diagnostics changed since `before`. */
  #report(server: LanguageServer, uri: string, base: string, before: Map<string, number>): EditDiagnostics {
    const items = reportable(server.diagnostics.get(uri)?.items ?? [], this.settings.warnings);
    const others: FileDiagnostics[] = [];
    for (const [other, published] of server.diagnostics) {
      if (other === uri || published.serial === (before.get(other) ?? 0)) continue;
      const list = reportable(published.items, this.settings.warnings);
      if (list.length > 0 || (this.#reported.get(other) ?? 0) > 0) others.push({ uri: other, items: list });
    }
    const errors = items.filter((item) => (item.severity ?? 1) === 1).length;
    const warnings = items.length - errors;
    const parts: string[] = [];
    const had = this.#reported.get(uri) ?? 0;
    this.#reported.set(uri, items.length);
    if (items.length > 0) parts.push(formatDiagnostics([{ uri, items }], base, this.settings.maxItems, 'LSP diagnostics:'));
    else if (had > 0) parts.push(`LSP: no errors left in ${shownPath(uri, base)}.`);
    // A change that breaks many files (or a server that publishes for the whole tree) shows a few.
    for (const other of others.slice(0, OTHERS_MAX)) {
      this.#reported.set(other.uri, other.items.length);
      parts.push(other.items.length > 0 ? formatDiagnostics([other], base, Math.max(5, this.settings.maxItems / 4), 'LSP diagnostics in another file,') : `LSP: no errors left in ${shownPath(other.uri, base)}.`);
    }
    const rest = others.slice(OTHERS_MAX).filter((other) => other.items.length > 0);
    for (const other of others.slice(OTHERS_MAX)) this.#reported.set(other.uri, other.items.length);
    if (rest.length > 0) parts.push(`LSP: ${rest.length} more files have diagnostics (the lsp tool's diagnostics operation without a path lists them).`);
    return { text: parts.join('\n'), errors, warnings };
  }

  async #syncPending(uri: string, real: string): Promise<void> {
    const pending = this.#pending.get(uri);
    if (!pending || pending.serial !== undefined) return;
    pending.serial = pending.server.diagnostics.get(uri)?.serial ?? 0;
    await pending.server.sync(uri, languageIdOf(path.extname(real).slice(1).toLowerCase()), await readText(real)).catch(() => false);
    void freshDiagnostics(pending.server, uri, pending.serial, 0); // an asked answer is recorded when it comes
  }

  /** Diagnostics that arrived after their edit's result was returned, once. */
  takeLate(): string {
    const parts: string[] = [];
    for (const [uri, pending] of this.#pending) {
      if (pending.server.state === 'failed') {
        this.#pending.delete(uri);
        continue;
      }
      const published = pending.server.diagnostics.get(uri);
      if (pending.serial === undefined || !published || published.serial <= pending.serial) continue;
      this.#pending.delete(uri);
      const report = this.#report(pending.server, uri, pending.base, new Map([...pending.server.diagnostics].map(([key, value]) => [key, value.serial])));
      if (report.text) parts.push(report.text.replace(/^LSP diagnostics:/, 'LSP diagnostics (arrived after the edit):'));
    }
    return parts.join('\n');
  }

  /** Open documents changed on disk since (bash, another tool): their new text first, so the
   * server judges the edited file against the tree as it is. */
  async #resyncOpen(server: LanguageServer, except: string): Promise<void> {
    for (const uri of server.openDocuments()) {
      if (uri === except) continue;
      const file = new URL(uri).pathname;
      const text = await readText(decodeURIComponent(file)).catch(() => undefined);
      if (text !== undefined) await server.sync(uri, languageIdOf(path.extname(file).slice(1).toLowerCase()), text);
    }
  }

  #serials(server: LanguageServer): Map<string, number> {
    return new Map([...server.diagnostics].map(([uri, published]) => [uri, published.serial]));
  }

  #noteOnce(note: string): string {
    if (this.#notes.has(note)) return '';
    this.#notes.add(note);
    return note;
  }

  /** The tools with diagnostics added: after edit_file and write_file, and late ones after any file
   * or command tool. Every other property is the tool's own. */
  wrapTools(tools: readonly Tool[]): Tool[] {
    if (!this.settings.enabled) return [...tools];
    return tools.map((tool) => (CARRIERS.has(tool.name) ? this.#wrap(tool) : tool));
  }

  #wrap(tool: Tool): Tool {
    const execute = async (args: unknown, ctx: ToolContext): Promise<ToolResult> => {
      const result = await tool.execute(args, ctx);
      if (result.isError) return result;
      const pathArg = (args as { path?: unknown }).path;
      const edited = EDITS.has(tool.name) && typeof pathArg === 'string' ? await this.diagnosticsAfterEdit(resolvePath(ctx, pathArg), ctx.projectRoot).catch(() => undefined) : undefined;
      const late = this.takeLate();
      return withDiagnostics(result, edited, late);
    };
    return new Proxy(tool, {
      get(target, prop) {
        if (prop === 'execute') return execute;
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  status(): ServerStatus[] {
    return this.pool.status();
  }

  stop(): Promise<void> {
    this.#pending.clear();
    return this.pool.stop();
  }
}

function withDiagnostics(result: ToolResult, edited: EditDiagnostics | undefined, late: string): ToolResult {
  const text = [edited?.text ?? '', late].filter((part) => part !== '').join('\n');
  if (!text) return result;
  const display = result.display?.kind === 'diff' && edited && (edited.errors > 0 || edited.warnings > 0) ? { ...result.display, diagnostics: { errors: edited.errors, warnings: edited.warnings } } : result.display;
  return { ...result, content: `${result.content}\n\n${text}`, ...(display ? { display } : {}) };
}

function readText(file: string): Promise<string> {
  return readFile(file, 'utf8');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
}
