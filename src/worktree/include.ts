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
 */
import { constants, type Stats } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, readdir, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
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
 * symlinks; a path the worktree already has is left alone. Returns the paths copied. */
export async function copyIncluded(root: string, worktree: string, files: string[]): Promise<string[]> {
  const copied: string[] = [];
  for (const file of files) {
    const source = join(root, file);
    const target = join(worktree, file);
    const info = await lstatOrUndefined(source);
    if (!info || (await lstatOrUndefined(target))) continue;
    await mkdir(dirname(target), { recursive: true });
    if (info.isSymbolicLink()) {
      await symlink(await readlink(source), target);
    } else if (info.isFile()) {
      await copyFile(source, target, constants.COPYFILE_FICLONE);
      await chmod(target, info.mode & 0o7777);
    } else {
      continue;
    }
    copied.push(file);
  }
  return copied;
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
    const target = join(worktree, entry);
    if (!(await lstatOrUndefined(source)) || (await lstatOrUndefined(target))) continue;
    await mkdir(dirname(target), { recursive: true });
    await symlink(source, target);
    created.push(entry);
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
    const target = join(worktree, entry);
    await rm(target);
    if (await mirrorFolder(join(root, entry), target)) linked.push({ entry, kind: 'mirror' });
  }
  return linked;
}

/** A real directory at `target`, ignored by its own `.gitignore`, with one symlink per entry of
 * the `source` folder. False (nothing created) when `source` is not a directory. */
async function mirrorFolder(source: string, target: string): Promise<boolean> {
  const info = await stat(source).catch(() => undefined);
  if (!info?.isDirectory()) return false;
  await mkdir(target);
  await writeFile(join(target, '.gitignore'), '# created by seek: this folder links to the main working tree\n*\n');
  const names = (await readdir(source)).filter((name) => name !== '.gitignore');
  await Promise.all(names.map((name) => symlink(join(source, name), join(target, name))));
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
