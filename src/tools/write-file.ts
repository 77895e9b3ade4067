import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { ActionRequest, Tool, ToolContext, ToolResult } from '../agent/types.js';
import { countLines, makeDiffDisplay } from './diff-display.js';
import { displayPath, resolvePath } from './paths.js';
import { errorCode, errorMessage, writeFailureMessage } from './text-files.js';
import type { TextFileOverlay } from './file-overlay.js';
import { checkWriteTarget, makeParentDirs, readFileBytes, writeTextFile } from './project-files.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export const writeFileSchema = lazySchema((z) =>
  z
    .object({
      path: z.string(),
      content: z.string().describe('Whole new content'),
    })
    .strict(),
);

export type WriteFileArgs = z.infer<ReturnType<typeof writeFileSchema>>;

/**
 * write_file: creates or replaces a whole file, creating parent directories. The replacement is
 * atomic (temp file, fsync, rename; see writeFileAtomic): a full disk or a kill part-way leaves the
 * old file as it was. An existing file keeps its mode; a symlink stays a symlink to the new content.
 * Inside the project nothing is written through a symlink leading out of it (project-files.ts).
 */
export function createWriteFileTool(options: { files?: TextFileOverlay } = {}): Tool<WriteFileArgs> {
  return {
    name: 'write_file',
    description: 'Create or overwrite a file (parent dirs are created). Prefer edit_file for existing files.',
    parameters: TOOL_PARAMETERS.write_file,
    get schema() {
      return writeFileSchema();
    },
    readOnly: false,
    describe: (args, ctx) => describeWrite(args, ctx, options.files),
    execute: (args, ctx) => writeFileTool(args, ctx, options.files),
  };
}

/** The current content (an editor's buffer when `files` has it), `null` when the file does not
 * exist yet. Throws for directories. */
async function readExisting(ctx: ToolContext, absPath: string, files: TextFileOverlay | undefined): Promise<string | null> {
  try {
    const disk = (await readFileBytes(ctx, absPath)).toString('utf8');
    return (await files?.readText(absPath)) ?? disk;
  } catch (error) {
    // A link leading out of the project, or to nothing: the write refuses it, saying so.
    if (['ENOENT', 'ECONFINED', 'EDANGLINGLINK'].includes(errorCode(error) ?? '')) return null;
    throw error;
  }
}

async function describeWrite(args: WriteFileArgs, ctx: ToolContext, files: TextFileOverlay | undefined): Promise<ActionRequest> {
  const absPath = resolvePath(ctx, args.path);
  const shown = displayPath(ctx, absPath);
  let before: string | null = null;
  try {
    before = await readExisting(ctx, absPath, files);
  } catch {
    // Unreadable target: execute reports it; the preview just shows the new content.
  }
  return {
    kind: 'write',
    paths: [absPath],
    summary: `${before === null ? 'create' : 'overwrite'} ${shown}`,
    preview: makeDiffDisplay(shown, before ?? '', args.content),
  };
}

async function writeFileTool(args: WriteFileArgs, ctx: ToolContext, files: TextFileOverlay | undefined): Promise<ToolResult> {
  const absPath = resolvePath(ctx, args.path);
  const shown = displayPath(ctx, absPath);
  let before: string | null;
  try {
    before = await readExisting(ctx, absPath, files);
  } catch (error) {
    if (errorCode(error) === 'EISDIR') return { content: `${shown} is a directory; give a file path.`, isError: true };
    return { content: `Cannot write ${shown}: ${errorMessage(error)}`, isError: true };
  }
  try {
    // Through the editor when it takes the path (its buffer and the disk then agree; the directory
    // is made for it first), else atomic, confined inside the project (it makes the directory).
    if (files) {
      await makeParentDirs(ctx, absPath);
      checkWriteTarget(ctx, absPath);
    }
    if (!(await files?.writeText(absPath, args.content))) await writeTextFile(ctx, absPath, args.content);
  } catch (error) {
    if (errorCode(error) === 'EEXIST' || errorCode(error) === 'ENOTDIR') {
      return { content: `Cannot write ${shown}: a parent path is a file, not a directory.`, isError: true };
    }
    return { content: writeFailureMessage(error, shown, before !== null), isError: true };
  }

  const display = makeDiffDisplay(shown, before ?? '', args.content);
  const lines = countLines(args.content);
  const lineWord = lines === 1 ? 'line' : 'lines';
  if (before === null) return { content: `Created ${shown} (${lines} ${lineWord}).`, display };
  if (before === args.content) return { content: `Overwrote ${shown} (${lines} ${lineWord}; content unchanged).`, display };
  return { content: `Overwrote ${shown} (${lines} ${lineWord}; +${display.added} -${display.removed}).`, display };
}

