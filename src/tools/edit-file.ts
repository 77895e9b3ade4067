import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { ActionRequest, Tool, ToolContext, ToolResult } from '../agent/types.js';
import { writeFileAtomic } from '../config/atomic-file.js';
import { makeDiffDisplay } from './diff-display.js';
import { displayPath, resolvePath, suggestSimilarPaths } from './paths.js';
import { errorCode, errorMessage, looksBinary, writeFailureMessage } from './text-files.js';

const schema = z
  .object({
    path: z.string().describe('File path'),
    old_string: z.string().describe('Exact text to replace'),
    new_string: z.string().describe('Replacement ("" deletes)'),
    replace_all: z.boolean().optional().describe('Replace every occurrence'),
  })
  .strict();

export type EditFileArgs = z.infer<typeof schema>;

/** edit_file: exact string replacement in an existing file, keeping its line endings, its mode and
 * any symlink in front of it; the file is replaced atomically (see writeFileAtomic). */
export function createEditFileTool(): Tool<EditFileArgs> {
  return {
    name: 'edit_file',
    description:
      'Replace exact text in a file. old_string must match the file exactly (whitespace included) and be unique unless replace_all is set.',
    schema,
    readOnly: false,
    describe: describeEdit,
    execute: editFileTool,
  };
}

type EditOutcome = { ok: true; updated: string; replacements: number } | { ok: false; message: string };

type LoadedFile = { ok: true; text: string } | { ok: false; message: string };

async function loadEditable(ctx: ToolContext, absPath: string, shown: string): Promise<LoadedFile> {
  let raw: Buffer;
  try {
    raw = await readFile(absPath);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EISDIR') return { ok: false, message: `${shown} is a directory, not a file.` };
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return { ok: false, message: `Cannot read ${shown}: ${errorMessage(error)}` };
    const suggestions = await suggestSimilarPaths(ctx, absPath);
    const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.join(', ')}?` : '';
    return { ok: false, message: `File not found: ${shown}.${hint} To create a new file use write_file.` };
  }
  if (looksBinary(raw)) return { ok: false, message: `${shown} is a binary file; edit_file only changes text.` };
  const text = raw.toString('utf8');
  // Writing back a decoded invalid sequence would silently replace bytes with U+FFFD.
  if (!Buffer.from(text, 'utf8').equals(raw)) {
    return { ok: false, message: `${shown} is not valid UTF-8; edit_file would corrupt it.` };
  }
  return { ok: true, text };
}

/**
 * Applies the edit to `original` in memory. A file whose every line ends in CRLF is edited in LF
 * form and converted back, so a model that sends LF text still matches and the file stays CRLF.
 * Exported for tests and for previews.
 */
export function computeEdit(original: string, args: EditFileArgs, shown: string): EditOutcome {
  if (args.old_string === args.new_string) {
    return { ok: false, message: 'old_string and new_string are identical; the edit would change nothing.' };
  }
  if (args.old_string === '') {
    return { ok: false, message: 'old_string is empty. To create a file or replace all of it, use write_file.' };
  }
  const crlf = usesCrlfOnly(original);
  const toLf = (text: string): string => (crlf ? text.replace(/\r\n/g, '\n') : text);
  const text = toLf(original);
  const oldString = toLf(args.old_string);
  const newString = toLf(args.new_string);

  const positions = occurrences(text, oldString);
  if (positions.length === 0) return { ok: false, message: notFoundMessage(text, oldString, shown) };
  if (positions.length > 1 && args.replace_all !== true) {
    const lines = positions.slice(0, 5).map((position) => lineNumberAt(text, position));
    const more = positions.length > 5 ? ', …' : '';
    return {
      ok: false,
      message:
        `old_string occurs ${positions.length} times in ${shown} (lines ${lines.join(', ')}${more}). ` +
        'Include more surrounding lines to make it unique, or set replace_all to true to change every occurrence.',
    };
  }
  const first = positions[0]!;
  const updated =
    args.replace_all === true
      ? text.split(oldString).join(newString)
      : text.slice(0, first) + newString + text.slice(first + oldString.length);
  return { ok: true, updated: crlf ? updated.replace(/\n/g, '\r\n') : updated, replacements: args.replace_all ? positions.length : 1 };
}

async function describeEdit(args: EditFileArgs, ctx: ToolContext): Promise<ActionRequest> {
  const absPath = resolvePath(ctx, args.path);
  const shown = displayPath(ctx, absPath);
  const request: ActionRequest = { kind: 'edit', paths: [absPath], summary: `edit ${shown}` };
  const loaded = await loadEditable(ctx, absPath, shown);
  if (!loaded.ok) return request;
  const outcome = computeEdit(loaded.text, args, shown);
  if (outcome.ok) request.preview = makeDiffDisplay(shown, loaded.text, outcome.updated);
  return request;
}

async function editFileTool(args: EditFileArgs, ctx: ToolContext): Promise<ToolResult> {
  const absPath = resolvePath(ctx, args.path);
  const shown = displayPath(ctx, absPath);
  const loaded = await loadEditable(ctx, absPath, shown);
  if (!loaded.ok) return { content: loaded.message, isError: true };
  const outcome = computeEdit(loaded.text, args, shown);
  if (!outcome.ok) return { content: outcome.message, isError: true };
  try {
    // Atomic (temp file, fsync, rename): a full disk or a kill mid-write leaves the old file whole.
    await writeFileAtomic(absPath, outcome.updated, { preserve: true, durable: true });
  } catch (error) {
    return { content: writeFailureMessage(error, shown, true), isError: true };
  }
  const display = makeDiffDisplay(shown, loaded.text, outcome.updated);
  const what = outcome.replacements === 1 ? '1 occurrence' : `${outcome.replacements} occurrences`;
  return { content: `Edited ${shown}: replaced ${what} (+${display.added} -${display.removed} lines).`, display };
}

/** True when the text has line breaks and every one of them is CRLF. */
function usesCrlfOnly(text: string): boolean {
  return text.includes('\r\n') && !/(^|[^\r])\n/.test(text);
}

function occurrences(text: string, needle: string): number[] {
  const positions: number[] = [];
  let index = text.indexOf(needle);
  while (index !== -1) {
    positions.push(index);
    index = text.indexOf(needle, index + needle.length);
  }
  return positions;
}

function lineNumberAt(text: string, position: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < position; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}

/** Explains a miss in a way the model can act on: whitespace drift, pasted line numbers, or stale text. */
function notFoundMessage(text: string, oldString: string, shown: string): string {
  const normalise = (line: string): string => line.trim().replace(/\s+/g, ' ');
  const wanted = trimBlankEnds(oldString.split('\n')).map(normalise);
  const fileLines = text.split('\n').map(normalise);
  if (wanted.length > 0) {
    for (let start = 0; start + wanted.length <= fileLines.length; start += 1) {
      if (wanted.every((line, offset) => fileLines[start + offset] === line)) {
        return (
          `old_string was not found in ${shown}, but lines ${start + 1}-${start + wanted.length} match it when whitespace is ignored: ` +
          'the indentation or spacing differs. Copy those lines exactly as read_file shows them.'
        );
      }
    }
  }
  const squash = (value: string): string => value.replace(/\s+/g, '');
  if (squash(oldString) !== '' && squash(text).includes(squash(oldString))) {
    return `old_string was not found in ${shown}, but it matches when whitespace is ignored: the spacing or indentation differs. Re-read the file and copy the text exactly.`;
  }
  if (/^\s*\d+\t/m.test(oldString)) {
    return `old_string was not found in ${shown}. It seems to include read_file line-number prefixes; send only the file text after the tab.`;
  }
  return `old_string was not found in ${shown}. Re-read the file with read_file and copy the text exactly, including whitespace.`;
}

function trimBlankEnds(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === '') start += 1;
  while (end > start && lines[end - 1]!.trim() === '') end -= 1;
  return lines.slice(start, end);
}
