import { createReadStream, readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { isAscii } from 'node:buffer';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { displayPath, resolvePath, suggestSimilarPaths } from './paths.js';
import { errorCode, errorMessage, formatBytes, looksBinary, readHead } from './text-files.js';
import { LineBudget } from './truncate.js';
import { integerAtLeast } from './schema.js';
import { OVERLAY_MAX_BYTES, type TextFileOverlay } from './file-overlay.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';
import { isImageHead, readImageFile } from './image-file.js';

/** Files up to this size are read whole, synchronously; larger ones are streamed. */
const SMALL_FILE_BYTES = 256 * 1024;

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_CHARS = 2000;
/** Cap on the numbered text returned by one call (about 32 KiB). */
export const READ_MAX_OUTPUT_CHARS = 32 * 1024;

export const readFileSchema = lazySchema((z) =>
  z
    .object({
      path: z.string(),
      offset: integerAtLeast(1).optional().describe('First line (1-based)'),
      limit: integerAtLeast(1).optional().describe(`Max lines (default ${READ_DEFAULT_LIMIT})`),
    })
    .strict(),
);

export type ReadFileArgs = z.infer<ReturnType<typeof readFileSchema>>;

/** read_file: numbered lines of a text file, paged by offset/limit and capped at ~32 KiB. With
 * `files`, the text comes from there (an editor's buffer) for files up to OVERLAY_MAX_BYTES. */
export function createReadFileTool(options: { files?: TextFileOverlay } = {}): Tool<ReadFileArgs> {
  return {
    name: 'read_file',
    description: 'Read a text file as numbered lines. Long files come in pages: use offset/limit as the result says.',
    parameters: TOOL_PARAMETERS.read_file,
    get schema() {
      return readFileSchema();
    },
    readOnly: true,
    describe(args, ctx) {
      const absPath = resolvePath(ctx, args.path);
      return { kind: 'read', paths: [absPath], summary: `read ${displayPath(ctx, absPath)}` };
    },
    execute: (args, ctx) => readFileTool(args, ctx, options.files),
  };
}

async function readFileTool(args: ReadFileArgs, ctx: ToolContext, files: TextFileOverlay | undefined): Promise<ToolResult> {
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

  // An editor's buffer (unsaved changes included) wins over the disk.
  const overlaid = files && size <= OVERLAY_MAX_BYTES ? await files.readText(absPath) : undefined;
  if (overlaid !== undefined) size = Buffer.byteLength(overlaid);
  const emptyDisplay = { kind: 'file', path: shown, lines: 0, truncated: false } as const;
  if (size === 0) return { content: `${shown} is empty (0 bytes).`, display: emptyDisplay };
  // Small files (nearly every read) are read in one synchronous call: a few microseconds, where
  // the streaming path costs several thread-pool round trips. Large files stream.
  const whole = overlaid !== undefined ? Buffer.from(overlaid) : size <= SMALL_FILE_BYTES ? readFileSync(absPath) : undefined;
  const head = whole ?? (await readHead(absPath));
  if (overlaid === undefined && isImageHead(head)) return readImageFile(absPath, shown);
  if (looksBinary(head)) {
    return {
      content: `${shown} is a binary file (${formatBytes(size)}); read_file only shows text.`,
      isError: true,
    };
  }

  const offset = args.offset ?? 1;
  const limit = args.limit ?? READ_DEFAULT_LIMIT;
  const source = whole ?? createReadStream(absPath, { highWaterMark: 256 * 1024 });
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
  const endings = mixedEndingsNote(window);
  if (endings) content += `\n${endings}`;
  if (lastShown < window.totalLines) {
    content += `\n… showing lines ${offset}-${lastShown} of ${window.totalLines}; call read_file with offset=${lastShown + 1} to continue`;
  } else if (offset > 1) {
    content += `\n… showing lines ${offset}-${lastShown} of ${window.totalLines} (end of file)`;
  }
  return { content, display: { kind: 'file', path: shown, lines: window.lines.length, truncated: partial } };
}

/**
 * read_file drops the CR of CRLF lines. In a file that mixes CRLF and LF that would hide a real
 * difference, so the mix is stated (edit_file matches either form and keeps each line's ending).
 */
function mixedEndingsNote(window: LineWindow): string | undefined {
  if (window.crlfLines.length === 0 || window.lfLineCount === 0) return undefined;
  const listed = lineRanges(window.crlfLines);
  return `… line endings are mixed: CRLF on ${listed}, LF on the other lines shown (edit_file matches LF text and keeps each line's own ending)`;
}

/** `3-5, 9, 12-14`, at most eight ranges. */
function lineRanges(lines: number[]): string {
  const ranges: string[] = [];
  let start = lines[0]!;
  let previous = start;
  const close = (): void => {
    ranges.push(start === previous ? `line ${start}` : `lines ${start}-${previous}`);
  };
  for (const line of lines.slice(1)) {
    if (line === previous + 1) {
      previous = line;
      continue;
    }
    close();
    start = previous = line;
  }
  close();
  return ranges.length > 8 ? `${ranges.slice(0, 8).join(', ')} and ${ranges.length - 8} more ranges` : ranges.join(', ');
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
  /** Shown lines that end in CRLF and in LF alone (CR is not shown, so a mix is reported). */
  crlfLines: number[];
  lfLineCount: number;
  totalLines: number;
  aborted: boolean;
}

/**
 * Reads the file once, in linear time and with memory bounded by the output cap: newlines are
 * found in the raw bytes, lines before `offset` are only counted, a line being shown keeps at most
 * READ_MAX_LINE_CHARS (+2, for a BOM and a CR) of its text and only counts the rest, and once
 * `limit` lines or the output cap are reached the rest of the file is only scanned for newlines so
 * the continuation hint can give the total. A file read whole is scanned synchronously (no
 * iteration, no await: most reads are small files); a large one streams through the same scanner.
 */
async function readLineWindow(
  source: Buffer | AsyncIterable<Buffer | string>,
  offset: number,
  limit: number,
  signal: AbortSignal,
): Promise<LineWindow> {
  const cancelled: LineWindow = { lines: [], crlfLines: [], lfLineCount: 0, totalLines: 0, aborted: true };
  const scanner = new LineWindowScanner(offset, limit);
  if (source instanceof Uint8Array) {
    if (signal.aborted) return cancelled;
    scanner.feed(source);
    return scanner.finish();
  }
  for await (const chunk of source) {
    if (signal.aborted) return cancelled;
    scanner.feed(chunk as Buffer);
  }
  return scanner.finish();
}

/** The state of one readLineWindow pass, fed the file's bytes in order. */
class LineWindowScanner {
  private readonly budget: LineBudget;
  private readonly line = new LineHead(READ_MAX_LINE_CHARS + 2);
  private collecting = true;
  private lineNumber = 0; // lines completed so far
  private lastByte = -1;
  private readonly crlfLines: number[] = [];
  private lfLineCount = 0;

  constructor(
    private readonly offset: number,
    limit: number,
  ) {
    this.budget = new LineBudget(limit, READ_MAX_OUTPUT_CHARS);
  }

  feed(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.lastByte = bytes[bytes.length - 1]!;
    let start = 0;
    while (this.collecting && start < bytes.length) {
      const newline = bytes.indexOf(0x0a, start);
      const end = newline === -1 ? bytes.length : newline;
      if (this.lineNumber + 1 >= this.offset) this.line.take(bytes.subarray(start, end));
      if (newline === -1) {
        start = bytes.length;
      } else {
        this.endLine(true);
        start = newline + 1;
      }
    }
    if (!this.collecting && start < bytes.length) this.lineNumber += countNewlines(bytes.subarray(start));
  }

  finish(): LineWindow {
    if (this.lastByte !== -1 && this.lastByte !== 0x0a) {
      // A final line without a newline.
      if (this.collecting) this.endLine(false);
      else this.lineNumber += 1;
    }
    return { lines: this.budget.lines, crlfLines: this.crlfLines, lfLineCount: this.lfLineCount, totalLines: this.lineNumber, aborted: false };
  }

  private endLine(newline: boolean): void {
    this.lineNumber += 1;
    if (this.lineNumber < this.offset) return;
    const text = this.line.finish(this.lineNumber === 1);
    if (!this.budget.add(`${String(this.lineNumber).padStart(6)}\t${text}`) || this.budget.full) this.collecting = false;
    if (this.line.endedWithCr && newline) this.crlfLines.push(this.lineNumber);
    else if (newline) this.lfLineCount += 1;
  }
}

/**
 * The shown form of one line, fed in byte pieces: keeps its first `keep` characters and counts the
 * rest, so a 100 MB line costs one pass and `keep` characters of memory. Pieces are split only at
 * newlines or chunk ends; the decoder carries a character split across chunks.
 */
class LineHead {
  private readonly decoder = new StringDecoder('utf8');
  private head = '';
  private chars = 0;
  private endsWithCr = false;
  private midCharacter = false;
  /** Whether the line last finished ended in CR (before its LF). */
  endedWithCr = false;

  constructor(private readonly keep: number) {}

  take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.endsWithCr = piece[piece.length - 1] === 0x0d;
    // Past the kept head only the count matters: plain ASCII (nearly always) is counted without
    // decoding, unless the decoder still holds the start of a character from the previous piece.
    if (this.head.length >= this.keep && !this.midCharacter && isAscii(piece)) {
      this.chars += piece.length;
      return;
    }
    this.add(this.decoder.write(piece));
    this.midCharacter = endsMidCharacter(piece);
  }

  /** The line as read_file shows it (CR and a leading BOM dropped, cut at READ_MAX_LINE_CHARS); resets. */
  finish(firstLine: boolean): string {
    this.add(this.decoder.end()); // an incomplete sequence before the newline becomes U+FFFD
    let text = this.head;
    let length = this.chars;
    const whole = text.length === length;
    if (this.endsWithCr) {
      length -= 1;
      if (whole) text = text.slice(0, -1);
    }
    if (firstLine && text.startsWith('\uFEFF')) {
      text = text.slice(1); // a BOM is not content
      length -= 1;
    }
    this.head = '';
    this.chars = 0;
    this.endedWithCr = this.endsWithCr;
    this.endsWithCr = false;
    this.midCharacter = false;
    return length <= READ_MAX_LINE_CHARS ? text : `${text.slice(0, READ_MAX_LINE_CHARS)}… [+${length - READ_MAX_LINE_CHARS} chars]`;
  }

  private add(text: string): void {
    if (text === '') return;
    this.chars += text.length;
    if (this.head.length < this.keep) this.head += text.slice(0, this.keep - this.head.length);
  }
}

/** True when `bytes` ends inside a multi-byte UTF-8 sequence (the decoder then holds its start). */
function endsMidCharacter(bytes: Buffer): boolean {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back]!;
    if (byte < 0x80) return false;
    if (byte >= 0xc0) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return back < needed;
    }
  }
  return false;
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
