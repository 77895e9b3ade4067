import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

/**
 * Deny rules with globs (`Read(./.env.*)`, `Read(.env)` = `**\/.env`, `Read(**\/*.pem)`,
 * `Edit(config/*.yml)`) name files by pattern; a mount needs paths. So the files that match when a
 * command starts are found here, in the command's root, and mounted over like literal entries
 * (denied-paths.ts). Cost is bounded by the shape of the pattern:
 *  - glob in the last part only (`.env.*`, `config/*.yml`): one folder listed;
 *  - `**` (any depth): the tree under the literal prefix walked (`.git` skipped, links never
 *    followed), every directory's listing cached by its mtime and ctime, so a repeated command
 *    costs one lstat per directory (figures in docs/permissions-and-sandbox.md).
 * Synchronous on purpose: the sandbox is built when the gate allows a call, synchronously.
 * Not the tools' walker (src/tools/walk.ts sits above the sandbox, and prunes ignored folders,
 * where secrets such as `.env` usually are): this one skips nothing but `.git`.
 */

/** Whether a deny entry is a glob (rather than a literal path). */
export function isGlobEntry(entry: string): boolean {
  return /[*?[{]/.test(entry);
}

/** Past this many directories the walk stops; what it found so far is still hidden. */
export const MAX_WALK_DIRS = 200_000;

interface Listing {
  mtimeMs: number;
  ctimeMs: number;
  entries: { name: string; dir: boolean }[];
  /** What each set of patterns matched here, and which subfolders it enters (by patterns' key). */
  walked?: Map<string, { matches: string[]; subdirs: string[] }>;
}

const listings = new Map<string, Listing>();

/** The listing of `dir`, from the cache while its mtime and ctime are unchanged. */
function list(dir: string): Listing | undefined {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    listings.delete(dir);
    return undefined;
  }
  if (!st.isDirectory()) return undefined;
  const cached = listings.get(dir);
  if (cached && cached.mtimeMs === st.mtimeMs && cached.ctimeMs === st.ctimeMs) return cached;
  let dirents: Dirent[];
  try {
    dirents = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const listing: Listing = { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, entries: dirents.map((d) => ({ name: d.name, dir: d.isDirectory() })) };
  listings.set(dir, listing);
  return listing;
}

/** The literal folder a relative glob starts in, and the pattern below it. */
function splitGlob(pattern: string): { base: string; rest: string } {
  const clean = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  const parts = clean.split('/');
  const first = parts.findIndex((part) => isGlobEntry(part));
  return { base: parts.slice(0, first).join('/'), rest: parts.slice(first).join('/') };
}

/** Case-insensitive: a deny rule errs on the side of denying, and macOS's file system ignores case. */
const regexOf = (glob: string): RegExp => picomatch.makeRe(glob, { dot: true, nocase: true });

/** Existing paths in `start` matching one of `globs` (relative to `start`), walking only when one
 * of them reaches below the first level. */
function matchesUnder(start: string, globs: readonly string[]): string[] {
  const key = globs.join('\0');
  const regexes = globs.map(regexOf);
  const matches = (rel: string): boolean => regexes.some((re) => re.test(rel));
  const deep = globs.some((g) => g.includes('/') || g.includes('**'));
  const found: string[] = [];
  const stack: { dir: string; rel: string }[] = [{ dir: start, rel: '' }];
  let dirs = 0;
  while (stack.length > 0 && dirs < MAX_WALK_DIRS) {
    const { dir, rel } = stack.pop()!;
    dirs += 1;
    const listing = list(dir);
    if (!listing) continue;
    let memo = listing.walked?.get(key);
    if (!memo) {
      memo = { matches: [], subdirs: [] };
      for (const entry of listing.entries) {
        const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (matches(relPath)) memo.matches.push(path.join(dir, entry.name));
        else if (deep && entry.dir && entry.name !== '.git') memo.subdirs.push(entry.name);
      }
      (listing.walked ??= new Map()).set(key, memo);
    }
    found.push(...memo.matches);
    for (const name of memo.subdirs) stack.push({ dir: path.join(dir, name), rel: rel === '' ? name : `${rel}/${name}` });
  }
  return found;
}

/** Existing paths inside `root` that one relative glob matches. */
export function globMatchesInRoot(pattern: string, root: string): string[] {
  const { base, rest } = splitGlob(pattern);
  return matchesUnder(path.join(root, base), [rest]);
}

/** Every existing match of the relative glob entries in `root`: one walk per starting folder. */
export function globEntriesInRoot(entries: readonly string[], root: string): string[] {
  const byBase = new Map<string, string[]>();
  for (const entry of entries) {
    if (path.isAbsolute(entry) || entry.startsWith('~') || !isGlobEntry(entry)) continue;
    const { base, rest } = splitGlob(entry);
    byBase.set(base, [...(byBase.get(base) ?? []), rest]);
  }
  const found = [...byBase].flatMap(([base, globs]) => matchesUnder(path.join(root, base), [...new Set(globs)].sort()));
  return [...new Set(found)];
}

/**
 * A Seatbelt regex (POSIX extended, anchored) for a relative glob in `root`: `**\/` any folders,
 * `*` and `?` within one name, case-insensitive letters; what a later file matching the glob
 * would be is denied too (a path rule needs nothing to exist).
 */
export function seatbeltGlobRegex(pattern: string, root: string): string {
  const clean = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  let out = '';
  for (let i = 0; i < clean.length; i++) {
    const c = clean[i]!;
    if (clean.startsWith('**/', i)) {
      out += '(.*/)?';
      i += 2;
    } else if (clean.startsWith('**', i)) {
      out += '.*';
      i += 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (/[a-z]/i.test(c)) out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    else out += /[\\^$.|+()[\]{}]/.test(c) ? `\\${c}` : c;
  }
  const escapedRoot = root.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
  return `^${escapedRoot}/${out}(/.*)?$`;
}
