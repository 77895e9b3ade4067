/**
 * Making a new worktree runnable: copying ignored files listed in `.worktreeinclude` (say `.env`)
 * and linking big ignored folders named in config `worktree.symlink` (say `node_modules`).
 *
 * Neither may show up in the worktree's `git status`, or the change count, the rescue snapshot and
 * the merge would pick them up. Copied files are git-ignored by construction (only ignored files are
 * copied). Links need care, and git offers no per-worktree ignore file: `info/exclude` lives in the
 * common git directory, shared by every worktree, and per-worktree config needs
 * `extensions.worktreeConfig`, which rewrites the user's repository config. seek edits neither:
 *
 * - when git already ignores the link itself (a pattern like `node_modules` or `/node_modules`),
 *   the entry becomes one symlink to the main tree's folder;
 * - otherwise (typically `node_modules/`, which matches only real directories, never a symlink)
 *   the entry becomes a real directory holding a self-ignoring `.gitignore` (`*`) and one symlink
 *   per top-level entry of the main tree's folder. git ignores all of it, and a recursive delete
 *   inside the worktree removes links, never the main tree's files.
 *
 * Everything written into the worktree is confined to it (util/confined-fs.ts): a symlink there
 * (committed in the base branch, or planted by a command) is never written through, and a file is
 * read from the main tree only through real directories. A symlink listed in `.worktreeinclude` is
 * copied as a symlink only when it points inside the main tree; one leading out is not copied.
 */
import type { Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
import {
  ConfinementError,
  copyFileConfined,
  linkTargetInside,
  lstatConfined,
  mkdirConfined,
  readlinkConfined,
  symlinkConfined,
  unlinkConfined,
  writeFileConfined,
} from '../util/confined-fs.js';
import type { GitClient } from './git.js';

export const INCLUDE_FILE = '.worktreeinclude';

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch {
    return undefined;
  }
}

const splitNul = (text: string): string[] => text.split('\0').filter((entry) => entry !== '');

/**
 * Paths (relative, `/`-separated) that match `.worktreeinclude` and that git ignores in the main
 * tree. Tracked files are never listed: the worktree already has them. Empty without the file.
 */
export async function includedFiles(git: GitClient, root: string): Promise<string[]> {
  const includeFile = join(root, INCLUDE_FILE);
  if (!(await lstatOrUndefined(includeFile))?.isFile()) return [];
  // Untracked files matched by the include patterns (gitignore syntax, relative to the root)...
  const candidates = splitNul(
    await git.ok(root, ['ls-files', '-z', '--others', '--ignored', `--exclude-from=${includeFile}`]),
  );
  if (candidates.length === 0) return [];
  // ...that the repository's own ignore rules (all .gitignore files, info/exclude, core.excludesFile)
  // ignore. Exit 1 means "none ignored".
  const ignored = await git.run(root, ['check-ignore', '-z', '--stdin'], { input: `${candidates.join('\0')}\0` });
  if (ignored.code !== 0 && ignored.code !== 1) throw new Error(`git check-ignore failed: ${ignored.stderr.trim()}`);
  return splitNul(ignored.stdout);
}

/** Copies `files` from `root` into `worktree`, keeping relative paths and modes; symlinks stay
 * symlinks when they point inside `root`; a path the worktree already has, or that either tree
 * reaches only through a symlink, is left alone. Returns the paths copied. */
export async function copyIncluded(root: string, worktree: string, files: string[]): Promise<string[]> {
  const copied: string[] = [];
  for (const file of files) {
    if (await skipRefused(() => copyOne(root, worktree, file))) copied.push(file);
  }
  return copied;
}

async function copyOne(root: string, worktree: string, file: string): Promise<boolean> {
  const info = lstatConfined(root, file);
  if (!info || lstatConfined(worktree, file)) return false;
  if (info.isSymbolicLink()) {
    const text = readlinkConfined(root, file);
    if (!linkTargetInside(root, file, text)) return false;
    symlinkConfined(worktree, file, text);
    return true;
  }
  if (!info.isFile()) return false;
  await copyFileConfined({ root, path: file }, { root: worktree, path: file }, { exclusive: true });
  return true;
}

/** A refusal (a symlink on the way) counts as "not done"; other errors stay errors. */
async function skipRefused(work: () => Promise<boolean> | boolean): Promise<boolean> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConfinementError) return false;
    throw error;
  }
}

/** A config entry as a safe relative path inside the project, or undefined (absolute, `..`,
 * `.git`, empty). */
export function safeRelativeEntry(entry: string): string | undefined {
  if (entry.trim() === '' || isAbsolute(entry)) return undefined;
  const normal = normalize(entry).replace(/[\\/]+$/, '');
  const parts = normal.split(sep);
  if (normal === '.' || parts.some((part) => part === '..' || part === '.git' || part === '')) return undefined;
  return normal;
}

export interface LinkedEntry {
  entry: string;
  kind: 'symlink' | 'mirror';
}

/**
 * Links each configured folder of the main tree into the worktree (see the file comment for the
 * two shapes). Skips entries that are unsafe, missing in the main tree, or already present in the
 * worktree (tracked content). Returns what was linked.
 */
export async function linkFolders(git: GitClient, root: string, worktree: string, entries: readonly string[]): Promise<LinkedEntry[]> {
  const created: string[] = [];
  for (const raw of entries) {
    const entry = safeRelativeEntry(raw);
    if (!entry || created.includes(entry)) continue;
    const source = join(root, entry);
    if (!(await lstatOrUndefined(source))) continue;
    if (await skipRefused(() => linkInto(worktree, entry, source))) created.push(entry);
  }
  if (created.length === 0) return [];

  const posix = created.map((entry) => entry.split(sep).join('/'));
  const check = await git.run(worktree, ['check-ignore', '-z', '--stdin'], { input: `${posix.join('\0')}\0` });
  if (check.code !== 0 && check.code !== 1) throw new Error(`git check-ignore failed: ${check.stderr.trim()}`);
  const ignored = new Set(splitNul(check.stdout));

  const linked: LinkedEntry[] = [];
  for (const [index, entry] of created.entries()) {
    if (ignored.has(posix[index]!)) {
      linked.push({ entry, kind: 'symlink' });
      continue;
    }
    unlinkConfined(worktree, entry);
    if (await mirrorFolder(join(root, entry), worktree, entry)) linked.push({ entry, kind: 'mirror' });
  }
  return linked;
}

/** Links `entry` in the worktree to `source` in the main tree (that is the feature: the link
 * leaves the worktree on purpose), unless the worktree has the entry already. Created without
 * following any link in the worktree. */
function linkInto(worktree: string, entry: string, source: string): boolean {
  if (lstatConfined(worktree, entry)) return false;
  symlinkConfined(worktree, entry, source);
  return true;
}

/** A real directory at `entry` in `worktree`, ignored by its own `.gitignore`, with one symlink per
 * entry of the `source` folder. False (nothing created) when `source` is not a directory. */
async function mirrorFolder(source: string, worktree: string, entry: string): Promise<boolean> {
  const info = await stat(source).catch(() => undefined);
  if (!info?.isDirectory()) return false;
  mkdirConfined(worktree, entry);
  await writeFileConfined(worktree, join(entry, '.gitignore'), '# created by seek: this folder links to the main working tree\n*\n', { exclusive: true });
  const names = (await readdir(source)).filter((name) => name !== '.gitignore');
  for (const name of names) symlinkConfined(worktree, join(entry, name), join(source, name));
  return true;
}

/** `worktree.symlink` in config.json: folders (relative to the project root) to link into new
 * worktrees, such as node_modules. Anything but an array of non-blank strings is ignored. */
export function symlinksFromConfig(config: Readonly<Record<string, unknown>>): string[] {
  const section = config.worktree;
  if (typeof section !== 'object' || section === null) return [];
  const list = (section as Record<string, unknown>).symlink;
  return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '') : [];
}
