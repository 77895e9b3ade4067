import { open } from 'node:fs/promises';

/** How much of a file's start is checked for NUL bytes, like git and ripgrep do. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

/** A file is treated as binary when its first 8 KiB contain a NUL byte. */
export function looksBinary(head: Buffer): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** The first `bytes` bytes of a file (fewer if it is shorter). */
export async function readHead(absPath: string, bytes: number = BINARY_SNIFF_BYTES): Promise<Buffer> {
  const handle = await open(absPath, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Human-readable byte size: `512 B`, `14.2 KiB`, `3.0 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GiB`;
}

/** Node's error code (`ENOENT`, `EISDIR`…) of a thrown value, if any. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What an OS error code means, in words a model (and a person) can act on. */
const WRITE_FAILURE_REASONS: Record<string, string> = {
  ENOSPC: 'No space left on device',
  EDQUOT: 'Disk quota exceeded',
  EROFS: 'Read-only file system',
  EFBIG: 'File too large for this file system',
  EIO: 'I/O error',
  EACCES: 'Permission denied (the file is replaced through a temporary file in its directory, so the directory must be writable too)',
  EPERM: 'Operation not permitted (the file is replaced through a temporary file in its directory, so the directory must be writable too)',
};

/**
 * The model-facing message for a failed atomic write of `shown`: what went wrong, and that nothing
 * was damaged (the write goes to a temp file that is removed on failure; see writeFileAtomic).
 * `existed` says whether there was an original file to keep.
 */
export function writeFailureMessage(error: unknown, shown: string, existed: boolean): string {
  const code = errorCode(error);
  const outcome = existed ? 'the original file is unchanged' : 'no file was created';
  if (code === 'EDANGLINGLINK') return `Cannot write ${shown}: ${errorMessage(error)}; ${outcome}.`;
  // The gate's check of where the write really lands (project-files.ts): the message says where.
  if (code === 'EREDIRECTED') return `Cannot write ${shown}: ${errorMessage(error)}.`;
  // A symbolic link leading out of the project (util/confined-fs.ts): the message names it.
  if (code === 'ECONFINED') return `${errorMessage(error)}; ${outcome}.`;
  const reason = (code !== undefined && WRITE_FAILURE_REASONS[code]) || `Error (${errorMessage(error)})`;
  return `${reason} while writing ${shown}; ${outcome}.`;
}
