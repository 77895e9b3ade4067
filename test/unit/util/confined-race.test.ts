import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfinementError, usesProcFd, writeFileConfined } from '../../../src/util/confined-fs.js';

/**
 * A sandboxed background job racing seek's own writes: it keeps swapping `root/a/b` between a real
 * directory and a symlink to a directory outside the root (by rename, in a tight loop, in its own
 * process so it truly runs in parallel). It prints its swap count every 64 swaps.
 */
const SWAPPER = `
const fs = require('fs');
const path = require('path');
const [a, outside] = process.argv.slice(1);
const b = path.join(a, 'b');
let swaps = 0;
for (let n = 0; ; n++) {
  const aside = path.join(a, 'aside-' + n);
  try { fs.renameSync(b, aside); } catch {}
  try { fs.symlinkSync(outside, b + '.tmp'); fs.renameSync(b + '.tmp', b); } catch { try { fs.unlinkSync(b + '.tmp'); } catch {} }
  try { fs.renameSync(b, b + '.gone'); fs.unlinkSync(b + '.gone'); } catch {}
  try { fs.renameSync(aside, b); } catch {}
  if (++swaps % 64 === 0) process.stdout.write(swaps + '\\n');
}
`;

const WRITES = 1000;

let swapper: ChildProcess | undefined;
let base: string | undefined;
afterEach(() => {
  swapper?.kill('SIGKILL');
  swapper = undefined;
  if (base) rmSync(base, { recursive: true, force: true });
  base = undefined;
});

/** Starts the swapper; resolves once it has swapped, with a getter for its latest count. */
async function startSwapper(a: string, outside: string): Promise<() => number> {
  const child = spawn(process.execPath, ['-e', SWAPPER, a, outside], { stdio: ['ignore', 'pipe', 'inherit'] });
  swapper = child;
  let count = 0;
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the swapper exited (${code}) before swapping`)));
    lines.on('line', (line) => {
      count = Number(line);
      resolve();
    });
  });
  return () => count;
}

describe.skipIf(!usesProcFd())('confined writes racing a directory swapped for a symlink', () => {
  it(`${WRITES} writes to root/a/b/f<i>.txt: none lands outside`, async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-race-')));
    const root = path.join(base, 'project');
    const outside = path.join(base, 'outside');
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    mkdirSync(outside);

    const swaps = await startSwapper(path.join(root, 'a'), outside);
    const startSwaps = swaps();
    let refused = 0;
    let otherErrors = 0;
    const codes = new Map<string, number>();
    for (let i = 0; i < WRITES; i++) {
      try {
        await writeFileConfined(root, `a/b/f${i}.txt`, `write ${i}\n`);
      } catch (error) {
        if (error instanceof ConfinementError) refused++;
        else otherErrors++;
        const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
    }
    const racedSwaps = swaps() - startSwaps;
    swapper!.kill('SIGKILL');

    const landedOutside = readdirSync(outside);
    console.log(
      `race: ${WRITES} writes, ${refused} refused (ECONFINED), ${otherErrors} other errors ${JSON.stringify(Object.fromEntries(codes))}, ` +
        `${landedOutside.length} landed outside; the swapper swapped ${racedSwaps}+ times meanwhile`,
    );
    expect(racedSwaps).toBeGreaterThan(0); // the race really ran
    expect(landedOutside).toEqual([]);
  });
});
