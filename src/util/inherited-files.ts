import { closeSync, constants, openSync } from 'node:fs';

/**
 * The descriptors a spawn's `inheritFiles` (agent/types.ts CommandSpawn) become (3, 4, … in the child), opened read-only and
 * without following a final symlink. `close()` drops the parent's copies: call it once the child
 * has started (or failed to), as the child holds its own. Throws when a file cannot be opened, so
 * a sandbox whose seccomp filter is missing never runs the command unfiltered.
 */
export function openInheritedFiles(files: readonly string[] = []): { fds: number[]; close(): void } {
  const fds: number[] = [];
  try {
    for (const file of files) fds.push(openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)));
  } catch (error) {
    closeAll(fds);
    throw error;
  }
  return { fds, close: () => closeAll(fds) };
}

function closeAll(fds: number[]): void {
  for (const fd of fds.splice(0)) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
}
