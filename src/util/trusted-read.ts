/**
 * The one reader for files a project (or the user) brings to seek as configuration or prompt text:
 * custom commands, skills, subagent definitions, `@file` mentions of commands, project
 * instructions (AGENTS.md, CLAUDE.md). A repository is not trusted to point these anywhere: a
 * command file that is a symbolic link to `/proc/self/environ` or `~/.aws/credentials` would
 * otherwise hand seek's environment or the user's credentials to the model as a prompt.
 *
 * The rule, for every file read here:
 *  1. the path is resolved through every symbolic link (realpath);
 *  2. the real path must not be under `/proc`, `/sys` or `/dev` (system files never are
 *     configuration), and must lie inside one of the folders the caller names (the project root for
 *     what a project brings; the user's own config folders, `~/.seek` and `~/.claude`, for what the
 *     user installed), themselves resolved;
 *  3. the real path is opened without following a link at its last component (O_NOFOLLOW) and
 *     without blocking (O_NONBLOCK: a FIFO must not hang seek), and the open descriptor must be a
 *     regular file (fstat: no FIFO, socket, device or directory), the same file the path resolved
 *     to (device and inode);
 *  4. at most `maxBytes` are read from the descriptor (never trusting the size a special file
 *     reports); a larger file is refused, or cut when the caller asks for that.
 * A refusal says what the file resolved to and why, so a notice can name the file and the reason.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Folders never read through this module, whatever a link says. */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev'] as const;

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

export interface TrustedReadOptions {
  /** The file's real path must lie inside one of these folders (resolved through links too). */
  within: readonly string[];
  /** Bytes read at most. */
  maxBytes: number;
  /** Over `maxBytes`: `refuse` (the default) or `truncate` (the first `maxBytes`, `truncated` set). */
  oversize?: 'refuse' | 'truncate';
  /** How the allowed folders are named in a refusal: "the project", "your config folders". */
  withinLabel?: string;
}

export type TrustedReadRefusal = 'missing' | 'outside' | 'system' | 'directory' | 'not-a-file' | 'too-large' | 'unreadable';

export type TrustedRead =
  | { ok: true; text: string; bytes: Buffer; realPath: string; size: number; truncated: boolean }
  | { ok: false; code: TrustedReadRefusal; reason: string; realPath?: string };

/** Reads `path` under the rule of the module comment. Never throws. */
export async function readTrustedFile(path: string, options: TrustedReadOptions): Promise<TrustedRead> {
  const absolute = resolve(path);
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (error) {
    return unresolvable(error);
  }
  const roots = await Promise.all(options.within.map((dir) => realpath(resolve(dir)).catch(() => resolve(dir))));
  const placed = placement(absolute, real, roots, options);
  if (placed) return placed;
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    const before = await stat(real);
    const kind = checkKind(before, real, absolute);
    if (kind) return kind;
    handle = await open(real, OPEN_FLAGS);
    const info = await handle.stat();
    const checked = checkDescriptor(info, before, real, absolute, options);
    if (checked) return checked;
    const limit = options.maxBytes + 1;
    const buffer = Buffer.alloc(Math.min(limit, Math.max(info.size + 1, 64 * 1024)));
    let filled = 0;
    let chunk = buffer;
    for (;;) {
      if (filled === chunk.length) {
        if (chunk.length >= limit) break;
        const bigger = Buffer.alloc(Math.min(limit, chunk.length * 2));
        chunk.copy(bigger, 0, 0, filled);
        chunk = bigger;
      }
      const { bytesRead } = await handle.read(chunk, filled, chunk.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return finish(chunk.subarray(0, filled), Math.max(info.size, filled), real, absolute, options);
  } catch (error) {
    return { ok: false, code: 'unreadable', reason: `cannot be read (${errnoText(error)})`, realPath: real };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The same rule, synchronously (start-up paths that are synchronous). */
export function readTrustedFileSync(path: string, options: TrustedReadOptions): TrustedRead {
  const absolute = resolve(path);
  let real: string;
  try {
    real = realpathSync.native(absolute);
  } catch (error) {
    return unresolvable(error);
  }
  const roots = options.within.map((dir) => {
    try {
      return realpathSync.native(resolve(dir));
    } catch {
      return resolve(dir);
    }
  });
  const placed = placement(absolute, real, roots, options);
  if (placed) return placed;
  let fd: number | undefined;
  try {
    const before = statSync(real);
    const kind = checkKind(before, real, absolute);
    if (kind) return kind;
    fd = openSync(real, OPEN_FLAGS);
    const info = fstatSync(fd);
    const checked = checkDescriptor(info, before, real, absolute, options);
    if (checked) return checked;
    const limit = options.maxBytes + 1;
    let chunk = Buffer.alloc(Math.min(limit, Math.max(info.size + 1, 64 * 1024)));
    let filled = 0;
    for (;;) {
      if (filled === chunk.length) {
        if (chunk.length >= limit) break;
        const bigger = Buffer.alloc(Math.min(limit, chunk.length * 2));
        chunk.copy(bigger, 0, 0, filled);
        chunk = bigger;
      }
      const read = readSync(fd, chunk, filled, chunk.length - filled, null);
      if (read === 0) break;
      filled += read;
    }
    return finish(chunk.subarray(0, filled), Math.max(info.size, filled), real, absolute, options);
  } catch (error) {
    return { ok: false, code: 'unreadable', reason: `cannot be read (${errnoText(error)})`, realPath: real };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether `real` (an absolute, link-free path) is under /proc, /sys or /dev. */
export function isSystemPath(real: string): boolean {
  return SYSTEM_FOLDERS.some((dir) => real === dir || real.startsWith(`${dir}/`));
}

/** Whether the absolute `target` is `root` or below it. */
export function isWithin(root: string, target: string): boolean {
  if (target === root) return true;
  const rel = relative(root, target);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** A size in the units limits are given in: `64 KiB`, `1.5 MiB`, `300 bytes`. */
export function formatLimit(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

function unresolvable(error: unknown): TrustedRead {
  const code = errnoCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, code: 'missing', reason: 'does not exist (or is a link to nothing)' };
  if (code === 'ELOOP') return { ok: false, code: 'unreadable', reason: 'is a loop of symbolic links' };
  return { ok: false, code: 'unreadable', reason: `cannot be resolved (${errnoText(error)})` };
}

const linkNote = (absolute: string, real: string): string => (absolute === real ? `is ${real}` : `links to ${real}`);

/** A refusal for where the file really is, or undefined when it may be read. */
function placement(absolute: string, real: string, roots: readonly string[], options: TrustedReadOptions): TrustedRead | undefined {
  if (isSystemPath(real)) {
    return { ok: false, code: 'system', realPath: real, reason: `${linkNote(absolute, real)}: files under /proc, /sys and /dev are never read` };
  }
  if (!roots.some((root) => isWithin(root, real))) {
    const where = options.withinLabel ?? roots.join(', ');
    return { ok: false, code: 'outside', realPath: real, reason: `${linkNote(absolute, real)}, outside ${where}` };
  }
  return undefined;
}

interface StatLike {
  dev: number;
  ino: number;
  size: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSymbolicLink(): boolean;
}

/** A refusal unless `info` is a regular file. */
function checkKind(info: StatLike, real: string, absolute: string): TrustedRead | undefined {
  if (info.isFile()) return undefined;
  return { ok: false, code: info.isDirectory() ? 'directory' : 'not-a-file', realPath: real, reason: `${linkNote(absolute, real)}, which is ${kindOf(info)}, not a regular file` };
}

/** The opened descriptor: a regular file, the one the path resolved to, not too large. */
function checkDescriptor(info: StatLike, before: StatLike, real: string, absolute: string, options: TrustedReadOptions): TrustedRead | undefined {
  const kind = checkKind(info, real, absolute);
  if (kind) return kind;
  if (before.dev !== info.dev || before.ino !== info.ino) {
    return { ok: false, code: 'unreadable', realPath: real, reason: 'changed while it was being opened' };
  }
  if (info.size > options.maxBytes && options.oversize !== 'truncate') return tooLarge(info.size, real, options);
  return undefined;
}

function finish(bytes: Buffer, size: number, real: string, _absolute: string, options: TrustedReadOptions): TrustedRead {
  const over = bytes.length > options.maxBytes || size > options.maxBytes;
  if (over && options.oversize !== 'truncate') return tooLarge(size, real, options);
  const kept = bytes.subarray(0, options.maxBytes);
  return { ok: true, text: kept.toString('utf8'), bytes: kept, realPath: real, size, truncated: over };
}

function tooLarge(size: number, real: string, options: TrustedReadOptions): TrustedRead {
  const what = size > options.maxBytes ? `${size} bytes` : 'more bytes than that';
  return { ok: false, code: 'too-large', realPath: real, reason: `${what} is over the ${formatLimit(options.maxBytes)} limit` };
}

function kindOf(info: StatLike): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

function errnoCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function errnoText(error: unknown): string {
  return errnoCode(error) ?? (error instanceof Error ? error.message : String(error));
}

/** Config files (permission rules, `.mcp.json`, hooks.toml) are never this large. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** A configuration file read under the rule above: its bytes, nothing when it does not exist,
 * or why it was refused (its content is never quoted, so a link to a secret leaks nothing). */
export type ConfigFileRead = { bytes: Buffer } | { missing: true } | { refused: string };

function configResult(file: string, read: TrustedRead): ConfigFileRead {
  if (read.ok) return { bytes: read.bytes };
  if (read.code === 'missing') return { missing: true };
  return { refused: `${file} ${read.reason}` };
}

/** Reads a config file that must lie inside `within` (see ConfigFileRead). */
export async function readConfigFile(file: string, within: readonly string[], withinLabel: string): Promise<ConfigFileRead> {
  return configResult(file, await readTrustedFile(file, { within, maxBytes: MAX_CONFIG_BYTES, withinLabel }));
}

/** readConfigFile, synchronously. */
export function readConfigFileSync(file: string, within: readonly string[], withinLabel: string): ConfigFileRead {
  return configResult(file, readTrustedFileSync(file, { within, maxBytes: MAX_CONFIG_BYTES, withinLabel }));
}
