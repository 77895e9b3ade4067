import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Why `scripts/build.mjs` failed in this run; empty when dist/ is fresh. */
    seekBuildFailure: string;
  }
}

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
 * source file is newer than the last build (a fresh clone builds in `npm ci` already). A failed
 * build does not stop the unit tests, but every end-to-end file then fails at its start with the
 * build's errors (test-file-guards.ts) instead of testing the previous, stale dist/. */
export default function setup(project: TestProject): void {
  let built = 0;
  try {
    built = Math.min(...['dist/cli/main.cjs', 'dist/cli/headless.cjs', 'dist/launch.cjs'].map((file) => statSync(join(ROOT, file)).mtimeMs));
  } catch {
    built = 0;
  }
  let failure = '';
  if (Math.max(newestMtime(join(ROOT, 'src')), ...['scripts/build.mjs', 'scripts/vendor-chunks.mjs'].map((file) => statSync(join(ROOT, file)).mtimeMs)) > built) {
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
    const output = (build.stderr ?? '').trim();
    if (build.status !== 0) {
      failure = output || build.error?.message || `scripts/build.mjs ended with ${build.signal ?? `exit code ${build.status}`}`;
      process.stderr.write(`\n*** build failed: the end-to-end tests will fail ***\n${failure}\n\n`);
    } else if (output) {
      process.stderr.write(`${output}\n`); // esbuild's warnings
    }
  }
  project.provide('seekBuildFailure', failure);
}
