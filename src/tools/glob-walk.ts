import type { Dirent } from 'node:fs';
import { statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { childPath, type IgnoreRules } from './gitignore.js';
import { TimeSlices } from './walk-slices.js';

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

/**
 * The files under `root` that `pattern` matches (picomatch syntax, dotfiles included), .gitignore
 * respected: ignored directories are pruned, `.git` skipped, symlinks listed as files and never
 * followed. The walk starts at the pattern's literal leading directories (`src/` of
 * `src/**\/*.ts`), goes no deeper than a pattern without `**` can match, and reads directories
 * synchronously in time slices (walk-slices.ts). Stops early when `signal` aborts.
 */
export async function globWalk(root: string, pattern: string, rules: IgnoreRules, signal?: AbortSignal): Promise<GlobWalk> {
  const normalised = pattern.replace(/^(\.\/)+/, '');
  const scan = picomatch.scan(normalised);
  const baseRel = scan.isGlob ? scan.base : path.posix.dirname(normalised);
  const baseParts = baseRel === '' || baseRel === '.' ? [] : baseRel.split('/').filter((part) => part !== '' && part !== '.');
  const base = path.join(root, ...baseParts);
  const matches: GlobMatch[] = [];
  if (baseParts.length > 0 && rules.isIgnoredSync(base, true)) return { matches, base };
  const isMatch = picomatch(normalised, { dot: true });
  const maxDepth = normalised.includes('**') ? Infinity : normalised.split('/').length;
  const slices = new TimeSlices();

  const visit = async (dir: string, relDir: string, depth: number): Promise<void> => {
    if (signal?.aborted) return;
    await slices.pause();
    let entries: Dirent[];
    try {
      entries = rules.readDirSync(dir);
    } catch {
      return; // unreadable or missing directory: nothing under it
    }
    const subdirs: [string, string][] = [];
    for (const entry of entries) {
      const relPath = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (depth < maxDepth) subdirs.push([childPath(dir, entry.name), relPath]);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && isMatch(relPath)) {
        matches.push({ relPath, mtimeMs: mtimeOf(childPath(dir, entry.name)), isLink: entry.isSymbolicLink() });
      }
    }
    for (const [absPath, relPath] of subdirs) await visit(absPath, relPath, depth + 1);
  };
  await visit(base, baseParts.join('/'), baseParts.length + 1);
  return { matches, base };
}

/** Modification time, 0 for a file that cannot be read (a dangling link): it sorts last. */
function mtimeOf(absPath: string): number {
  try {
    return statSync(absPath, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  } catch {
    return 0;
  }
}
