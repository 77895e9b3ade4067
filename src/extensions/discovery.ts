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
 *
 * Every file is read with util/trusted-read.ts: resolved through its links, it must stay inside the
 * folder its place belongs to (`within`: the project root for the project's folders, `~/.seek`
 * (SEEK_HOME) and `~/.claude` for the user's), never under /proc, /sys or /dev, and be a regular file
 * of bounded size. A file that is not is refused with a notice saying what it links to, and is not
 * loaded: a repository cannot make its command file a link to the user's secrets.
 */
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readTrustedFile } from '../util/trusted-read.js';

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
  /** The folder every file found here must stay inside, links resolved: the project root for the
   * project's folders, the user's config folder (SEEK_HOME, `~/.claude`) for the user's. */
  within: string;
}

/** Where a file of `source` must stay, as a refusal names it. */
export function withinLabel(source: ExtensionSource, within: string): string {
  return source.startsWith('project') ? `the project (${within})` : `your config folder ${within}`;
}

/** The folders of one kind, highest precedence first (see the module comment). */
export function extensionDirs(kind: ExtensionKind, roots: ExtensionRoots): ExtensionDir[] {
  const root = resolve(roots.projectRoot);
  const dirs: ExtensionDir[] = [
    { dir: join(root, '.seek', kind), source: 'project', within: root },
    { dir: join(root, '.claude', kind), source: 'project-claude', within: root },
  ];
  if (kind === 'skills') dirs.push({ dir: join(root, '.agents', kind), source: 'project-agents', within: root });
  const home = resolve(roots.seekHome);
  dirs.push({ dir: join(home, kind), source: 'user', within: home });
  if (roots.home) {
    const claude = join(resolve(roots.home), '.claude');
    dirs.push({ dir: join(claude, kind), source: 'user-claude', within: claude });
  }
  const seen = new Set<string>();
  return dirs.filter(({ dir }) => (seen.has(dir) ? false : (seen.add(dir), true)));
}

/** Formats a notice about one path: `subagent definition /x.md: what`. */
export type NoticeFormat = (path: string, what: string) => string;

export interface CollectOptions<T extends { name: string }> {
  dirs: readonly ExtensionDir[];
  /** Candidate files (or folders) of one directory, in a stable order. */
  list: (dir: string, notices: string[]) => Promise<string[]>;
  /** Loads one candidate of the folder `place`; undefined (with a notice pushed) when it is skipped. */
  load: (path: string, place: ExtensionDir, notices: string[]) => Promise<T | undefined>;
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
  scan: for (const place of options.dirs) {
    for (const path of await options.list(place.dir, notices)) {
      const item = await options.load(path, place, notices);
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

/** Where a file read by readBoundedText must stay: a folder, and how a refusal names it. */
export interface ReadPlace {
  within: string;
  source: ExtensionSource;
}

/**
 * A file's text, at most `maxBytes` long; undefined (with a notice) when it is too big, unreadable,
 * or refused by the trusted reader (it links outside `place.within`, to /proc, /sys or /dev, or is
 * not a regular file). Entries that do not exist (a link to nothing) and directories (a folder
 * named `x.md`) are passed over silently. The
 * size is checked on the open descriptor and while reading (it may have grown).
 */
export async function readBoundedText(file: string, maxBytes: number, place: ReadPlace, notices: string[], notice: NoticeFormat): Promise<string | undefined> {
  const read = await readTrustedFile(file, { within: [place.within], maxBytes, withinLabel: withinLabel(place.source, place.within) });
  if (read.ok) return read.text;
  if (read.code === 'missing' || read.code === 'directory') return undefined;
  if (read.code === 'too-large' || read.code === 'unreadable') notices.push(notice(file, `${read.reason}; skipped`));
  else notices.push(notice(file, `refused: it ${read.reason}; not loaded`));
  return undefined;
}

export function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
