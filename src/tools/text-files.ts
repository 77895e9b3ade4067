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
