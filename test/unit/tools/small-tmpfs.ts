import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A mounted tmpfs of a few megabytes, to fill up for real ENOSPC errors. */
export interface SmallTmpfs {
  dir: string;
  /** Unmounts and removes the mount point. */
  remove(): void;
}

/**
 * Mounts a `sizeBytes` tmpfs on `at` (created if missing) or a fresh temp directory (needs root,
 * as here and in CI). Returns the
 * reason instead when it cannot, so a developer's run can skip with it; in CI (CI=true) it throws,
 * because those tests must run there.
 */
export function mountSmallTmpfs(sizeBytes: number, at?: string): SmallTmpfs | { skip: string } {
  if (at !== undefined) mkdirSync(at, { recursive: true });
  const dir = at ?? realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-enospc-')));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    const reason = `cannot mount a small tmpfs to cause ENOSPC (${stderr || (error as Error).message}); needs root`;
    if (process.env.CI === 'true') throw new Error(`${reason}. CI must run this test.`);
    return { skip: reason };
  }
  return {
    dir,
    remove() {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
