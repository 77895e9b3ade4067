/**
 * The `lsp` tool (on demand, behind tool_search): what the language server knows about the code,
 * so the model navigates without grepping: diagnostics of a file or the project, definition,
 * references, hover, document symbols. Positions are 1-based; `symbol` finds the column on the line.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { lazySchema } from '../util/zod.js';
import { displayPath, realpathOfNearestExisting, resolvePath } from '../tools/paths.js';
import { languageIdOf } from './config.js';
import { formatDiagnostics, reportable } from './format.js';
import { formatHover, formatLocations, formatSymbols } from './results.js';
import { projectFiles } from './project-files.js';
import { freshDiagnostics } from './pull.js';
import type { LanguageServer } from './server.js';
import type { LspService } from './service.js';
import { LSP_TOOL } from '../tools/tool-name-constants.js';
import { abortOrDelay } from '../util/abort.js';

const OPERATIONS = ['diagnostics', 'definition', 'references', 'hover', 'symbols'] as const;
/** A cold server may take this long to answer its first question. */
const START_WAIT_MS = 45_000;
const REQUEST_MS = 30_000;
const PROJECT_FILES_MAX = 200;

export const lspToolSchema = lazySchema((z) =>
  z
    .object({
      operation: z.enum(OPERATIONS),
      path: z.string().optional().describe('File; diagnostics without it: the whole project'),
      line: z.number().int().min(1).optional().describe('1-based, for definition/references/hover'),
      column: z.number().int().min(1).optional().describe('1-based; or give symbol'),
      symbol: z.string().optional().describe('Name on that line; its first occurrence sets the column'),
    })
    .strict(),
);

export type LspToolArgs = z.infer<ReturnType<typeof lspToolSchema>>;

export function createLspTool(service: LspService): Tool<LspToolArgs> {
  return {
    name: LSP_TOOL,
    summary: 'code: errors, definitions, references',
    description:
      'Ask the language server (TypeScript/JavaScript, Python, Go, Rust, C/C++): diagnostics of a file or the project, ' +
      'definition, references or hover at path+line+(column|symbol), symbols of a file.',
    get schema() {
      return lspToolSchema();
    },
    readOnly: true,
    describe: (args, ctx) => {
      const paths = args.path ? [resolvePath(ctx, args.path)] : [ctx.projectRoot];
      return { kind: 'read', paths, summary: `lsp ${args.operation}${args.path ? ` ${displayPath(ctx, paths[0]!)}` : ''}` };
    },
    execute: (args, ctx) => runLsp(service, args, ctx).catch((error: unknown) => ({ content: `lsp: ${error instanceof Error ? error.message : String(error)}`, isError: true })),
  };
}

async function runLsp(service: LspService, args: LspToolArgs, ctx: ToolContext): Promise<ToolResult> {
  if (!service.settings.enabled) return { content: 'Language servers are turned off ("lsp": false in config.json).', isError: true };
  if (args.operation === 'diagnostics' && !args.path) return projectDiagnostics(service, ctx);
  if (!args.path) return { content: `${args.operation} needs path.`, isError: true };
  const file = realpathOfNearestExisting(resolvePath(ctx, args.path));
  const opened = await openFile(service, file, ctx);
  if (typeof opened === 'string') return { content: opened, isError: true };
  const { server, uri, text } = opened;
  const base = realpathOfNearestExisting(ctx.projectRoot);
  if (args.operation === 'diagnostics') {
    const published = await freshDiagnostics(server, uri, 0, REQUEST_MS);
    const items = reportable(published?.items ?? [], true);
    if (!published) return { content: `No diagnostics from ${server.name} for ${displayPath(ctx, file)} within ${REQUEST_MS / 1000} s.` };
    return { content: items.length > 0 ? formatDiagnostics([{ uri, items }], base, 50, 'Diagnostics of') : `No errors or warnings in ${displayPath(ctx, file)}.` };
  }
  if (args.operation === 'symbols') {
    const symbols = await server.request<unknown[] | null>('textDocument/documentSymbol', { textDocument: { uri } }, REQUEST_MS);
    return { content: formatSymbols(symbols ?? [], displayPath(ctx, file)) };
  }
  const position = positionOf(text, args);
  if (typeof position === 'string') return { content: position, isError: true };
  const params = { textDocument: { uri }, position };
  if (args.operation === 'hover') {
    const hover = await server.request<{ contents: unknown } | null>('textDocument/hover', params, REQUEST_MS);
    return { content: formatHover(hover) || `Nothing known at ${displayPath(ctx, file)}:${args.line}:${position.character + 1}.` };
  }
  const method = args.operation === 'definition' ? 'textDocument/definition' : 'textDocument/references';
  const found = await server.request<unknown>(method, args.operation === 'references' ? { ...params, context: { includeDeclaration: true } } : params, REQUEST_MS);
  return { content: await formatLocations(withoutDeniedLocations(found, ctx), base, args.operation === 'definition' ? 'Definition' : 'References') };
}

/** Locations in files a Read deny rule names are left out: their line would be quoted (policy/read-guard.ts). */
function withoutDeniedLocations(found: unknown, ctx: ToolContext): unknown {
  const denied = ctx.readDenied;
  if (!denied) return found;
  const list: unknown[] = Array.isArray(found) ? found : found ? [found] : [];
  return list.filter((item) => {
    const { targetUri, uri } = (item ?? {}) as { targetUri?: unknown; uri?: unknown };
    const where = targetUri ?? uri;
    return typeof where !== 'string' || !where.startsWith('file:') || denied(fileURLToPath(where)) === undefined;
  });
}

type Opened = { server: LanguageServer; uri: string; text: string };

/** The file's server, ready, with the file open as it is on disk. */
async function openFile(service: LspService, file: string, ctx: ToolContext): Promise<Opened | string> {
  const spec = service.pool.specFor(file);
  if (!spec) return `No language server is configured for ${path.extname(file) || 'files without an extension'} (config.json "lsp").`;
  const server = await service.pool.serverFor(spec, realpathOfNearestExisting(ctx.projectRoot));
  if (typeof server === 'string') return server;
  // The wait's listener on the run's signal goes once the server is ready: one per call would pile up.
  const wait = abortOrDelay(ctx.signal, START_WAIT_MS);
  const ready = await Promise.race([server.ready, wait.done.then(() => undefined)]);
  wait.cancel();
  if (ready !== true) return ready === false ? `The ${spec.name} language server ${server.problem ?? 'failed'}.` : `The ${spec.name} language server did not get ready within ${START_WAIT_MS / 1000} s.`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return `Cannot read ${displayPath(ctx, file)}.`;
  }
  const uri = pathToFileURL(file).href;
  await server.sync(uri, languageIdOf(path.extname(file).slice(1).toLowerCase()), text);
  return { server, uri, text };
}

function positionOf(text: string, args: LspToolArgs): { line: number; character: number } | string {
  if (args.line === undefined) return `${args.operation} needs line (1-based) and column or symbol.`;
  const lines = text.split('\n');
  const lineText = lines[args.line - 1];
  if (lineText === undefined) return `line ${args.line} is past the end of the file (${lines.length} lines).`;
  if (args.symbol !== undefined) {
    const at = lineText.search(new RegExp(`(?<![\\w$])${args.symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`));
    const index = at >= 0 ? at : lineText.indexOf(args.symbol);
    if (index < 0) return `"${args.symbol}" is not on line ${args.line}: ${lineText.trim().slice(0, 200)}`;
    return { line: args.line - 1, character: index };
  }
  if (args.column === undefined) return `${args.operation} needs column or symbol.`;
  return { line: args.line - 1, character: args.column - 1 };
}

/** Opens the project's source files (at most PROJECT_FILES_MAX) and collects what the servers publish. */
async function projectDiagnostics(service: LspService, ctx: ToolContext): Promise<ToolResult> {
  const base = realpathOfNearestExisting(ctx.projectRoot);
  const files = await projectFiles(base, (file) => service.pool.specFor(file) !== undefined, PROJECT_FILES_MAX);
  const found: { uri: string; items: ReturnType<typeof reportable> }[] = [];
  const problems: string[] = [];
  const deadline = Date.now() + REQUEST_MS;
  // Files a Read deny rule names are never opened: a diagnostic can quote their text.
  for (const file of files.list.filter((f) => ctx.readDenied?.(f) === undefined)) {
    const opened = await openFile(service, file, ctx);
    if (typeof opened === 'string') {
      if (!problems.includes(opened)) problems.push(opened);
      continue;
    }
    const published = await freshDiagnostics(opened.server, opened.uri, 0, Math.max(0, deadline - Date.now()));
    const items = reportable(published?.items ?? [], true);
    if (items.length > 0) found.push({ uri: opened.uri, items });
  }
  const head = `Checked ${files.list.length} file(s)${files.truncated ? ` (the first ${PROJECT_FILES_MAX})` : ''}.`;
  const body = found.length > 0 ? formatDiagnostics(found, base, 100, 'Diagnostics of') : 'No errors or warnings.';
  return { content: [head, body, ...problems].join('\n') };
}
