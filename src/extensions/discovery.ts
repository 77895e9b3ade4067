/**
 * The one discovery and precedence rule for everything users add to seek as files: subagent
 * types (`agents`), skills and custom slash commands.
 *
 * Folders, highest precedence first (the first definition of a name wins, later ones are skipped
 * with a notice):
 *   1. `<root>/.seek/<kind>`     the project, seek's folder
 *   2. `<root>/.claude/<kind>`   the project, Claude Code's folder
 *   3. `<root>/.agents/<kind>`   the project, the tool-neutral folder (skills only)
 *   4. `<seekHome>/<kind>`       the user, seek's folder (`~/.seek/<kind>`, or `$SEEK_HOME/<kind>`)
 *   5. `~/.claude/<kind>`        the user, Claude Code's folder
 * So: project over user, seek's folder over Claude's. A folder reached twice (seek run in the home
 * directory) is read once, under its first place. MCP prompts follow the same rule through their
 * server's definition file (mcp/config.ts: `<root>/.seek/mcp.json`, `<root>/.mcp.json`,
 * `~/.seek/mcp.json`); their names are namespaced (`mcp__<server>__<prompt>`), so they never clash.
 *
 * Loading never throws: a problem becomes a notice `<what> <path>: <problem>` and the file is
 * skipped. Listing order is by code unit (not locale), so the result is a pure function of the files.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export type ExtensionKind = 'agents' | 'skills' | 'commands';
export type ExtensionSource = 'project' | 'project-claude' | 'project-agents' | 'user' | 'user-claude';

export interface ExtensionRoots {
  projectRoot: string;
  seekHome: string;
  /** The user's home directory; `<home>/.claude/<kind>` is read only when given. */
  home?: string;
}

export interface ExtensionDir {
  dir: string;
  source: ExtensionSource;
}

/** The folders of one kind, highest precedence first (see the module comment). */
export function extensionDirs(kind: ExtensionKind, roots: ExtensionRoots): ExtensionDir[] {
  const root = resolve(roots.projectRoot);
  const dirs: ExtensionDir[] = [
    { dir: join(root, '.seek', kind), source: 'project' },
    { dir: join(root, '.claude', kind), source: 'project-claude' },
  ];
  if (kind === 'skills') dirs.push({ dir: join(root, '.agents', kind), source: 'project-agents' });
  dirs.push({ dir: join(resolve(roots.seekHome), kind), source: 'user' });
  if (roots.home) dirs.push({ dir: join(resolve(roots.home), '.claude', kind), source: 'user-claude' });
  const seen = new Set<string>();
  return dirs.filter(({ dir }) => (seen.has(dir) ? false : (seen.add(dir), true)));
}

/** Formats a notice about one path: `subagent definition /x.md: what`. */
export type NoticeFormat = (path: string, what: string) => string;

export interface CollectOptions<T extends { name: string }> {
  dirs: readonly ExtensionDir[];
  /** Candidate files (or folders) of one directory, in a stable order. */
  list: (dir: string, notices: string[]) => Promise<string[]>;
  /** Loads one candidate; undefined (with a notice pushed) when it is skipped. */
  load: (path: string, source: ExtensionSource, dir: string, notices: string[]) => Promise<T | undefined>;
  notice: NoticeFormat;
  max: number;
  /** The notice for the first item over `max` (the rest are skipped silently). */
  tooMany: string;
}

/**
 * Walks the folders in precedence order and keeps the first item of each name. Returns the items
 * in discovery order; callers sort them as they need.
 */
export async function collectByName<T extends { name: string }>(options: CollectOptions<T>): Promise<{ items: T[]; notices: string[] }> {
  const notices: string[] = [];
  const found = new Map<string, { item: T; path: string }>();
  scan: for (const { dir, source } of options.dirs) {
    for (const path of await options.list(dir, notices)) {
      const item = await options.load(path, source, dir, notices);
      if (!item) continue;
      const earlier = found.get(item.name);
      if (earlier) {
        notices.push(options.notice(path, `name "${item.name}" is already defined by ${earlier.path}; skipped`));
      } else if (found.size >= options.max) {
        notices.push(options.notice(path, options.tooMany));
        break scan;
      } else found.set(item.name, { item, path });
    }
  }
  return { items: [...found.values()].map(({ item }) => item), notices };
}

export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The names in `dir` (hidden ones excluded), sorted by code unit. A missing directory is no error. */
export async function listDir(dir: string, notices: string[], notice: NoticeFormat): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => !name.startsWith('.')).sort(byCodeUnit);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') notices.push(notice(dir, `cannot list the directory (${code ?? messageOf(error)})`));
    return [];
  }
}

/** Absolute paths of the `*.md` entries of `dir`, sorted by code unit. */
export async function markdownFiles(dir: string, notices: string[], notice: NoticeFormat): Promise<string[]> {
  return (await listDir(dir, notices, notice)).filter((name) => name.toLowerCase().endsWith('.md')).map((name) => join(dir, name));
}

/**
 * A file's text, at most `maxBytes` long; undefined (with a notice) when it is too big or
 * unreadable. Entries that are not regular files (a directory named `x.md`) are passed over
 * silently. The size is checked before reading (no huge reads) and after (it may have grown).
 */
export async function readBoundedText(file: string, maxBytes: number, notices: string[], notice: NoticeFormat): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return undefined;
    const bytes = info.size > maxBytes ? undefined : await readFile(file);
    const size = bytes?.length ?? info.size;
    if (!bytes || size > maxBytes) {
      notices.push(notice(file, `${size} bytes is over the ${maxBytes / 1024} KiB limit; skipped`));
      return undefined;
    }
    return bytes.toString('utf8');
  } catch (error) {
    notices.push(notice(file, `cannot read (${errorCode(error) ?? messageOf(error)}); skipped`));
    return undefined;
  }
}

export function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
