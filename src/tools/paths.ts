import { realpathSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { ToolContext } from '../agent/types.js';
import { childOf, isNormalAbsolute } from '../util/normal-path.js';

/**
 * Turns a path the model wrote into an absolute, lexically normalised path: `~` and `~/…` expand
 * to the home directory, anything relative is taken against `ctx.cwd`. Symlinks are not resolved
 * here (the tools operate on the path as written); `isInside` resolves them for containment checks.
 */
export function resolvePath(ctx: Pick<ToolContext, 'cwd'>, p: string): string {
  const trimmed = p.trim();
  if (trimmed === '~') return homedir();
  if (trimmed.startsWith('~/')) return path.resolve(homedir(), trimmed.slice(2));
  if (isNormalAbsolute(trimmed)) return trimmed; // what path.resolve would return, without its pass
  return path.resolve(ctx.cwd, trimmed);
}

/**
 * True when `absPath` lies inside `root` (or is `root`) once symlinks are resolved, so neither
 * `../` nor a symlink pointing out of the project escapes. Paths that do not exist yet (a file
 * about to be written) are judged by the real path of their nearest existing ancestor.
 */
export function isInside(root: string, absPath: string): boolean {
  const realRoot = realpathOfNearestExisting(path.resolve(root));
  const realTarget = realpathOfNearestExisting(path.resolve(absPath));
  const relative = path.relative(realRoot, realTarget);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}

/** Real path of the longest existing prefix of `absPath`, with the missing tail re-appended. */
export function realpathOfNearestExisting(absPath: string): string {
  const missing: string[] = [];
  let current = absPath;
  for (;;) {
    try {
      return path.join(realpathSync.native(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absPath; // nothing exists, not even the root: keep it as is
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** How a path is shown to the model and on screens: relative to cwd when inside it, else absolute. */
export function displayPath(ctx: Pick<ToolContext, 'cwd'>, absPath: string): string {
  // Nearly every path shown lies under cwd: its tail, without path.relative (util/normal-path.ts).
  const under = childOf(ctx.cwd, absPath);
  if (under !== undefined) return under;
  const relative = path.relative(ctx.cwd, absPath);
  if (relative === '') return '.';
  if (relative.startsWith('..') || path.isAbsolute(relative)) return absPath;
  return relative;
}

/**
 * Up to three names in the same directory as a missing `absPath` that look like what was meant
 * (case difference, a typo or two, another extension), as paths in the form the model used.
 * Empty when the directory is unreadable; never throws.
 */
export async function suggestSimilarPaths(ctx: Pick<ToolContext, 'cwd'>, absPath: string): Promise<string[]> {
  const dir = path.dirname(absPath);
  const wanted = path.basename(absPath).toLowerCase();
  const wantedStem = stem(wanted);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const maxDistance = Math.max(1, Math.floor(wanted.length / 4));
  return names
    .map((name) => {
      const lower = name.toLowerCase();
      const distance = lower === wanted ? 0 : stem(lower) === wantedStem ? 1 : editDistance(lower, wanted, maxDistance);
      return { name, distance };
    })
    .filter((candidate) => candidate.distance <= maxDistance)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((candidate) => displayPath(ctx, path.join(dir, candidate.name)));
}

function stem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
