import { stat } from 'node:fs/promises';
import path from 'node:path';
import { glob as tinyGlob } from 'tinyglobby';
import { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { IgnoreRules } from './gitignore.js';
import { displayPath, resolvePath } from './paths.js';
import { errorMessage } from './text-files.js';

export const GLOB_MAX_RESULTS = 500;

const schema = z
  .object({
    pattern: z.string().describe('Glob, e.g. src/**/*.ts'),
    path: z.string().optional().describe('Directory to search (default cwd)'),
  })
  .strict();

export type GlobArgs = z.infer<typeof schema>;

/** glob: file paths matching a pattern, newest first, .gitignore respected. */
export function createGlobTool(): Tool<GlobArgs> {
  return {
    name: 'glob',
    description: 'Find files by glob pattern (gitignored files skipped). Returns paths relative to the searched dir, newest first.',
    schema,
    readOnly: true,
    describe(args, ctx) {
      const root = resolvePath(ctx, args.path ?? '.');
      return { kind: 'read', paths: [root], summary: `glob ${args.pattern} in ${displayPath(ctx, root)}` };
    },
    execute: globTool,
  };
}

async function globTool(args: GlobArgs, ctx: ToolContext): Promise<ToolResult> {
  const root = resolvePath(ctx, args.path ?? '.');
  const shownRoot = displayPath(ctx, root);
  try {
    if (!(await stat(root)).isDirectory()) return { content: `${shownRoot} is not a directory.`, isError: true };
  } catch {
    return { content: `Directory not found: ${shownRoot}.`, isError: true };
  }
  if (args.pattern.trim() === '') return { content: 'pattern is empty.', isError: true };

  let matches: string[];
  try {
    const rules = await IgnoreRules.forRoot(root);
    matches = await tinyGlob(args.pattern, {
      cwd: root,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      expandDirectories: false,
      ignore: ['**/.git/**'],
      fs: rules.globFsAdapter(),
      signal: ctx.signal,
    });
  } catch (error) {
    if (ctx.signal.aborted) return { content: 'Interrupted: the search was cancelled.', isError: true };
    return { content: `glob failed: ${errorMessage(error)}`, isError: true };
  }

  const where = shownRoot === '.' ? '' : ` in ${shownRoot}`;
  if (matches.length === 0) {
    return { content: `No files match ${args.pattern}${where}.`, display: { kind: 'list', title: `glob ${args.pattern}`, items: [], truncated: false } };
  }
  const sorted = await newestFirst(root, matches);
  const shown = sorted.slice(0, GLOB_MAX_RESULTS);
  const omitted = sorted.length - shown.length;
  const header = shownRoot === '.' ? '' : `(paths relative to ${shownRoot})\n`;
  const footer = omitted > 0 ? `\n… and ${omitted} more files (${sorted.length} in all); narrow the pattern or path.` : '';
  return {
    content: header + shown.join('\n') + footer,
    display: { kind: 'list', title: `glob ${args.pattern}${where}`, items: shown, truncated: omitted > 0 },
  };
}

/** Sorts relative paths by modification time, newest first; ties (and unreadable files) by path. */
async function newestFirst(root: string, files: string[]): Promise<string[]> {
  const timed: { file: string; mtime: number }[] = [];
  const batchSize = 256;
  for (let start = 0; start < files.length; start += batchSize) {
    const batch = files.slice(start, start + batchSize);
    const times = await Promise.all(
      batch.map((file) =>
        stat(path.join(root, file)).then(
          (info) => info.mtimeMs,
          () => 0,
        ),
      ),
    );
    batch.forEach((file, index) => timed.push({ file, mtime: times[index]! }));
  }
  return timed
    .sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((entry) => entry.file);
}
