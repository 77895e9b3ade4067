import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Vitest global setup: end-to-end tests run the built `bin/seek.js`, so rebuild dist/ when any
 * source file is newer than the last build (a fresh clone builds in `npm ci` already). */
export default function setup(): void {
  let built = 0;
  try {
    built = statSync(join(ROOT, 'dist/cli/main.js')).mtimeMs;
  } catch {
    built = 0;
  }
  if (newestMtime(join(ROOT, 'src')) > built) {
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    } catch {
      // Unit tests can still run; end-to-end tests then use the previous build (CI builds in
      // `npm ci` and fails there first).
      process.stderr.write('\n*** build failed: end-to-end tests run against the previous dist/ ***\n\n');
    }
  }
}
