import { statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MtimeReader, mtimeOf, setStatWorkerSourceForTesting } from '../../../src/tools/glob-stat.js';
import { tempDir, writeTree } from './helpers.js';

/** Six files and a dangling link; each target's mtimeMs read through `reader`. */
async function readAll(reader: MtimeReader): Promise<{ got: number[]; want: number[] }> {
  const root = tempDir('seek-glob-stat-');
  const names = ['a', 'b', 'c', 'd', 'e', 'f'];
  writeTree(root, Object.fromEntries(names.map((name) => [`${name}.ts`, name])));
  symlinkSync(path.join(root, 'missing'), path.join(root, 'dangling.ts'));
  const files = [...names.map((name) => path.join(root, `${name}.ts`)), path.join(root, 'dangling.ts')];
  const targets = files.map(() => ({ mtimeMs: -1 }));
  files.forEach((file, index) => reader.read(file, targets[index]!));
  await reader.done();
  const want = files.map((file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
  return { got: targets.map((target) => target.mtimeMs), want };
}

describe('glob modification times', () => {
  afterEach(() => setStatWorkerSourceForTesting(undefined));

  it('reads the same times inline and through the worker, 0 for a dangling link', async () => {
    const inline = await readAll(new MtimeReader(100, 4));
    expect(inline.got).toEqual(inline.want);
    expect(inline.got.at(-1)).toBe(0);
    const worker = await readAll(new MtimeReader(2, 2));
    expect(worker.got).toEqual(worker.want);
    expect(worker.got.slice(0, -1).every((mtime) => mtime > 0)).toBe(true);
  });

  it('falls back to inline stats when the worker dies', async () => {
    await setStatWorkerSourceForTesting('process.exit(3)');
    const { got, want } = await readAll(new MtimeReader(0, 3));
    expect(got).toEqual(want);
    expect(got.every((mtime) => mtime !== -1)).toBe(true);
    expect(mtimeOf('/nonexistent/seek-glob-stat')).toBe(0);
  });
});
