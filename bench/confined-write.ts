/**
 * Confined writes against the old atomic write (`npx tsx bench/confined-write.ts`): a small file (200 bytes)
 * at `a/b/c/file.txt` below a temporary project, replaced again and again. Medians of 7 runs of
 * 2,000 writes each (after a warm-up), runs alternating so machine load hits all alike:
 *   - writeFileAtomic (config/atomic-file.ts), as the file tools called it, `preserve` on;
 *   - writeFileConfined (util/confined-fs.ts) as the file tools call it now (`followLinks`, `preserve`);
 *   - the same through the lstat fallback (what macOS gets);
 * each with and without `durable` (fsync). Prints ms per write; asserts nothing.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../src/config/atomic-file.js';
import { setProcFdForTesting, usesProcFd, writeFileConfined } from '../src/util/confined-fs.js';

const WRITES = 2_000;
const DURABLE_WRITES = 200;
const RUNS = 7;
const DATA = 'x'.repeat(199) + '\n';

interface Variant {
  name: string;
  write: (root: string, file: string, durable: boolean) => Promise<void>;
}

const variants: Variant[] = [
  { name: 'writeFileAtomic (old)', write: (_root, file, durable) => writeFileAtomic(file, DATA, { preserve: true, durable }) },
  ...(usesProcFd() ? [confined('writeFileConfined, /proc/self/fd walk', true)] : []),
  confined('writeFileConfined, lstat fallback', false),
];

function confined(name: string, procFd: boolean): Variant {
  return {
    name,
    write: async (root, file, durable) => {
      setProcFdForTesting(procFd);
      await writeFileConfined(root, file, DATA, { preserve: true, durable, followLinks: true });
    },
  };
}

async function timeRun(variant: Variant, root: string, count: number, durable: boolean): Promise<number> {
  const file = join(root, 'a', 'b', 'c', 'file.txt');
  const start = performance.now();
  for (let i = 0; i < count; i++) await variant.write(root, file, durable);
  return (performance.now() - start) / count;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'seek-bench-confined-')));
  try {
    const root = join(base, 'project');
    mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
    for (const durable of [false, true]) {
      const count = durable ? DURABLE_WRITES : WRITES;
      const times = new Map<string, number[]>(variants.map((v) => [v.name, []]));
      for (const variant of variants) await timeRun(variant, root, 50, durable); // warm-up
      for (let run = 0; run < RUNS; run++) {
        for (const variant of variants) times.get(variant.name)!.push(await timeRun(variant, root, count, durable));
      }
      console.log(`\n${durable ? 'durable (fsync)' : 'not durable'}: ${count} writes of ${DATA.length} bytes to a/b/c/file.txt, median of ${RUNS} runs`);
      const baseline = median(times.get(variants[0]!.name)!);
      for (const variant of variants) {
        const ms = median(times.get(variant.name)!);
        console.log(`  ${variant.name.padEnd(40)} ${ms.toFixed(4)} ms/write  (${(ms / baseline).toFixed(2)}x)`);
      }
    }
  } finally {
    setProcFdForTesting(undefined);
    rmSync(base, { recursive: true, force: true });
  }
}

await main();
