import type { Dirent } from 'node:fs';
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { childPath, type IgnoreRules } from './gitignore.js';
import { MtimeReader } from './glob-stat.js';
import { walkTree } from './walk.js';

/** A file a glob matched. */
export interface GlobMatch {
  /** Relative to the searched directory, with `/`. */
  relPath: string;
  /** Modification time (of the target, for a link); 0 when it cannot be read. */
  mtimeMs: number;
  /** A symbolic link (listed, never followed): its real path may lie anywhere. */
  isLink: boolean;
}

export interface GlobWalk {
  matches: GlobMatch[];
  /** The directory the walk started from (the pattern's literal leading directories). */
  base: string;
}

/** Where a glob's walk starts: the pattern's literal leading directories under `root`. */
export interface GlobStart {
  /** The pattern without leading `./`. */
  pattern: string;
  /** Those directories, relative to `root`, with `/` ('' for `root` itself). */
  baseRel: string;
  /** Absolute. */
  base: string;
}

export function globStart(root: string, pattern: string): GlobStart {
  const normalised = pattern.replace(/^(\.\/)+/, '');
  const scan = picomatch.scan(normalised);
  const literal = scan.isGlob ? scan.base : path.posix.dirname(normalised);
  const parts = literal === '' || literal === '.' ? [] : literal.split('/').filter((part) => part !== '' && part !== '.');
  return { pattern: normalised, baseRel: parts.join('/'), base: path.join(root, ...parts) };
}

/**
 * Why the walk may not start at `start.base`, or null: it lies through a symbolic link (`dir-link/**`,
 * `dir-link` pointing at `/`) outside both the searched directory `root` (which the permission
 * policy judged) and the project. Decided before any directory is read, so a link to `/` costs a
 * few system calls, not a walk of the machine. A base that does not exist is left to the walk
 * (it finds nothing).
 */
export function baseRefusal(root: string, projectRoot: string, start: GlobStart, shownPattern: string): string | null {
  if (start.baseRel === '') return null;
  const realBase = realOrNull(start.base);
  if (realBase === null) return null;
  const allowed = [root, projectRoot].map((dir) => realOrNull(dir) ?? path.resolve(dir));
  if (allowed.some((dir) => contains(dir, realBase))) return null;
  let at = root;
  for (const part of start.baseRel.split('/')) {
    at = path.join(at, part);
    if (!isLink(at)) continue;
    const real = realOrNull(at);
    if (real !== null && allowed.some((dir) => contains(dir, real))) continue;
    const shown = path.relative(root, at);
    return `refusing to read ${shownPattern}: ${shown} is a symbolic link to ${readlinkOr(at, real ?? '?')}, leading outside ${projectRoot}; nothing was searched. To search there, set path to that directory (it is judged like any path outside the project).`;
  }
  return `refusing to read ${shownPattern}: ${start.baseRel} leads outside ${projectRoot} (to ${realBase}); nothing was searched. To search there, set path to that directory (it is judged like any path outside the project).`;
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function readlinkOr(p: string, fallback: string): string {
  try {
    return readlinkSync(p);
  } catch {
    return fallback;
  }
}

/** Whether `target` is `dir` or below it (both absolute and resolved). */
function contains(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * The files under `root` that `pattern` matches (picomatch syntax, dotfiles included), .gitignore
 * respected: ignored directories are pruned, `.git` skipped, symlinks listed as files and never
 * followed (walk.ts). The walk starts at the pattern's literal leading directories (`src/` of
 * `src/**\/*.ts`) and goes no deeper than a pattern without `**` can match. Stops early when
 * `signal` aborts.
 */
export async function globWalk(root: string, pattern: string, rules: IgnoreRules, signal?: AbortSignal): Promise<GlobWalk> {
  const start = globStart(root, pattern);
  const { base, baseRel } = start;
  const matches: GlobMatch[] = [];
  if (baseRel !== '' && rules.isIgnoredSync(base, true)) return { matches, base };
  const isMatch = fastMatcher(start.pattern);
  const baseDepth = baseRel === '' ? 0 : baseRel.split('/').length;
  const maxLevels = start.pattern.includes('**') ? Infinity : start.pattern.split('/').length - baseDepth;
  const mtimes = new MtimeReader();
  const onFile = (relPath: string, dir: string, entry: Dirent): void => {
    if (!isMatch(relPath)) return;
    const match: GlobMatch = { relPath, mtimeMs: 0, isLink: entry.isSymbolicLink() };
    matches.push(match);
    mtimes.read(childPath(dir, entry.name), match);
  };
  await walkTree(base, rules, onFile, { signal, maxLevels, links: true, relStart: baseRel });
  await mtimes.done();
  return { matches, base };
}

/**
 * picomatch's matcher without its per-call wrapping (a result object per path, options looked up
 * again): for a plain pattern it is exactly `input !== '' && (input === pattern || regex.test(input))`.
 */
function fastMatcher(pattern: string): (relPath: string) => boolean {
  const regex = picomatch.makeRe(pattern, { dot: true });
  return (relPath) => relPath !== '' && (relPath === pattern || regex.test(relPath));
}
