import { stat } from 'node:fs/promises';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import {
  compilePattern,
  DEFAULT_GREP_TIMEOUT_MS,
  ripgrepAvailable,
  searchBuiltin,
  searchRipgrep,
  type GrepFileResult,
  type GrepQuery,
} from './grep-search.js';
import { displayPath, resolvePath } from './paths.js';
import { errorMessage } from './text-files.js';
import { LineBudget, truncateLine } from './truncate.js';
import { integerAtLeast } from './schema.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export const GREP_MAX_OUTPUT_LINES = 300;
export const GREP_MAX_OUTPUT_CHARS = 30 * 1024;
const GREP_MAX_LINE_CHARS = 500;
const GREP_MAX_CONTEXT = 10;

export const grepSchema = lazySchema((z) =>
  z
    .object({
      pattern: z.string().describe('Regex'),
      path: z.string().optional().describe('File or dir (default cwd)'),
      glob: z.string().optional().describe('File filter, e.g. *.ts'),
      context_lines: integerAtLeast(0).optional().describe('Lines around each match'),
    })
    .strict(),
);

export type GrepArgs = z.infer<ReturnType<typeof grepSchema>>;

export interface GrepToolDeps {
  /** 'auto' (default) uses ripgrep when it is on PATH, else the built-in search; 'builtin' never
   * uses ripgrep; `{ ripgrepPath }` always uses that executable. */
  engine?: 'auto' | 'builtin' | { ripgrepPath: string };
  /** How long the built-in search may spend matching, in all, before it stops with an error for
   * the model; default env `SEEK_GREP_TIMEOUT_MS`, else 10 s. ripgrep needs none: its regex
   * engine runs in linear time. */
  timeoutMs?: number;
}

/** `SEEK_GREP_TIMEOUT_MS` when it is a positive number, else the default. */
function timeoutFromEnv(): number {
  const value = Number(process.env['SEEK_GREP_TIMEOUT_MS']);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_GREP_TIMEOUT_MS;
}

/** grep: regex search over files, `path:line:text` output grouped by file in path order. */
export function createGrepTool(deps: GrepToolDeps = {}): Tool<GrepArgs> {
  const engine = deps.engine ?? 'auto';
  const timeoutMs = deps.timeoutMs ?? timeoutFromEnv();
  return {
    name: 'grep',
    description: 'Search file contents by regex (gitignored and binary files skipped); prints path:line:text.',
    parameters: TOOL_PARAMETERS.grep,
    get schema() {
      return grepSchema();
    },
    readOnly: true,
    describe(args, ctx) {
      const target = resolvePath(ctx, args.path ?? '.');
      return { kind: 'read', paths: [target], summary: `grep ${args.pattern} in ${displayPath(ctx, target)}` };
    },
    execute: (args, ctx) => grepTool(args, ctx, engine, timeoutMs),
  };
}

async function grepTool(args: GrepArgs, ctx: ToolContext, engine: NonNullable<GrepToolDeps['engine']>, timeoutMs: number): Promise<ToolResult> {
  const target = resolvePath(ctx, args.path ?? '.');
  const shownTarget = displayPath(ctx, target);
  let targetIsFile: boolean;
  try {
    targetIsFile = !(await stat(target)).isDirectory();
  } catch {
    return { content: `Path not found: ${shownTarget}.`, isError: true };
  }
  if (args.pattern === '') return { content: 'pattern is empty.', isError: true };

  const contextLines = Math.min(args.context_lines ?? 0, GREP_MAX_CONTEXT);
  const query: GrepQuery = { pattern: args.pattern, target, targetIsFile, contextLines, signal: ctx.signal };
  if (args.glob) query.fileGlob = args.glob;
  const report = new GrepReport(ctx, contextLines);
  // A file a deny rule forbids reading is never shown (its lines, its name), whichever engine found
  // it, and not counted either: a count of hidden matches would answer questions about its content.
  const sink = (file: GrepFileResult): void => {
    if (ctx.readDenied?.(file.absPath) === undefined) report.addFile(file);
  };

  try {
    const ripgrepPath = typeof engine === 'object' ? engine.ripgrepPath : engine === 'auto' && (await ripgrepAvailable()) ? 'rg' : null;
    if (ripgrepPath) {
      const outcome = await searchRipgrep(query, sink, ripgrepPath, ctx.cwd);
      if (!outcome.ok) return { content: outcome.message, isError: true };
    } else {
      const compiled = compilePattern(args.pattern);
      if (!compiled.ok) return { content: compiled.message, isError: true };
      const outcome = await searchBuiltin(query, compiled.regex, sink, timeoutMs);
      if (!outcome.ok) return { content: outcome.message, isError: true };
    }
  } catch (error) {
    return { content: `grep failed: ${errorMessage(error)}`, isError: true };
  }
  if (ctx.signal.aborted) return { content: 'Interrupted: the search was cancelled.', isError: true };

  const where = shownTarget === '.' ? '' : ` in ${shownTarget}`;
  const filter = args.glob ? ` (files matching ${args.glob})` : '';
  if (report.totalMatches === 0) {
    return { content: `No matches for ${args.pattern}${where}${filter}.`, display: { kind: 'text', text: 'No matches' } };
  }
  const content = report.render();
  return { content, display: { kind: 'text', text: content } };
}

/**
 * Formats results like `rg --no-heading -n`: `path:line:text` for matches, `path-line-text` for
 * context, `--` between groups that are not adjacent (only when context is asked for). Stops
 * adding lines at 300 lines / 30 KiB and then only counts what it leaves out.
 */
export class GrepReport {
  private readonly budget = new LineBudget(GREP_MAX_OUTPUT_LINES, GREP_MAX_OUTPUT_CHARS);
  private matches = 0;
  private files = 0;
  private omittedMatches = 0;
  private readonly filesWithOmitted = new Set<string>();
  private wroteAnyGroup = false;

  constructor(
    private readonly ctx: Pick<ToolContext, 'cwd'>,
    private readonly contextLines: number,
  ) {}

  get totalMatches(): number {
    return this.matches;
  }

  addFile(file: GrepFileResult): void {
    this.files += 1;
    const shown = displayPath(this.ctx, file.absPath);
    let previousLine = -1;
    for (const line of file.lines) {
      if (line.isMatch) this.matches += 1;
      const startsGroup = previousLine === -1 || line.lineNumber !== previousLine + 1;
      previousLine = line.lineNumber;
      if (this.budget.full) {
        if (line.isMatch) this.countOmitted(shown);
        continue;
      }
      if (startsGroup && this.contextLines > 0 && this.wroteAnyGroup && !this.budget.add('--')) {
        if (line.isMatch) this.countOmitted(shown);
        continue;
      }
      const separator = line.isMatch ? ':' : '-';
      const text = truncateLine(line.text, GREP_MAX_LINE_CHARS);
      if (this.budget.add(`${shown}${separator}${line.lineNumber}${separator}${text}`)) this.wroteAnyGroup = true;
      else if (line.isMatch) this.countOmitted(shown);
    }
  }

  render(): string {
    let text = this.budget.lines.join('\n');
    if (this.budget.lines[this.budget.lines.length - 1] === '--') text = this.budget.lines.slice(0, -1).join('\n');
    if (this.omittedMatches > 0) {
      const files = this.filesWithOmitted.size === 1 ? '1 file' : `${this.filesWithOmitted.size} files`;
      text +=
        `\n[… ${this.omittedMatches} more matches in ${files} not shown (${this.matches} matches in ${this.files} files in all); ` +
        'narrow the pattern, path or glob]';
    }
    return text;
  }

  private countOmitted(shown: string): void {
    this.omittedMatches += 1;
    this.filesWithOmitted.add(shown);
  }
}
