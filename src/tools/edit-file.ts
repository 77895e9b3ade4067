import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { ActionRequest, Tool, ToolContext, ToolResult } from '../agent/types.js';
import { makeDiffDisplay, type DiffDisplay } from './diff-display.js';
import { diffFromChanges } from './diff-regions.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';
import { applyEdits, type EditOutcome, type EditSpec } from './edit/apply.js';
import { displayPath, resolvePath, suggestSimilarPaths } from './paths.js';
import { errorCode, errorMessage, looksBinary, writeFailureMessage } from './text-files.js';
import type { TextFileOverlay } from './file-overlay.js';
import { checkWriteTarget, readFileBytes, writeTextFile } from './project-files.js';

export const editFileSchema = lazySchema((z) => {
  const edit = z.object({
    old_string: z.string(),
    new_string: z.string(),
    replace_all: z.boolean().optional(),
  });
  return z
    .object({
      path: z.string(),
      old_string: z.string().optional(),
      new_string: z.string().optional().describe('Replacement ("" deletes)'),
      replace_all: z.boolean().optional(),
      // The JSON schema says all that validation checks (minItems included): src/agent/fast-accept.ts
      // accepts arguments by it without zod.
      edits: z.array(edit).min(1).optional().describe('Instead of old/new_string: edits applied in order, all or none'),
    })
    .strict();
});

export type EditFileArgs = z.infer<ReturnType<typeof editFileSchema>>;

/**
 * edit_file: string replacement in an existing file, keeping its line endings, its mode and any
 * symlink in front of it; the file is replaced atomically (see writeFileAtomic), and inside the
 * project never through a symlink leading out of it (project-files.ts). Matching is exact
 * first, then tolerant of the ways models drift (see edit/apply.ts), never ambiguous.
 */
export function createEditFileTool(options: { files?: TextFileOverlay } = {}): Tool<EditFileArgs> {
  // describe() (for the permission check and its preview) and execute() compute the same edit on
  // the same text; the second reuses the first when the file has not changed in between.
  const preview = new PreviewCache();
  return {
    name: 'edit_file',
    description:
      'Replace text in a file. old_string must match one place unless replace_all.',
    parameters: TOOL_PARAMETERS.edit_file,
    get schema() {
      return editFileSchema();
    },
    readOnly: false,
    describe: (args, ctx) => describeEdit(args, ctx, preview, options.files),
    execute: (args, ctx) => editFileTool(args, ctx, preview, options.files),
  };
}

interface Computed {
  outcome: EditOutcome;
  display?: DiffDisplay;
}

/** The last edit computed, keyed by path, arguments and the exact text it was computed on. */
class PreviewCache {
  private last: { key: string; text: string; computed: Computed } | undefined;

  compute(absPath: string, args: EditFileArgs, text: string, shown: string): Computed {
    const key = `${absPath}\u0000${JSON.stringify(args)}`;
    if (this.last && this.last.key === key && this.last.text === text) {
      const computed = this.last.computed;
      this.last = undefined; // one use: a later call computes afresh
      return computed;
    }
    const outcome = computeEdit(text, args, shown);
    const computed: Computed = outcome.ok ? { outcome, display: editDisplay(shown, text, outcome) } : { outcome };
    this.last = { key, text, computed };
    return computed;
  }
}

/** The diff shown for an edit: from the lines it changed when known (linear in the file), else a general diff. */
function editDisplay(shown: string, before: string, outcome: Extract<EditOutcome, { ok: true }>): DiffDisplay {
  if (!outcome.changes) return makeDiffDisplay(shown, before, outcome.updated);
  return { kind: 'diff', path: shown, ...diffFromChanges(shown, before, outcome.updated, outcome.changes) };
}

type LoadedFile = { ok: true; text: string } | { ok: false; message: string };

/** The file's text: checked on disk (exists, text, UTF-8), taken from `files` (an editor's buffer)
 * when that has it. */
async function loadEditable(ctx: ToolContext, absPath: string, shown: string, files: TextFileOverlay | undefined): Promise<LoadedFile> {
  let raw: Buffer;
  try {
    raw = await readFileBytes(ctx, absPath);
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
  return { ok: true, text: (await files?.readText(absPath)) ?? text };
}

/** The edits the arguments ask for: the `edits` array, or the single old_string/new_string. */
function editsOf(args: EditFileArgs): { ok: true; edits: EditSpec[] } | { ok: false; message: string } {
  const single = args.old_string !== undefined || args.new_string !== undefined;
  if (args.edits && single) {
    return { ok: false, message: 'Send either old_string/new_string or edits, not both.' };
  }
  if (args.edits) return { ok: true, edits: args.edits };
  if (args.old_string === undefined || args.new_string === undefined) {
    return { ok: false, message: `Missing ${args.old_string === undefined ? 'old_string' : 'new_string'}: edit_file needs old_string and new_string (or an edits array).` };
  }
  return { ok: true, edits: [{ old_string: args.old_string, new_string: args.new_string, replace_all: args.replace_all }] };
}

/** Applies the edit to `original` in memory. Exported for tests and for previews. */
export function computeEdit(original: string, args: EditFileArgs, shown: string): EditOutcome {
  const edits = editsOf(args);
  if (!edits.ok) return edits;
  return applyEdits(original, edits.edits, shown);
}

async function describeEdit(args: EditFileArgs, ctx: ToolContext, preview: PreviewCache, files: TextFileOverlay | undefined): Promise<ActionRequest> {
  const absPath = resolvePath(ctx, args.path);
  const shown = displayPath(ctx, absPath);
  const request: ActionRequest = { kind: 'edit', paths: [absPath], summary: `edit ${shown}` };
  const loaded = await loadEditable(ctx, absPath, shown, files);
  if (!loaded.ok) return request;
  const { display } = preview.compute(absPath, args, loaded.text, shown);
  if (display) request.preview = display;
  return request;
}

async function editFileTool(args: EditFileArgs, ctx: ToolContext, preview: PreviewCache, files: TextFileOverlay | undefined): Promise<ToolResult> {
  const absPath = resolvePath(ctx, args.path);
  const shown = displayPath(ctx, absPath);
  const loaded = await loadEditable(ctx, absPath, shown, files);
  if (!loaded.ok) return { content: loaded.message, isError: true };
  const { outcome, display: computedDisplay } = preview.compute(absPath, args, loaded.text, shown);
  if (!outcome.ok) return { content: outcome.message, isError: true };
  try {
    // Atomic (temp file, fsync, rename): a full disk or a kill mid-write leaves the old file whole.
    if (files) checkWriteTarget(ctx, absPath);
    if (!(await files?.writeText(absPath, outcome.updated))) await writeTextFile(ctx, absPath, outcome.updated);
  } catch (error) {
    return { content: writeFailureMessage(error, shown, true), isError: true };
  }
  const display = computedDisplay ?? editDisplay(shown, loaded.text, outcome);
  const what = outcome.replacements === 1 ? '1 occurrence' : `${outcome.replacements} occurrences`;
  const notes = outcome.notes.length > 0 ? `\nNote: ${outcome.notes.join('; ')}.` : '';
  return { content: `Edited ${shown}: replaced ${what} (+${display.added} -${display.removed} lines).${notes}`, display };
}
