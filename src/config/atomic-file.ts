import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readdir, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { isProcessAlive } from '../util/process.js';

export interface AtomicWriteOptions {
  /** File mode of the new file (default 0o644). Applied to the temp file before the rename, so the
   * final path never exists with looser permissions, even for a moment. Ignored with `preserve`. */
  mode?: number;
  /** fsync the data before the rename and the directory after it. Use it for files whose loss would
   * hurt (config, the user's files); skip it for bookkeeping that is rewritten on every start
   * (manifest), to keep start-up cheap. */
  durable?: boolean;
  /**
   * Replace the file the way an editor does (the file tools use this):
   * - an existing file keeps its mode and, where the OS lets us, its owner and group; a new file
   *   gets 0o666 minus the umask, like any file a program creates;
   * - a symlink at `file` stays a symlink: the file it points to is replaced (a dangling link is
   *   refused, since nothing has checked where it points);
   * - temp files that a seek process killed mid-write left beside `file` are removed.
   */
  preserve?: boolean;
}

/** Marks temp files so a later write can recognise (and remove) the ones a killed writer left. */
const TEMP_MARK = '.seek-';
/** Keeps temp names under the usual 255-byte name limit however long the target's name is. */
const MAX_NAME_IN_TEMP = 100;

/**
 * Replaces `file` with `data` atomically: readers see the old content or the new content, never a
 * torn mix, and a failure part-way (a full disk, a kill) leaves the old file untouched. Writes a
 * uniquely named temp file in the same directory (same filesystem, so rename is atomic), then
 * renames it over the target; on any error the temp file is removed and the error rethrown.
 * Concurrent writers do not corrupt each other; the last rename wins. Creates the parent directory
 * if needed. What the rename cannot keep: hard links to the old file (they keep the old content),
 * extended attributes and ACLs, and — without `preserve` — a symlink at `file`, which is replaced.
 * A writer killed by SIGKILL leaves its temp file (`.<name>.seek-<pid>-<hex>.tmp`) behind; with
 * `preserve` the next write to the same file removes it.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const target = options.preserve ? await followSymlink(file) : file;
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  const existing = options.preserve ? await statIfFile(target) : undefined;
  if (options.preserve) await removeStaleTemps(target);
  const temp = join(dir, `${tempPrefix(target)}${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    // A new file under `preserve` is created like any other (0o666 minus the umask); otherwise the
    // temp starts private and gets its final mode below, before anyone can see it under `file`.
    const createMode = options.preserve && existing === undefined ? 0o666 : 0o600;
    const handle = await open(temp, 'wx', createMode);
    try {
      await handle.writeFile(data);
      if (existing !== undefined) await copyOwnerAndMode(handle, existing);
      else if (!options.preserve) await handle.chmod(options.mode ?? 0o644); // the umask may have narrowed it
      if (options.durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (options.durable) await syncDirectory(dir);
}

/** The file a symlink at `file` finally points to; `file` itself when it is not a link. */
async function followSymlink(file: string): Promise<string> {
  const info = await lstat(file).catch(() => undefined);
  if (info === undefined || !info.isSymbolicLink()) return file;
  try {
    return await realpath(file);
  } catch (error) {
    const pointsTo = await readlink(file).catch(() => '?');
    const reason = (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'a loop of links' : `${resolve(dirname(file), pointsTo)}, which does not exist`;
    throw Object.assign(new Error(`${file} is a symbolic link to ${reason}`), { code: 'EDANGLINGLINK', path: file });
  }
}

async function statIfFile(target: string): Promise<Stats | undefined> {
  try {
    const info = await stat(target);
    return info.isFile() ? info : undefined;
  } catch {
    return undefined; // absent: a new file
  }
}

async function copyOwnerAndMode(handle: FileHandle, existing: Stats): Promise<void> {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (existing.uid !== uid || existing.gid !== gid) {
    try {
      // Root keeps any owner; others can keep a group they belong to. Otherwise the file becomes
      // ours, as it would with any editor that saves by rename.
      await handle.chown(existing.uid, existing.gid);
    } catch {
      // EPERM: keep our own ownership.
    }
  }
  // After chown, which clears set-id bits.
  await handle.chmod(existing.mode & 0o7777);
}

function tempPrefix(target: string): string {
  return `.${basename(target).slice(0, MAX_NAME_IN_TEMP)}${TEMP_MARK}`;
}

/** Removes `target`'s temp files whose writer (the pid in the name) no longer runs. */
async function removeStaleTemps(target: string): Promise<void> {
  const prefix = tempPrefix(target);
  const pattern = /^(\d+)-[0-9a-f]{8}\.tmp$/;
  let names: string[];
  try {
    names = await readdir(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = pattern.exec(name.slice(prefix.length))?.[1];
    if (pid === undefined || processRuns(Number(pid))) continue;
    await rm(join(dirname(target), name), { force: true }).catch(() => undefined);
  }
}

/** Whether the writer `pid` still runs: this process (a write of ours in progress) or a live one. */
function processRuns(pid: number): boolean {
  return pid === process.pid || isProcessAlive(pid);
}

/** Makes the rename itself durable. Best effort: some systems cannot fsync a directory. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // EISDIR/EINVAL/EPERM on platforms or filesystems without directory fsync.
  }
}
