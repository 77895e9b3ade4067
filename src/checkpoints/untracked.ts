/**
 * Untracked files a checkpoint copies, with a cap on large untracked directories (a build output,
 * a data set, a vendored tree nobody ignored): copying 100,000 new files into every checkpoint
 * would take longer than the turn. `git status -unormal` reports an untracked directory as one
 * entry (`dir/`); seek lists its files once (`git ls-files -o`) and, when they are more than
 * `maxUntrackedFiles` or weigh more than `maxUntrackedBytes` (files above maxFileSize, recorded by
 * hash instead, not counted), leaves the directory out of the checkpoint. Untracked files that
 * git lists one by one (their directory holds tracked files) are capped the same way, per
 * directory. A directory left out stays out for the life of the process (one notice per session
 * names it); the checkpoint records it (`leftOut`), and a rewind leaves what is under it alone. A
 * continued session starts with the directories its checkpoints left out (not measured again).
 */
import { lstat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { mapLimit } from '../util/map-limit.js';
import type { GitClient } from '../worktree/git.js';

/** A directory whose untracked files a checkpoint left out, and why. */
export interface LeftOutDirectory {
  /** Relative to the repository, ending in `/` (`./` for the top level). */
  path: string;
  /** `tree`: the whole untracked directory; `files`: the untracked files directly in it. */
  scope: 'tree' | 'files';
  files: number;
  /** Bytes counted before it was left out (up to the cap that stopped it). */
  bytes: number;
}

export interface UntrackedLimits {
  maxFileSize: number;
  maxUntrackedFiles: number;
  maxUntrackedBytes: number;
}

/** Directories left out so far, by path and scope (kept per repository for the process). */
export type LeftOutSet = Map<string, LeftOutDirectory>;

const key = (path: string, scope: LeftOutDirectory['scope']): string => `${scope}:${path}`;

/** Adds `dir` to `leftOut` (a directory an earlier process of the session left out). */
export function rememberLeftOut(leftOut: LeftOutSet, dir: LeftOutDirectory): void {
  if (!leftOut.has(key(dir.path, dir.scope))) leftOut.set(key(dir.path, dir.scope), dir);
}

/** The left-out directory `path` (an untracked entry of `git status`) falls under, if any. */
export function leftOutFor(leftOut: LeftOutSet, path: string): LeftOutDirectory | undefined {
  const parent = posix.dirname(path.endsWith('/') ? path.slice(0, -1) : path);
  if (!path.endsWith('/')) {
    const level = leftOut.get(key(parent === '.' ? './' : `${parent}/`, 'files'));
    if (level) return level;
  }
  for (let dir = path.endsWith('/') ? path.slice(0, -1) : parent; dir !== '.' && dir !== '' && dir !== '/'; dir = posix.dirname(dir)) {
    const tree = leftOut.get(key(`${dir}/`, 'tree'));
    if (tree) return tree;
  }
  return undefined;
}

/** Whether a repository path lies under one of `dirs` (a rewind's check). */
export function underLeftOut(dirs: readonly LeftOutDirectory[], path: string): boolean {
  return dirs.some((dir) =>
    dir.scope === 'tree' ? path.startsWith(dir.path) : (dir.path === './' ? !path.includes('/') : path.startsWith(dir.path) && !path.slice(dir.path.length).includes('/')),
  );
}

interface Group {
  path: string;
  scope: LeftOutDirectory['scope'];
  files: string[];
}

/**
 * The untracked files of `entries` (git status paths; directories end in `/`) that the checkpoint
 * copies: those under a directory left out before are skipped, new directories are listed and
 * measured. Adds newly left-out directories to `leftOut`; `matched`: those this snapshot met.
 */
export async function admitUntracked(
  git: GitClient,
  root: string,
  env: Record<string, string>,
  entries: readonly string[],
  limits: UntrackedLimits,
  leftOut: LeftOutSet,
): Promise<{ files: string[]; matched: LeftOutDirectory[] }> {
  const matched = new Set<LeftOutDirectory>();
  const groups = new Map<string, Group>();
  for (const entry of entries) {
    const known = leftOutFor(leftOut, entry);
    if (known) {
      matched.add(known);
      continue;
    }
    if (entry.endsWith('/')) {
      groups.set(key(entry, 'tree'), { path: entry, scope: 'tree', files: [] });
      continue;
    }
    const parent = posix.dirname(entry);
    const path = parent === '.' ? './' : `${parent}/`;
    const group = groups.get(key(path, 'files')) ?? { path, scope: 'files' as const, files: [] };
    group.files.push(entry);
    groups.set(key(path, 'files'), group);
  }
  const files: string[] = [];
  for (const group of groups.values()) {
    if (group.scope === 'tree') group.files = await untrackedUnder(git, root, env, group.path, limits.maxUntrackedFiles);
    const over = await overCap(root, group, limits);
    if (!over) {
      files.push(...group.files);
      continue;
    }
    leftOut.set(key(group.path, group.scope), over);
    matched.add(over);
  }
  return { files, matched: [...matched] };
}

/** The untracked, not ignored files under `dir`, `max` + 1 at most kept (git lists them all: this
 * runs once per new untracked directory in a session). */
async function untrackedUnder(git: GitClient, root: string, env: Record<string, string>, dir: string, max: number): Promise<string[]> {
  const out = await git.ok(root, ['ls-files', '-z', '-o', '--exclude-standard', '--', dir], { env });
  const listed = out.split('\0').filter(Boolean);
  return listed.length > max ? listed.slice(0, max + 1) : listed;
}

/** The group as left out when it is over a cap; undefined when it may be copied. */
async function overCap(root: string, group: Group, limits: UntrackedLimits): Promise<LeftOutDirectory | undefined> {
  if (group.files.length > limits.maxUntrackedFiles) return { path: group.path, scope: group.scope, files: group.files.length, bytes: 0 };
  const sizes = await mapLimit(group.files, 16, async (path) => {
    const info = await lstat(join(root, path)).catch(() => undefined);
    // A file above maxFileSize is recorded by hash (large-files.ts), not copied: it weighs nothing.
    return info?.isFile() && info.size <= limits.maxFileSize ? info.size : 0;
  });
  const bytes = sizes.reduce((sum, size) => sum + size, 0);
  return bytes > limits.maxUntrackedBytes ? { path: group.path, scope: group.scope, files: group.files.length, bytes } : undefined;
}

/** The notice for a directory left out: what, why, and how to change the cap. */
export function leftOutNotice(dir: LeftOutDirectory, limits: UntrackedLimits): string {
  const what = dir.scope === 'tree' ? `the untracked directory ${dir.path}` : `the untracked files directly in ${dir.path}`;
  const why =
    dir.files > limits.maxUntrackedFiles
      ? `more than ${limits.maxUntrackedFiles} files (checkpoints.maxUntrackedFiles)`
      : `more than ${limits.maxUntrackedBytes} bytes (checkpoints.maxUntrackedBytes)`;
  return `checkpoints leave out ${what}: ${why}; a rewind leaves it as it is. Add it to .gitignore, or raise the cap in ~/.seek/config.json`;
}
