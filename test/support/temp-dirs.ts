/**
 * Temporary directories for tests and benchmarks that remove themselves: under vitest after the
 * test file that made them (the module is loaded once per test file), elsewhere (benchmarks) when
 * the process exits. Removal survives what tests leave behind: read-only directories and files a
 * just-killed process was still writing.
 */
import { chmodSync, lstatSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

function removeAll(): void {
  for (const dir of made.splice(0)) removeTree(dir);
}

if (process.env['VITEST']) afterAll(removeAll);
else process.once('exit', removeAll);

/** A fresh directory under `parent` (default the OS temp dir), symlinks resolved, removed later. */
export function tempDir(prefix: string, parent = tmpdir()): string {
  const dir = realpathSync(mkdtempSync(join(parent, prefix)));
  made.push(dir);
  return dir;
}

/** `rm -rf`, making directories writable first when that is what stands in the way. */
export function removeTree(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    return;
  } catch {
    // EACCES under a read-only directory: open everything up and try again.
  }
  try {
    makeWritable(dir);
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    process.stderr.write(`could not remove the test directory ${dir}: ${String(error)}\n`);
  }
}

function makeWritable(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (lstatSync(path).isDirectory()) makeWritable(path);
  }
}
