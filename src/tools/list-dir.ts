import type { Dirent } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { IgnoreRules } from './gitignore.js';
import { displayPath, resolvePath } from './paths.js';
import { errorMessage } from './text-files.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export const LIST_MAX_ENTRIES = 500;
export const LIST_MAX_DEPTH = 5;
/** Stop counting left-out entries past this many; the note then says "more than". */
const LIST_COUNT_LIMIT = 20_000;

export const listDirSchema = lazySchema((z) =>
  z
    .object({
      path: z.string().optional().describe('Directory (default cwd)'),
      depth: z.number().int().min(1).max(LIST_MAX_DEPTH).optional().describe('Levels, default 1'),
    })
    .strict(),
);

export type ListDirArgs = z.infer<ReturnType<typeof listDirSchema>>;

/** list_dir: an indented tree of a directory, gitignored entries and `.git` left out. */
export function createListDirTool(): Tool<ListDirArgs> {
  return {
    name: 'list_dir',
    description: 'List a directory as an indented tree (dirs end in /; gitignored entries skipped).',
    parameters: TOOL_PARAMETERS.list_dir,
    get schema() {
      return listDirSchema();
    },
    readOnly: true,
    describe(args, ctx) {
      const dir = resolvePath(ctx, args.path ?? '.');
      return { kind: 'read', paths: [dir], summary: `list ${displayPath(ctx, dir)}` };
    },
    execute: listDirTool,
  };
}

interface TreeNode {
  name: string;
  isDirectory: boolean;
  children: TreeNode[];
}

async function listDirTool(args: ListDirArgs, ctx: ToolContext): Promise<ToolResult> {
  const root = resolvePath(ctx, args.path ?? '.');
  const shown = displayPath(ctx, root);
  try {
    if (!(await stat(root)).isDirectory()) return { content: `${shown} is a file, not a directory. Use read_file to read it.`, isError: true };
  } catch {
    return { content: `Directory not found: ${shown}.`, isError: true };
  }
  const depth = Math.min(args.depth ?? 1, LIST_MAX_DEPTH);
  let tree: { top: TreeNode[]; included: number; omitted: number };
  try {
    tree = await buildTree(root, depth, ctx.signal, ctx.readDenied);
  } catch (error) {
    return { content: `Cannot list ${shown}: ${errorMessage(error)}`, isError: true };
  }

  const lines = [`${root}/`];
  const render = (nodes: TreeNode[], level: number): void => {
    for (const node of nodes) {
      lines.push(`${'  '.repeat(level)}${node.name}${node.isDirectory ? '/' : ''}`);
      render(node.children, level + 1);
    }
  };
  render(tree.top, 1);
  if (tree.included === 0) lines.push('  (empty directory)');
  if (tree.omitted > 0) {
    const count = tree.omitted >= LIST_COUNT_LIMIT ? `more than ${LIST_COUNT_LIMIT}` : String(tree.omitted);
    lines.push(`… ${count} more entries not shown; list a subdirectory or use a smaller depth.`);
  }
  const items = lines.slice(1);
  return { content: lines.join('\n'), display: { kind: 'list', title: shown, items, truncated: tree.omitted > 0 } };
}

/**
 * Breadth-first, so a capped listing still shows every top-level entry before going deeper.
 * Directories that did not fit are still read (to count what is left out) up to the count limit.
 */
async function buildTree(
  root: string,
  depth: number,
  signal: AbortSignal,
  readDenied?: (absPath: string) => string | undefined,
): Promise<{ top: TreeNode[]; included: number; omitted: number }> {
  const rules = await IgnoreRules.forRoot(root);
  const top: TreeNode[] = [];
  let included = 0;
  let omitted = 0;
  let level: { absPath: string; children: TreeNode[] | null }[] = [{ absPath: root, children: top }];

  for (let currentDepth = 1; currentDepth <= depth && level.length > 0; currentDepth += 1) {
    const next: typeof level = [];
    for (const dir of level) {
      if (signal.aborted || omitted >= LIST_COUNT_LIMIT) return { top, included, omitted };
      let entries: Dirent[];
      try {
        // What a deny rule forbids reading is left out, its name too (tools/read-denied.ts).
        entries = sortEntries(await rules.readDir(dir.absPath)).filter((entry) => readDenied?.(path.join(dir.absPath, entry.name)) === undefined);
      } catch (error) {
        if (dir.absPath === root) throw error;
        continue; // an unreadable subdirectory just shows as empty
      }
      for (const entry of entries) {
        const isDirectory = entry.isDirectory();
        let node: TreeNode | null = null;
        if (dir.children && included < LIST_MAX_ENTRIES) {
          node = { name: entry.name, isDirectory, children: [] };
          dir.children.push(node);
          included += 1;
        } else {
          omitted += 1;
        }
        if (isDirectory && currentDepth < depth) next.push({ absPath: path.join(dir.absPath, entry.name), children: node?.children ?? null });
      }
    }
    level = next;
  }
  return { top, included, omitted };
}

/** Directories first, then by name (code-point order, so the listing is the same everywhere). */
function sortEntries(entries: Dirent[]): Dirent[] {
  return [...entries].sort((a, b) => {
    const dirOrder = Number(b.isDirectory()) - Number(a.isDirectory());
    if (dirOrder !== 0) return dirOrder;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}
