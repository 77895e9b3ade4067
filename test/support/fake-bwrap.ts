import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.js';

/** A bubblewrap stand-in (for SEEK_SANDBOX_BWRAP) that logs each run's first argument and passes
 * as a working bubblewrap: `--version` answers 0.9.0, every other run exits 0 without running
 * anything. Detection is keyed by the program's path, so each one gets its own detection. */
export function fakeBwrap(): { program: string; runs: () => string[] } {
  const dir = tempDir('seek-fake-bwrap-');
  const program = join(dir, 'bwrap');
  const log = join(dir, 'runs.log');
  writeFileSync(program, `#!/bin/sh\necho "$1" >> '${log}'\n[ "$1" = --version ] && echo 'bubblewrap 0.9.0'\nexit 0\n`);
  chmodSync(program, 0o755);
  return { program, runs: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}
