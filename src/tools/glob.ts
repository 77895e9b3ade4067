import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { IgnoreRules } from './gitignore.js';
import { baseRefusal, globStart, globWalk, type GlobMatch, type GlobWalk } from './glob-walk.js';
import { displayPath, resolvePath } from './paths.js';
import { errorMessage } from './text-files.js';
import { withoutDenied } from './read-denied.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export const GLOB_MAX_RESULTS = 500;

export const globSchema = lazySchema((z) =>
  z
    .object({
      pattern: z.string().describe('Glob, e.g. src/**/*.ts'),
      path: z.string().optional().describe('Dir to search (default cwd)'),
    })
    .strict(),
);

export type GlobArgs = z.infer<ReturnType<typeof globSchema>>;

/**
 * glob: file paths matching a pattern, newest first, .gitignore respected. The policy judges
 * `path`; the pattern cannot leave it: absolute, `~` and `..` patterns are refused, and a match
 * whose real path (symlinks resolved) is outside both the project and the searched directory is
 * left out of the result; a pattern whose literal directories lead out through a link
 * (`link-to-outside/**`) is refused before anything is walked.
 */
export function createGlobTool(): Tool<GlobArgs> {
  return {
    name: 'glob',
    description: 'Find files by glob (gitignored ones skipped); paths relative to the searched dir, newest first.',
    parameters: TOOL_PARAMETERS.glob,
    get schema() {
      return globSchema();
    },
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
  const refusal = patternRefusal(args.pattern);
  if (refusal) return { content: refusal, isError: true };
  const leadsOut = baseRefusal(root, ctx.projectRoot, globStart(root, args.pattern.trim()), args.pattern);
  if (leadsOut) return { content: leadsOut, isError: true };

  let walk: GlobWalk;
  try {
    const rules = await IgnoreRules.forRoot(root);
    walk = await globWalk(root, args.pattern.trim(), rules, ctx.signal);
  } catch (error) {
    return { content: `glob failed: ${errorMessage(error)}`, isError: true };
  }
  if (ctx.signal.aborted) return { content: 'Interrupted: the search was cancelled.', isError: true };
  const matches = walk.matches;

  const reachable = await insideOnly(root, ctx.projectRoot, walk);
  const leftOut = matches.length - reachable.length;
  const inside = withoutDenied(ctx, reachable, (match) => path.join(root, match.relPath));
  const outsideNote = (leftOut > 0 ? `\n(${leftOut} match${leftOut === 1 ? '' : 'es'} leading outside the project through symlinks left out)` : '');
  const where = shownRoot === '.' ? '' : ` in ${shownRoot}`;
  if (inside.length === 0) {
    return { content: `No files match ${args.pattern}${where}.${outsideNote}`, display: { kind: 'list', title: `glob ${args.pattern}`, items: [], truncated: false } };
  }
  const sorted = newestFirst(inside);
  const shown = sorted.slice(0, GLOB_MAX_RESULTS);
  const omitted = sorted.length - shown.length;
  const header = shownRoot === '.' ? '' : `(paths relative to ${shownRoot})\n`;
  const footer = (omitted > 0 ? `\n… and ${omitted} more files (${sorted.length} in all); narrow the pattern or path.` : '') + outsideNote;
  return {
    content: header + shown.join('\n') + footer,
    display: { kind: 'list', title: `glob ${args.pattern}${where}`, items: shown, truncated: omitted > 0 },
  };
}

/** Why a pattern may not be used (it could name files outside the searched directory), or null. */
function patternRefusal(pattern: string): string | null {
  const trimmed = pattern.trim();
  if (trimmed.startsWith('/') || trimmed.startsWith('~') || /^[A-Za-z]:[\\/]/.test(trimmed)) {
    return `pattern ${pattern} is absolute; patterns are relative to path. Set path to the directory to search and use a relative pattern.`;
  }
  if (trimmed.includes('..')) return `pattern ${pattern} contains '..'; patterns cannot leave path. Set path to the directory to search instead.`;
  return null;
}

/**
 * The matches whose real path is inside the project or the searched directory (both resolved);
 * one that cannot be resolved (a dangling link) is judged by its spelled path. The walk follows
 * no link below its start, so only links, and everything when the start itself lies through a
 * link (`dir-link/*`), need resolving.
 */
async function insideOnly(root: string, projectRoot: string, walk: GlobWalk): Promise<GlobMatch[]> {
  const real = (p: string): Promise<string> => realpath(p).catch(() => path.resolve(p));
  const [realRoot, realProject, realBase] = await Promise.all([real(root), real(projectRoot), real(walk.base)]);
  const contains = (dir: string, target: string): boolean => {
    const rel = path.relative(dir, target);
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
  };
  const baseIsReal = realBase === path.join(realRoot, path.relative(root, walk.base));
  const toCheck = walk.matches.filter((match) => match.isLink || !baseIsReal);
  const leadsOut = new Set<GlobMatch>();
  const batchSize = 256;
  for (let start = 0; start < toCheck.length; start += batchSize) {
    const batch = toCheck.slice(start, start + batchSize);
    const targets = await Promise.all(batch.map((match) => real(path.join(root, match.relPath))));
    batch.forEach((match, index) => {
      const target = targets[index]!;
      if (!contains(realRoot, target) && !contains(realProject, target)) leadsOut.add(match);
    });
  }
  return leadsOut.size === 0 ? walk.matches : walk.matches.filter((match) => !leadsOut.has(match));
}

/** Relative paths by modification time, newest first; ties (and unreadable files) by path. */
function newestFirst(matches: GlobMatch[]): string[] {
  return [...matches]
    .sort((a, b) => b.mtimeMs - a.mtimeMs || (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0))
    .map((match) => match.relPath);
}
