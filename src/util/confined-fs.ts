/**
 * seek's own writes into a tree it must not leave (the project, a worktree): file tools, checkpoint
 * restores, worktree include copies and links. They run outside the OS sandbox while sandboxed
 * commands (background jobs) may run in the same tree, and such a command can swap a directory for
 * a symbolic link to anywhere at any moment.
 *
 * The contract of every operation here: given an allowed `root` and a target below it, no path
 * component below the root is followed through a symbolic link, checked at the moment of the
 * operation (see confined-walk.ts for how, and for the weaker fallback off Linux). A refusal throws
 * a ConfinementError (`code` ECONFINED) and changes nothing: a replaced file stays as it was.
 *
 * `followLinks` (write_file's "a symlink stays a symlink"): links whose full resolution stays inside
 * the root are resolved first, then the real path is acted on under the same contract; a link
 * leading out of the root refuses.
 */
import { randomBytes } from 'node:crypto';
import { constants, fsync, lstatSync, readlinkSync, realpathSync, renameSync, rmdirSync, symlinkSync, unlinkSync, type Stats } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import {
  codedError,
  errnoOf,
  linkRefusal,
  locate,
  locateFollowing,
  O_NOFOLLOW,
  openDir,
  partsBelow,
  readlinkQuiet,
  realOrLexical,
  type ConfinedDir,
  type Located,
} from './confined-walk.js';
import { isProcessAlive } from './process.js';

export { ConfinementError, setProcFdForTesting, usesProcFd, type ConfinedVerb } from './confined-walk.js';

const fsyncAsync = promisify(fsync);
const NEW_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;
/** Marks temp files so a later write can recognise (and remove) the ones a killed writer left. */
const TEMP_MARK = '.seek-';
/** Keeps temp names under the usual 255-byte name limit however long the target's name is. */
const MAX_NAME_IN_TEMP = 100;
const COPY_CHUNK = 256 * 1024;

export interface ConfinedWriteOptions {
  /** Mode of the file written (default: an existing file's with `preserve`, else 0o666 less the umask). */
  mode?: number;
  /** An existing file keeps its mode and, where the OS lets us, its owner and group; temp files a
   * killed seek left beside it are removed (what an editor's save does). */
  preserve?: boolean;
  /** fsync the data before the rename and the directory after it. */
  durable?: boolean;
  /** Resolve links that stay inside the root first (see the file comment). Without it a link below
   * the root refuses, and one at the final entry is replaced by the new file. */
  followLinks?: boolean;
  /** Create only: EEXIST when the entry exists. The file is written in place (no temp file), so use
   * it for files nobody reads yet (a new worktree's copies). */
  exclusive?: boolean;
}

type Fill = (handle: FileHandle) => Promise<void>;

/**
 * Replaces (or creates) `file` below `root` with `data`, atomically: a temp file in the same
 * directory, written, synced with `durable`, then renamed over the target; on any failure the temp
 * file is removed and the old file is untouched. Missing parent directories are created, confined.
 */
export async function writeFileConfined(root: string, file: string, data: string | Uint8Array, options: ConfinedWriteOptions = {}): Promise<void> {
  const loc = (options.followLinks ? locateFollowing : locate)(root, file, 'write');
  await writeLocated(loc, (handle) => handle.writeFile(data), options);
}

/**
 * Copies the regular file `from.path` (below `from.root`) to `to.path` (below `to.root`), both
 * confined: the source is opened without following any link (a link there refuses, so nothing from
 * outside the source tree is copied in), the destination written as by writeFileConfined. The copy
 * gets the source's mode unless `options.mode` says otherwise.
 */
export async function copyFileConfined(from: { root: string; path: string }, to: { root: string; path: string }, options: ConfinedWriteOptions = {}): Promise<void> {
  const source = await openFileConfined(locate(from.root, from.path, 'copy'));
  try {
    const info = await source.stat();
    if (!info.isFile()) throw codedError('EINVAL', `${from.path} is not a regular file`);
    const loc = (options.followLinks ? locateFollowing : locate)(to.root, to.path, 'write');
    await writeLocated(loc, (handle) => copyInto(source, handle), { mode: info.mode & 0o7777, ...options });
  } finally {
    await source.close();
  }
}

/** Reads `file` below `root`: no link followed (with `followLinks`, links inside the root are). */
export async function readFileConfined(root: string, file: string, options: { followLinks?: boolean } = {}): Promise<Buffer> {
  const handle = await openFileConfined((options.followLinks ? locateFollowing : locate)(root, file, 'read'));
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** `mkdir -p` below `root`, no link followed (with `followLinks`, links inside the root are). */
export function mkdirConfined(root: string, dir: string, options: { followLinks?: boolean } = {}): void {
  const loc = (options.followLinks ? locateFollowing : locate)(root, dir, 'create');
  openDir(loc, loc.parts.length, true).close();
}

/** lstat of the entry itself (a link is reported as a link); undefined when it or a parent is
 * missing. Throws ConfinementError when a parent is a link. */
export function lstatConfined(root: string, file: string): Stats | undefined {
  return inParent(locate(root, file, 'read'), false, (dir, name) => lstatSync(dir.entry(name), { throwIfNoEntry: false }), () => undefined);
}

/** The text of the symbolic link `file` below `root` (its parents are not followed). */
export function readlinkConfined(root: string, file: string): string {
  return inParent(locate(root, file, 'read'), false, (dir, name) => readlinkSync(dir.entry(name)));
}

/** Removes the file or symbolic link `file` (never a directory); false when it was not there. */
export function unlinkConfined(root: string, file: string): boolean {
  const gone = (): boolean => false;
  return inParent(
    locate(root, file, 'remove'),
    false,
    (dir, name) => {
      const info = lstatSync(dir.entry(name), { throwIfNoEntry: false });
      if (info === undefined) return false;
      if (info.isDirectory()) throw codedError('EISDIR', `${file} is a directory`);
      try {
        unlinkSync(dir.entry(name));
      } catch (error) {
        if (errnoOf(error) === 'ENOENT') return false; // removed meanwhile
        throw error;
      }
      return true;
    },
    gone,
  );
}

/** Removes the directory `dir` when it is empty; false when it is not empty or not there. */
export function rmdirIfEmptyConfined(root: string, dir: string): boolean {
  return inParent(
    locate(root, dir, 'remove'),
    false,
    (parent, name) => {
      try {
        rmdirSync(parent.entry(name));
        return true;
      } catch (error) {
        if (['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes(errnoOf(error) ?? '')) return false;
        throw error;
      }
    },
    () => false,
  );
}

/** Renames `from` to `to`, both below `root` (what stands at `to` is replaced, not followed). */
export function renameConfined(root: string, from: string, to: string): void {
  const source = locate(root, from, 'rename');
  const target = locate(root, to, 'rename');
  inParent(source, false, (sourceDir, sourceName) =>
    inParent(target, true, (targetDir, targetName) => renameSync(sourceDir.entry(sourceName), targetDir.entry(targetName))),
  );
}

/**
 * Creates the symbolic link `link` below `root` holding `target` (the text is stored as given; the
 * caller decides whether it is safe to point there). Parents are created, confined. With `replace`,
 * whatever file or link stands at `link` is replaced atomically; otherwise EEXIST.
 */
export function symlinkConfined(root: string, link: string, target: string, options: { replace?: boolean } = {}): void {
  inParent(locate(root, link, 'link'), true, (dir, name) => {
    if (!options.replace) return symlinkSync(target, dir.entry(name));
    const temp = tempName(name);
    symlinkSync(target, dir.entry(temp));
    try {
      dir.verify(temp, lstatSync(dir.entry(temp)));
      renameSync(dir.entry(temp), dir.entry(name));
    } catch (error) {
      tryUnlinkSync(dir.entry(temp));
      throw error;
    }
  });
}

/**
 * Whether a symbolic link at `link` (below `root`) holding `text` points inside the root: its
 * target, resolved from the link's directory, is below the root both as written and with every
 * existing link on the way resolved. What a copied link may hold (a copy must not carry a way out).
 */
export function linkTargetInside(root: string, link: string, text: string): boolean {
  const abs = path.resolve(root, link);
  const resolved = path.resolve(path.dirname(abs), text);
  if (partsBelow(root, resolved) === undefined) return false;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    return false;
  }
  return partsBelow(realRoot, realOrLexical(resolved)) !== undefined;
}

/**
 * Runs `act` on the parent directory of `loc`'s entry, reached confined (created with `create`),
 * and closes it. A missing parent calls `missing` (or throws ENOENT without one).
 */
function inParent<T>(loc: Located, create: boolean, act: (dir: ConfinedDir, name: string) => T, missing?: () => T): T {
  let dir: ConfinedDir;
  try {
    dir = openDir(loc, loc.parts.length - 1, create);
  } catch (error) {
    if (missing && errnoOf(error) === 'ENOENT') return missing();
    throw error;
  }
  try {
    return act(dir, loc.parts.at(-1)!);
  } finally {
    dir.close();
  }
}

async function writeLocated(loc: Located, fill: Fill, options: ConfinedWriteOptions): Promise<void> {
  const dir = openDir(loc, loc.parts.length - 1, true);
  try {
    const name = loc.parts.at(-1)!;
    const existing = lstatSync(dir.entry(name), { throwIfNoEntry: false });
    if (existing?.isDirectory()) throw codedError('EISDIR', `${loc.target} is a directory`);
    // Resolved as a real path a moment ago: a link here now was planted since. Refuse, never follow.
    if (existing?.isSymbolicLink() && options.followLinks) throw linkRefusal(loc, path.join(dir.path, name), readlinkQuiet(dir.entry(name)));
    if (options.exclusive) return await createExclusive(dir, name, fill, options);
    if (options.preserve) removeStaleTemps(dir, name);
    await replaceAtomically(dir, name, fill, options, existing?.isFile() ? existing : undefined);
  } finally {
    dir.close();
  }
}

async function replaceAtomically(dir: ConfinedDir, name: string, fill: Fill, options: ConfinedWriteOptions, existing: Stats | undefined): Promise<void> {
  const temp = tempName(name);
  try {
    await writeNew(dir, temp, fill, options, options.preserve ? existing : undefined);
    dir.verify(); // fallback: the directory is still the one walked to
    await rename(dir.entry(temp), dir.entry(name));
  } catch (error) {
    await unlink(dir.entry(temp)).catch(() => undefined);
    throw error;
  }
  if (options.durable) await syncDirectory(dir);
}

/** Makes the rename itself durable. Best effort: some systems cannot fsync a directory. */
async function syncDirectory(dir: ConfinedDir): Promise<void> {
  try {
    if (dir.fd !== undefined) return await fsyncAsync(dir.fd);
    const handle = await open(dir.path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // EISDIR/EINVAL/EPERM on platforms or filesystems without directory fsync.
  }
}

async function createExclusive(dir: ConfinedDir, name: string, fill: Fill, options: ConfinedWriteOptions): Promise<void> {
  let created = false;
  try {
    await writeNew(dir, name, fill, options, undefined, () => (created = true));
  } catch (error) {
    if (created) await unlink(dir.entry(name)).catch(() => undefined);
    throw error;
  }
}

/** Creates `name` (O_EXCL, O_NOFOLLOW: never through a link), fills it and sets its mode. */
async function writeNew(dir: ConfinedDir, name: string, fill: Fill, options: ConfinedWriteOptions, existing: Stats | undefined, onCreate?: () => void): Promise<void> {
  // A new file without a given mode is created like any other (0o666 minus the umask); with one,
  // it starts private and gets its mode before anyone can see it under the target's name.
  const handle = await open(dir.entry(name), NEW_FILE, options.mode === undefined && existing === undefined ? 0o666 : 0o600).catch((error: unknown) => {
    // The descriptor's directory itself was deleted (a racing command removed it).
    throw errnoOf(error) === 'ENOENT' && dir.fd !== undefined ? codedError('ENOENT', `${dir.path} was removed while seek was writing in it`) : error;
  });
  onCreate?.();
  try {
    dir.verify(name, await handle.stat()); // fallback: it was created where we walked to
    await fill(handle);
    if (existing !== undefined) await copyOwnerAndMode(handle, existing);
    else if (options.mode !== undefined) await handle.chmod(options.mode);
    if (options.durable) await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Opens the regular file at `loc` for reading; a link at any component refuses. */
async function openFileConfined(loc: Located): Promise<FileHandle> {
  const dir = openDir(loc, loc.parts.length - 1, false);
  try {
    const name = loc.parts.at(-1)!;
    let handle: FileHandle;
    try {
      handle = await open(dir.entry(name), constants.O_RDONLY | O_NOFOLLOW);
    } catch (error) {
      if (errnoOf(error) !== 'ELOOP') throw error;
      throw linkRefusal(loc, path.join(dir.path, name), readlinkQuiet(dir.entry(name)));
    }
    try {
      dir.verify(name, await handle.stat());
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle;
  } finally {
    dir.close();
  }
}

async function copyInto(source: FileHandle, target: FileHandle): Promise<void> {
  const buffer = Buffer.allocUnsafe(COPY_CHUNK);
  for (let position = 0; ; ) {
    const { bytesRead } = await source.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return;
    await target.write(buffer, 0, bytesRead);
    position += bytesRead;
  }
}

async function copyOwnerAndMode(handle: FileHandle, existing: Stats): Promise<void> {
  if (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.()) {
    // Root keeps any owner; others a group they belong to; otherwise the file becomes ours, as
    // with any editor that saves by rename. chown before chmod: chown clears set-id bits.
    await handle.chown(existing.uid, existing.gid).catch(() => undefined);
  }
  await handle.chmod(existing.mode & 0o7777);
}

function tempPrefix(name: string): string {
  return `.${name.slice(0, MAX_NAME_IN_TEMP)}${TEMP_MARK}`;
}

function tempName(name: string): string {
  return `${tempPrefix(name)}${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
}

/** Removes `name`'s temp files whose writer (the pid in the name) no longer runs. */
function removeStaleTemps(dir: ConfinedDir, name: string): void {
  const prefix = tempPrefix(name);
  const pattern = /^(\d+)-[0-9a-f]{8}\.tmp$/;
  let names: string[];
  try {
    names = dir.list();
  } catch {
    return;
  }
  for (const entry of names) {
    if (!entry.startsWith(prefix)) continue;
    const pid = pattern.exec(entry.slice(prefix.length))?.[1];
    if (pid !== undefined && !processRuns(Number(pid))) tryUnlinkSync(dir.entry(entry));
  }
}

/** Whether the writer `pid` still runs: this process (a write of ours in progress) or a live one. */
function processRuns(pid: number): boolean {
  return pid === process.pid || isProcessAlive(pid);
}

function tryUnlinkSync(entry: string): void {
  try {
    unlinkSync(entry);
  } catch {
    // Already gone.
  }
}
