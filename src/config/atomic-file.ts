import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode of the new file (e.g. 0o600 for secrets). Applied to the temp file before the
   * rename, so the final path never exists with looser permissions, even for a moment. */
  mode?: number;
  /** fdatasync the data before the rename. Use it for files whose loss would hurt (config);
   * skip it for bookkeeping that is rewritten on every start (manifest), to keep start-up cheap. */
  durable?: boolean;
}

/**
 * Replaces `file` with `data` atomically: readers see the old content or the new content, never a
 * torn mix. Writes a uniquely named temp file in the same directory (same filesystem, so rename is
 * atomic), then renames it over the target. Concurrent writers do not corrupt each other; the last
 * rename wins. Creates the parent directory if needed.
 */
export async function writeFileAtomic(file: string, data: string, options: AtomicWriteOptions = {}): Promise<void> {
  const mode = options.mode ?? 0o644;
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data, 'utf8');
      // The umask may have narrowed the mode at creation; it never widens it. Set it exactly.
      await handle.chmod(mode);
      if (options.durable) await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
