import { createReadStream, readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { displayPath, resolvePath, suggestSimilarPaths } from './paths.js';
import { errorCode, errorMessage, formatBytes, looksBinary, readHead } from './text-files.js';
import { LineBudget, truncateLine } from './truncate.js';
import { integerAtLeast } from './schema.js';

/** Files up to this size are read whole, synchronously; larger ones are streamed. */
const SMALL_FILE_BYTES = 256 * 1024;

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_CHARS = 2000;
/** Cap on the numbered text returned by one call (about 32 KiB). */
export const READ_MAX_OUTPUT_CHARS = 32 * 1024;

const schema = z
  .object({
    path: z.string().describe('File path'),
    offset: integerAtLeast(1).optional().describe('First line (1-based)'),
    limit: integerAtLeast(1).optional().describe(`Max lines (default ${READ_DEFAULT_LIMIT})`),
  })
  .strict();

export type ReadFileArgs = z.infer<typeof schema>;

/** read_file: numbered lines of a text file, paged by offset/limit and capped at ~32 KiB. */
export function createReadFileTool(): Tool<ReadFileArgs> {
  return {
    name: 'read_file',
    description: 'Read a text file as numbered lines. Long files come in pages: use offset/limit as the result says.',
    schema,
    readOnly: true,
    describe(args, ctx) {
      const absPath = resolvePath(ctx, args.path);
      return { kind: 'read', paths: [absPath], summary: `read ${displayPath(ctx, absPath)}` };
    },
    execute: (args, ctx) => readFileTool(args, ctx),
  };
}

async function readFileTool(args: ReadFileArgs, ctx: ToolContext): Promise<ToolResult> {
  const absPath = resolvePath(ctx, args.path);
  const shown = displayPath(ctx, absPath);
  let size: number;
  try {
    const info = statSync(absPath);
    if (info.isDirectory()) {
      return { content: `${shown} is a directory, not a file. Use list_dir to see its entries.`, isError: true };
    }
    if (!info.isFile()) return { content: `${shown} is not a regular file.`, isError: true };
    size = info.size;
  } catch (error) {
    return { content: await missingFileMessage(ctx, absPath, shown, error), isError: true };
  }

  const emptyDisplay = { kind: 'file', path: shown, lines: 0, truncated: false } as const;
  if (size === 0) return { content: `${shown} is empty (0 bytes).`, display: emptyDisplay };
  // Small files (nearly every read) are read in one synchronous call: a few microseconds, where
  // the streaming path costs several thread-pool round trips. Large files stream.
  const whole = size <= SMALL_FILE_BYTES ? readFileSync(absPath) : undefined;
  if (looksBinary(whole ?? (await readHead(absPath)))) {
    return {
      content: `${shown} is a binary file (${formatBytes(size)}); read_file only shows text.`,
      isError: true,
    };
  }

  const offset = args.offset ?? 1;
  const limit = args.limit ?? READ_DEFAULT_LIMIT;
  const source = whole ? [whole] : createReadStream(absPath, { highWaterMark: 256 * 1024 });
  const window = await readLineWindow(source, offset, limit, ctx.signal);
  if (window.aborted) return { content: 'Interrupted: the read was cancelled.', isError: true };
  if (window.lines.length === 0) {
    return {
      content: `offset ${offset} is past the end of ${shown}, which has ${window.totalLines} lines.`,
      isError: true,
    };
  }
  const lastShown = offset + window.lines.length - 1;
  const partial = offset > 1 || lastShown < window.totalLines;
  let content = window.lines.join('\n');
  if (lastShown < window.totalLines) {
    content += `\n… showing lines ${offset}-${lastShown} of ${window.totalLines}; call read_file with offset=${lastShown + 1} to continue`;
  } else if (offset > 1) {
    content += `\n… showing lines ${offset}-${lastShown} of ${window.totalLines} (end of file)`;
  }
  return { content, display: { kind: 'file', path: shown, lines: window.lines.length, truncated: partial } };
}

async function missingFileMessage(ctx: ToolContext, absPath: string, shown: string, error: unknown): Promise<string> {
  if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') {
    return `Cannot read ${shown}: ${errorMessage(error)}`;
  }
  const suggestions = await suggestSimilarPaths(ctx, absPath);
  if (suggestions.length > 0) return `File not found: ${shown}. Did you mean ${suggestions.join(', ')}?`;
  try {
    await stat(path.dirname(absPath));
    return `File not found: ${shown}.`;
  } catch {
    return `File not found: ${shown} (its directory ${displayPath(ctx, path.dirname(absPath))} does not exist either).`;
  }
}

interface LineWindow {
  /** Formatted `     N\ttext` lines from `offset`. */
  lines: string[];
  totalLines: number;
  aborted: boolean;
}

/**
 * Streams the file once: formats lines from `offset` until `limit` lines or the output cap, then
 * only counts the remaining newlines (on raw bytes) so the continuation hint can give the total.
 */
async function readLineWindow(
  source: Iterable<Buffer> | AsyncIterable<Buffer | string>,
  offset: number,
  limit: number,
  signal: AbortSignal,
): Promise<LineWindow> {
  const budget = new LineBudget(limit, READ_MAX_OUTPUT_CHARS);
  const decoder = new StringDecoder('utf8');
  let collecting = true;
  let lineNumber = 0; // lines completed so far
  let pending = ''; // text of the current, unfinished line while collecting
  let lastByte = -1;

  const takeLine = (text: string): void => {
    lineNumber += 1;
    if (!collecting || lineNumber < offset) return;
    let clean = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (lineNumber === 1 && clean.startsWith('\uFEFF')) clean = clean.slice(1); // a BOM is not content
    const formatted = `${String(lineNumber).padStart(6)}\t${truncateLine(clean, READ_MAX_LINE_CHARS)}`;
    if (!budget.add(formatted)) collecting = false;
  };

  for await (const chunk of source) {
    if (signal.aborted) return { lines: [], totalLines: 0, aborted: true };
    const bytes = chunk as Buffer;
    if (bytes.length === 0) continue;
    lastByte = bytes[bytes.length - 1]!;
    if (!collecting) {
      lineNumber += countNewlines(bytes);
      continue;
    }
    const parts = (pending + decoder.write(bytes)).split('\n');
    pending = parts.pop() ?? '';
    for (const [index, part] of parts.entries()) {
      if (!collecting) {
        lineNumber += parts.length - index; // the rest of this chunk, counted only
        pending = '';
        break;
      }
      takeLine(part);
    }
  }
  if (collecting) {
    const rest = pending + decoder.end();
    if (rest !== '') takeLine(rest);
  } else if (lastByte !== -1 && lastByte !== 0x0a) {
    lineNumber += 1; // a final line without a newline
  }
  return { lines: budget.lines, totalLines: lineNumber, aborted: false };
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  let index = bytes.indexOf(0x0a);
  while (index !== -1) {
    count += 1;
    index = bytes.indexOf(0x0a, index + 1);
  }
  return count;
}
