import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileIndex } from '../../../../src/tui/input/file-index.js';

let root: string;

async function touch(relPath: string, content = ''): Promise<void> {
  const file = join(root, relPath);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seek-file-index-'));
  await mkdir(join(root, '.git'));
  await touch('.gitignore', 'node_modules/\n*.log\ndist\n');
  await touch('README.md');
  await touch('package.json');
  await touch('src/agent/loop.ts');
  await touch('src/agent/types.ts');
  await touch('src/tui/input/editor-state.ts');
  await touch('src/tui/input/InputEditor.tsx');
  await touch('src/tui/.gitignore', 'generated.ts\n');
  await touch('src/tui/generated.ts');
  await touch('node_modules/pkg/index.js');
  await touch('dist/seek.js');
  await touch('debug.log');
  await touch('.git/HEAD', 'ref: refs/heads/main\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const values = (items: Array<{ value: string }>) => items.map((item) => item.value);

describe('createFileIndex', () => {
  it('lists files and their directories, respecting every .gitignore and skipping .git', async () => {
    const index = createFileIndex(root, { limit: 100 });
    await index.ready;
    const all = values(index.search(''));
    expect(all).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        '.gitignore',
        'src/',
        'src/agent/',
        'src/agent/loop.ts',
        'src/tui/input/InputEditor.tsx',
        'src/tui/.gitignore',
      ]),
    );
    for (const ignored of ['node_modules/', 'node_modules/pkg/index.js', 'dist/seek.js', 'debug.log', 'src/tui/generated.ts', '.git/HEAD']) {
      expect(all).not.toContain(ignored);
    }
  });

  it('finds paths fuzzily, best first, at most 8 by default', async () => {
    const index = createFileIndex(root);
    await index.ready;
    expect(values(index.search('loop'))[0]).toBe('src/agent/loop.ts');
    expect(values(index.search('inputed'))[0]).toBe('src/tui/input/InputEditor.tsx');
    expect(values(index.search('edstate'))).toContain('src/tui/input/editor-state.ts');
    expect(index.search('zzzz')).toEqual([]);
    for (let count = 0; count < 10; count++) await touch(`many/file-${count}.ts`);
    await index.refresh();
    expect(index.search('file')).toHaveLength(8);
  });

  it('offers the shortest paths for an empty query', async () => {
    const index = createFileIndex(root, { limit: 3 });
    await index.ready;
    expect(values(index.search(''))).toEqual(['src/', 'README.md', '.gitignore']);
  });

  it('ignores a leading ./ in the query', async () => {
    const index = createFileIndex(root);
    await index.ready;
    expect(values(index.search('./README'))[0]).toBe('README.md');
  });

  it('stops listing at maxFiles', async () => {
    const index = createFileIndex(root, { maxFiles: 2, limit: 100 });
    await index.ready;
    const files = values(index.search('')).filter((path) => !path.endsWith('/'));
    expect(files).toHaveLength(2);
  });

  it('picks up new files on refresh', async () => {
    const index = createFileIndex(root);
    await index.ready;
    expect(values(index.search('brand-new'))).toEqual([]);
    await touch('docs/brand-new.md');
    await index.refresh();
    expect(values(index.search('brand-new'))[0]).toBe('docs/brand-new.md');
  });

  it('gives no paths for a missing root instead of failing', async () => {
    const index = createFileIndex(join(root, 'does-not-exist'));
    await index.ready;
    expect(index.search('')).toEqual([]);
    expect(index.size()).toBe(0);
  });
});
