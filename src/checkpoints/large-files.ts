/**
 * Files too large to copy into a checkpoint. A changed or new file above the size limit is left
 * out of the checkpoint's tree and recorded instead by size and SHA-256 ("not restorable"): a
 * rewind cannot bring it back, says so, and never overwrites or deletes one without --force.
 * Hashes are cached by path, inode, size and mtime, so an unchanged large file is read once per
 * process, not at every turn.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { mapLimit } from '../util/map-limit.js';

export interface UnrestorableFile {
  path: string;
  size: number;
  sha256: string;
}

const hashes = new Map<string, { key: string; sha256: string }>();

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Splits changed paths (relative to `root`) into those to copy and those above `maxFileSize`
 * (regular files only; a symlink or directory is never "large"). Paths that no longer exist are
 * copied (staged as deletions).
 */
export async function partitionBySize(root: string, paths: readonly string[], maxFileSize: number): Promise<{ copy: string[]; large: UnrestorableFile[] }> {
  const sized = await mapLimit(paths, 16, async (path) => ({ path, info: await lstat(join(root, path)).catch(() => undefined) }));
  const copy: string[] = [];
  const tooLarge: typeof sized = [];
  for (const entry of sized) {
    if (entry.info?.isFile() && entry.info.size > maxFileSize) tooLarge.push(entry);
    else copy.push(entry.path);
  }
  const large = await mapLimit(tooLarge, 2, async ({ path, info }) => {
    const key = `${info!.ino}:${info!.size}:${info!.mtimeMs}`;
    const full = join(root, path);
    let cached = hashes.get(full);
    if (cached?.key !== key) {
      cached = { key, sha256: await sha256Of(full) };
      hashes.set(full, cached);
    }
    return { path, size: info!.size, sha256: cached.sha256 };
  });
  return { copy, large };
}
