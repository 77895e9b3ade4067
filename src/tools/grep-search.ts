import { spawn } from 'node:child_process';
import path from 'node:path';
import picomatch from 'picomatch';
import { childPath, IgnoreRules } from './gitignore.js';
import { PatternTimeoutError, RegexWorker, type GrepLine } from './grep-worker.js';
import { walkTree } from './walk.js';

/**
 * The two search engines behind the grep tool. Both report per-file results in path order, with
 * matches and merged context lines, and the tool formats them the same way.
 */

/** Files larger than this are skipped (matches `--max-filesize 2M` for ripgrep). */
export const GREP_MAX_FILE_BYTES = 2 * 1024 * 1024;

export type { GrepLine } from './grep-worker.js';

export interface GrepFileResult {
  /** Absolute path of the file. */
  absPath: string;
  /** Matching lines and their context, ascending by line number, no duplicates. */
  lines: GrepLine[];
}

export interface GrepQuery {
  pattern: string;
  /** Absolute file or directory to search. */
  target: string;
  targetIsFile: boolean;
  contextLines: number;
  /** Glob on file names (`*.ts`) or, when it holds a `/`, on paths relative to the target. */
  fileGlob?: string;
  signal: AbortSignal;
}

/** Called once per file with at least one match, in path order. */
export type GrepSink = (file: GrepFileResult) => void;

export type CompiledPattern = { ok: true; regex: RegExp } | { ok: false; message: string };

/**
 * Compiles a ripgrep-style pattern as a JS RegExp. A leading `(?i)` becomes the `i` flag (JS lacks
 * inline flags); `\p{…}`/`\u{…}` switch on unicode mode, which is otherwise off so that common
 * escapes like `\-` or `[\w-]` stay valid as they are in ripgrep.
 */
export function compilePattern(pattern: string): CompiledPattern {
  let source = pattern;
  let flags = '';
  if (source.startsWith('(?i)')) {
    source = source.slice(4);
    flags += 'i';
  }
  if (/\\[pP]\{|\\u\{/.test(source)) flags += 'u';
  try {
    return { ok: true, regex: new RegExp(source, flags) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `Invalid regex ${JSON.stringify(pattern)}: ${reason}. Escape special characters such as ( [ { . * + ? with \\ to match them literally.` };
  }
}

export { searchText } from './grep-worker.js';

/** Predicate for the `glob` filter, on paths relative to the search target. */
export function fileGlobMatcher(fileGlob: string): (relPath: string) => boolean {
  // picomatch's basename mode mis-handles patterns with slashes, so only use it for bare names.
  return fileGlob.includes('/') ? picomatch(fileGlob, { dot: true }) : picomatch(fileGlob, { dot: true, basename: true });
}

/** How long the built-in search may spend matching one pattern, in all (SEEK_GREP_TIMEOUT_MS). */
export const DEFAULT_GREP_TIMEOUT_MS = 10_000;

export type SearchOutcome = { ok: true } | { ok: false; message: string };

/** Paths per message to the worker: enough to make a message's cost small beside the reading
 * and matching it carries, few enough that an abort or a timeout is seen soon. */
const BATCH_FILES = 256;
/** Batches sent ahead of the one being matched, so the worker never waits for the walk. */
const BATCHES_IN_FLIGHT = 2;

/**
 * Built-in search: walks the target like glob does (.gitignore respected, `.git` skipped) on the
 * main thread while a worker (grep-worker.ts) reads each file (binary files and files over 2 MiB
 * skipped) and matches it, a batch of paths at a time, two batches in flight, results in path
 * order. The worker may match for `budgetMs` in all: past that the search stops with a message
 * for the model. An abort stops it too and resolves `{ ok: true }` with whatever was found so far
 * (the caller reports the interruption).
 */
export async function searchBuiltin(query: GrepQuery, regex: RegExp, sink: GrepSink, budgetMs = DEFAULT_GREP_TIMEOUT_MS): Promise<SearchOutcome> {
  const worker = new RegexWorker({ regex, contextLines: query.contextLines, maxFileBytes: GREP_MAX_FILE_BYTES, budgetMs, signal: query.signal });
  const inFlight: Promise<void>[] = [];
  const send = async (files: string[]): Promise<void> => {
    if (files.length === 0) return;
    const previous = inFlight[inFlight.length - 1];
    const hits = worker.match(files);
    // Results go to the sink in order: after the batch sent before this one.
    const delivered = (async () => {
      const found = await hits;
      await previous;
      for (const hit of found) sink({ absPath: files[hit.index]!, lines: hit.lines });
    })();
    delivered.catch(() => undefined); // awaited below; this keeps it from counting as unhandled
    inFlight.push(delivered);
    if (inFlight.length > BATCHES_IN_FLIGHT) await inFlight.shift();
  };
  try {
    if (query.targetIsFile) await send([query.target]);
    else await walkBatches(query, send);
    while (inFlight.length > 0) await inFlight.shift();
    return { ok: true };
  } catch (error) {
    if (error instanceof PatternTimeoutError) return { ok: false, message: error.message };
    if (query.signal.aborted) return { ok: true };
    throw error;
  } finally {
    await Promise.allSettled(inFlight);
    await worker.close();
  }
}

/** Walks a directory target and hands its files, filtered by the query's glob, to `send` in
 * batches. */
async function walkBatches(query: GrepQuery, send: (files: string[]) => Promise<void>): Promise<void> {
  const accepts = query.fileGlob ? fileGlobMatcher(query.fileGlob) : () => true;
  const rules = await IgnoreRules.forRoot(query.target);
  let batch: string[] = [];
  const onFile = (relPath: string, dir: string, entry: { name: string }): Promise<void> | undefined => {
    if (!accepts(relPath)) return undefined;
    batch.push(childPath(dir, entry.name));
    if (batch.length < BATCH_FILES) return undefined;
    const full = batch;
    batch = [];
    return send(full);
  };
  await walkTree(query.target, rules, onFile, { signal: query.signal, sorted: true });
  await send(batch);
}

let ripgrepProbe: Promise<boolean> | undefined;

/** Whether `rg` runs from PATH; probed once per process. */
export function ripgrepAvailable(): Promise<boolean> {
  ripgrepProbe ??= new Promise((resolve) => {
    const child = spawn('rg', ['--version'], { stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
  return ripgrepProbe;
}

export type RipgrepOutcome = SearchOutcome;

/**
 * Search with ripgrep's JSON output, so paths, line numbers and context arrive structured and the
 * formatting is shared with the built-in engine. Flags mirror the built-in rules: hidden files
 * searched, `.git` skipped, .gitignore honoured even outside a git repository, 2 MiB size cap.
 */
export function searchRipgrep(query: GrepQuery, sink: GrepSink, rgPath = 'rg', cwd = process.cwd()): Promise<RipgrepOutcome> {
  const args = ['--json', '--no-config', '--hidden', '--no-require-git', '--glob', '!.git', '--sort', 'path', '--max-filesize', '2M'];
  if (query.contextLines > 0) args.push('--context', String(query.contextLines));
  if (query.fileGlob) args.push('--glob', query.fileGlob);
  args.push('--regexp', query.pattern, '--', query.target);

  return new Promise((resolve) => {
    const child = spawn(rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdoutRest = '';
    let stderr = '';
    let current: GrepFileResult | null = null;
    let sawResults = false;
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    query.signal.addEventListener('abort', onAbort, { once: true });

    const handleMessage = (line: string): void => {
      if (line.trim() === '') return;
      let message: RipgrepMessage;
      try {
        message = JSON.parse(line) as RipgrepMessage;
      } catch {
        return;
      }
      if (message.type === 'begin') {
        current = { absPath: resolveRgPath(cwd, message.data.path), lines: [] };
      } else if ((message.type === 'match' || message.type === 'context') && current) {
        const text = rgText(message.data.lines).replace(/\r?\n$/, '');
        current.lines.push({ lineNumber: message.data.line_number, text, isMatch: message.type === 'match' });
      } else if (message.type === 'end' && current) {
        if (current.lines.some((entry) => entry.isMatch)) {
          sawResults = true;
          sink(current);
        }
        current = null;
      }
    };

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const parts = (stdoutRest + chunk).split('\n');
      stdoutRest = parts.pop() ?? '';
      parts.forEach(handleMessage);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    child.once('error', (error) => {
      query.signal.removeEventListener('abort', onAbort);
      resolve({ ok: false, message: `ripgrep failed to start: ${error.message}` });
    });
    child.once('close', (code) => {
      query.signal.removeEventListener('abort', onAbort);
      handleMessage(stdoutRest);
      // 0 = matches, 1 = none, 2 = an error; an error next to results (an unreadable file) is
      // not worth failing the search for.
      if (query.signal.aborted || code === 0 || code === 1 || sawResults) resolve({ ok: true });
      else if (/regex parse error/i.test(stderr)) resolve({ ok: false, message: `Invalid regex: ${stderr.trim()}` });
      else resolve({ ok: false, message: `ripgrep failed: ${stderr.trim() || `exit code ${code}`}` });
    });
  });
}

interface RipgrepText {
  text?: string;
  bytes?: string;
}

type RipgrepMessage =
  | { type: 'begin'; data: { path: RipgrepText } }
  | { type: 'match' | 'context'; data: { path: RipgrepText; lines: RipgrepText; line_number: number } }
  | { type: 'end'; data: { path: RipgrepText } }
  | { type: 'summary'; data: unknown };

/** ripgrep sends non-UTF-8 text as base64 `bytes`. */
function rgText(value: RipgrepText): string {
  if (value.text !== undefined) return value.text;
  return value.bytes ? Buffer.from(value.bytes, 'base64').toString('utf8') : '';
}

function resolveRgPath(cwd: string, value: RipgrepText): string {
  return path.resolve(cwd, rgText(value));
}
