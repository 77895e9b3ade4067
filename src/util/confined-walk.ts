/**
 * The walk under confined-fs.ts: reaching a directory below an allowed root without following a
 * symbolic link at any component, checked at the moment each component is opened.
 *
 * Linux: a descriptor walk. The root is opened with O_DIRECTORY, then each component with
 * `open("/proc/self/fd/<parent>/<name>", O_DIRECTORY | O_NOFOLLOW)`. The /proc magic link resolves
 * to the directory the descriptor refers to, wherever it is now, so it acts like openat(2): a
 * component swapped for a symlink after it was opened cannot redirect anything, and one swapped
 * before is refused by O_NOFOLLOW. The final entry is then acted on through
 * `/proc/self/fd/<dir>/<name>` (create, rename, unlink, symlink never follow a final link).
 *
 * Elsewhere (macOS, a Linux without /proc): an lstat per component, and operations by path. Callers
 * re-check (`verify`) around what they create; that narrows the race to the moments between the
 * checks and the system calls, but does not close it.
 */
import { closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

export const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const DIR_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

/** What a refused operation was doing, for its message. */
export type ConfinedVerb = 'write' | 'create' | 'remove' | 'rename' | 'copy' | 'read' | 'link';

/**
 * A refusal: the operation would have gone through a symbolic link (or `..`) out of the root, or
 * through a link that appeared while it ran. Nothing was changed. `code` is `ECONFINED`.
 */
export class ConfinementError extends Error {
  readonly code = 'ECONFINED';
  constructor(
    readonly verb: ConfinedVerb,
    readonly target: string,
    readonly reason: string,
  ) {
    super(`refusing to ${verb} ${target}: ${reason}`);
  }
}

/** An error with an errno-style code, like the ones fs throws. */
export function codedError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

export function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

let procFd: boolean | undefined;

/** Whether /proc/self/fd works as openat here (probed once). */
export function usesProcFd(): boolean {
  procFd ??= probeProcFd();
  return procFd;
}

/** Tests run the fallback on Linux with `false`; `undefined` probes again. */
export function setProcFdForTesting(value: boolean | undefined): void {
  procFd = value;
}

function probeProcFd(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const fd = openSync('/', constants.O_RDONLY | O_DIRECTORY);
    try {
      return statSync(`/proc/self/fd/${fd}/.`).ino === statSync('/').ino;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** A target inside a root: the root's real path and the components below it (the last one is the
 * entry acted on). */
export interface Located {
  root: string;
  parts: string[];
  /** The target as the caller named it (absolute), for messages. */
  target: string;
  verb: ConfinedVerb;
}

/** The components of `abs` below `root`, or undefined when it is not below it (lexically). */
export function partsBelow(root: string, abs: string): string[] | undefined {
  const rel = path.relative(root, abs);
  if (rel === '') return [];
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep);
}

/** Resolves `target` (absolute, or relative to `root`) to components below the root, as written:
 * nothing is resolved, so `..` that leaves the root and the root itself are refused. */
export function locate(root: string, target: string, verb: ConfinedVerb): Located {
  const realRoot = realpathSync.native(root);
  const abs = path.resolve(root, target);
  const parts = partsBelow(root, abs) ?? partsBelow(realRoot, abs);
  if (parts === undefined || parts.length === 0) throw new ConfinementError(verb, abs, parts ? 'it is the root itself' : `it is outside ${root}`);
  return { root: realRoot, parts, target: abs, verb };
}

/**
 * Like `locate`, but symbolic links whose resolution stays inside the root are resolved first (so
 * the operation acts on the real path, itself walked without following anything). A link leading
 * out of the root refuses; a final link to nothing throws EDANGLINGLINK.
 */
export function locateFollowing(root: string, target: string, verb: ConfinedVerb): Located {
  const realRoot = realpathSync.native(root);
  const abs = path.resolve(root, target);
  const parts = partsBelow(realRoot, realTarget(abs));
  if (parts !== undefined && parts.length > 0) return { root: realRoot, parts, target: abs, verb };
  if (parts !== undefined) throw new ConfinementError(verb, abs, 'it is the root itself');
  const loc = { root: realRoot, target: abs, verb };
  throw leavingLink(loc, partsBelow(root, abs) ?? partsBelow(realRoot, abs) ?? []) ?? new ConfinementError(verb, abs, `it is outside ${root}`);
}

/** Where `abs` leads: the final link resolved (it must exist), and the real path of the rest. */
function realTarget(abs: string): string {
  if (lstatQuiet(abs)?.isSymbolicLink() !== true) return realOrLexical(abs);
  try {
    return realpathSync.native(abs);
  } catch (error) {
    const pointsTo = path.resolve(path.dirname(abs), readlinkQuiet(abs) ?? '?');
    const reason = errnoOf(error) === 'ELOOP' ? 'a loop of links' : `${pointsTo}, which does not exist`;
    throw Object.assign(new Error(`${abs} is a symbolic link to ${reason}`), { code: 'EDANGLINGLINK', path: abs });
  }
}

/** The refusal naming the first component of `parts` that is a link leading out of the root. */
function leavingLink(loc: Pick<Located, 'root' | 'target' | 'verb'>, parts: string[]): ConfinementError | undefined {
  let at = loc.root;
  for (const name of parts) {
    at = path.join(at, name);
    if (lstatQuiet(at)?.isSymbolicLink() !== true) continue;
    if (partsBelow(loc.root, realOrLexical(at)) === undefined) return linkRefusal(loc, at, readlinkQuiet(at));
  }
  return undefined;
}

/** A directory reached by `openDir`. Close it (finally) once done. */
export class ConfinedDir {
  constructor(
    /** Its descriptor (Linux), or undefined (the fallback acts by path). */
    readonly fd: number | undefined,
    /** Where it was when reached (real root + components): for messages and the fallback. */
    readonly path: string,
    private readonly identity: Stats | undefined,
    private readonly recheck: () => void,
  ) {}

  /** The path that names `name` in this directory without trusting any component above it. */
  entry(name: string): string {
    return this.fd === undefined ? path.join(this.path, name) : `/proc/self/fd/${this.fd}/${name}`;
  }

  list(): string[] {
    return readdirSync(this.fd === undefined ? this.path : `/proc/self/fd/${this.fd}`);
  }

  /** Fallback only: throws unless every component is still a real directory, this one the same
   * directory, and (given) `name` still the file `opened` (dev/ino). */
  verify(name?: string, opened?: { dev: number; ino: number }): void {
    if (this.fd !== undefined) return;
    this.recheck();
    const now = lstatSync(this.path);
    if (now.dev !== this.identity!.dev || now.ino !== this.identity!.ino) throw codedError('ECHANGED', `${this.path} was replaced`);
    if (name === undefined || opened === undefined) return;
    const entry = lstatSync(this.entry(name));
    if (entry.dev !== opened.dev || entry.ino !== opened.ino) throw codedError('ECHANGED', `${this.entry(name)} was replaced`);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
  }
}

/**
 * Opens the directory `loc.parts[0..depth)` below the root, creating missing components when
 * `create`. A component that is a symbolic link refuses (ConfinementError); one that is a file
 * throws ENOTDIR; a missing one (without `create`) throws ENOENT.
 */
export function openDir(loc: Located, depth: number, create: boolean): ConfinedDir {
  const names = loc.parts.slice(0, depth);
  return usesProcFd() ? walkDescriptors(loc, names, create) : walkPaths(loc, names, create);
}

function walkDescriptors(loc: Located, names: string[], create: boolean): ConfinedDir {
  let fd = openSync(loc.root, constants.O_RDONLY | O_DIRECTORY);
  let here = loc.root;
  try {
    for (const name of names) {
      const next = openChild(loc, fd, here, name, create);
      closeSync(fd);
      fd = next;
      here = path.join(here, name);
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return new ConfinedDir(fd, here, undefined, () => undefined);
}

function openChild(loc: Located, fd: number, here: string, name: string, create: boolean): number {
  const entry = `/proc/self/fd/${fd}/${name}`;
  try {
    return openSync(entry, DIR_FLAGS);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' && create) {
      makeDir(entry);
      try {
        return openSync(entry, DIR_FLAGS);
      } catch (again) {
        // Made a moment ago (by us or a racing creator) and gone again, or not a directory.
        throw errnoOf(again) === 'ENOENT' ? replaced(loc, path.join(here, name)) : explain(loc, entry, path.join(here, name), again);
      }
    }
    throw explain(loc, entry, path.join(here, name), error);
  }
}

function walkPaths(loc: Located, names: string[], create: boolean): ConfinedDir {
  const check = (making: boolean): string => {
    let here = loc.root;
    for (const name of names) {
      const next = path.join(here, name);
      let info = lstatSync(next, { throwIfNoEntry: false });
      if (info === undefined && making) {
        makeDir(next);
        info = lstatSync(next);
      }
      if (info === undefined) throw codedError('ENOENT', `no such directory: ${next}`);
      if (!info.isDirectory()) throw explain(loc, next, next, codedError('ENOTDIR', `not a directory: ${next}`));
      here = next;
    }
    return here;
  };
  const here = check(create);
  return new ConfinedDir(undefined, here, lstatSync(here), () => void check(false));
}

/** mkdir that tolerates a racing creator (whatever now stands there is checked by the open). */
function makeDir(entry: string): void {
  try {
    mkdirSync(entry, 0o777);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') throw error;
  }
}

/**
 * A failed open of a directory component: a symlink there becomes a ConfinementError, and so does
 * anything but a file there now (something else stood there a moment ago: it is being swapped).
 * A file there keeps its ENOTDIR.
 */
function explain(loc: Located, entry: string, shown: string, error: unknown): unknown {
  const code = errnoOf(error);
  if (code !== 'ENOTDIR' && code !== 'ELOOP') return error;
  const now = lstatQuiet(entry);
  if (now?.isSymbolicLink()) return linkRefusal(loc, shown, readlinkQuiet(entry));
  if (now === undefined || now.isDirectory()) return replaced(loc, shown);
  return error;
}

function replaced(loc: Located, shown: string): ConfinementError {
  return new ConfinementError(loc.verb, loc.target, `${path.relative(loc.root, shown) || shown} was replaced while seek was working on it`);
}

/** The text of a link; undefined when it is not one any more (replaced again meanwhile). */
export function readlinkQuiet(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}

/** The refusal for a symbolic link met at `at` (a path below the real root) holding `linkText`
 * (undefined: it was swapped again before it could be read). */
export function linkRefusal(loc: Pick<Located, 'root' | 'target' | 'verb'>, at: string, linkText: string | undefined): ConfinementError {
  const rel = path.relative(loc.root, at) || at;
  if (linkText === undefined) return new ConfinementError(loc.verb, loc.target, `${rel} is a symbolic link, swapped while seek was working on it`);
  const resolved = path.resolve(path.dirname(at), linkText);
  const leaves = partsBelow(loc.root, realOrLexical(resolved)) === undefined;
  const reason = leaves
    ? `${rel} is a symbolic link to ${linkText}, leading outside ${loc.root}`
    : `${rel} is a symbolic link to ${linkText} (it appeared while seek was working, or links are not followed here)`;
  return new ConfinementError(loc.verb, loc.target, reason);
}

/** lstat, or undefined for any failure (missing, a file as a parent, no permission). */
function lstatQuiet(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/** The real path of the longest existing prefix of `abs`, with the missing tail re-appended. */
export function realOrLexical(abs: string): string {
  const missing: string[] = [];
  for (let current = abs; ; ) {
    try {
      return path.join(realpathSync.native(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return abs;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
