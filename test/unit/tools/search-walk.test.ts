import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IgnoreRules } from '../../../src/tools/gitignore.js';
import { globWalk } from '../../../src/tools/glob-walk.js';
import { readSearchableSync, searchText, wholeFilePrefilter } from '../../../src/tools/grep-worker.js';
import { TimeSlices } from '../../../src/tools/walk-slices.js';
import { walkTree } from '../../../src/tools/walk.js';
import { tempDir, writeTree } from './helpers.js';

async function walked(root: string): Promise<string[]> {
  const rules = await IgnoreRules.forRoot(root);
  const files: string[] = [];
  await walkTree(root, rules, (relPath) => void files.push(relPath), { sorted: true });
  return files;
}

describe('the shared walk (sync reads in time slices)', () => {
  it('lists files in path order, pruning ignored directories, with deeper .gitignore files deciding', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, '.git'));
    writeTree(root, {
      '.gitignore': '*.log\nbuild/\n',
      'a/.gitignore': '!keep.log\n',
      'a/keep.log': '', 'a/drop.txt': '', 'a/b/x.log': '', 'b.ts': '', 'build/out.js': '', 'a-b.ts': '',
      'node/build/deep.js': '', '.git/config': '',
    });
    expect(await walked(root)).toEqual(['.gitignore', 'a-b.ts', 'a/.gitignore', 'a/drop.txt', 'a/keep.log', 'b.ts']);
  });

  it('bounds the depth, lists links only when asked, and stops when the visitor says so', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': '', 'd/b.txt': '', 'd/e/c.txt': '' });
    fs.symlinkSync(path.join(root, 'd'), path.join(root, 'link'));
    const rules = await IgnoreRules.forRoot(root);
    const seen = async (options: Parameters<typeof walkTree>[3], stopAt?: string): Promise<string[]> => {
      const files: string[] = [];
      const done = await walkTree(root, rules, (relPath) => (files.push(relPath), relPath !== stopAt), options);
      expect(done).toBe(stopAt === undefined);
      return files;
    };
    expect(await seen({ sorted: true })).toEqual(['a.txt', 'd/b.txt', 'd/e/c.txt']);
    expect(await seen({ sorted: true, links: true })).toEqual(['a.txt', 'd/b.txt', 'd/e/c.txt', 'link']);
    expect(await seen({ sorted: true, maxLevels: 2, relStart: 'top' })).toEqual(['top/a.txt', 'top/d/b.txt']);
    expect(await seen({ sorted: true }, 'd/b.txt')).toEqual(['a.txt', 'd/b.txt']);
  });

  it('answers isIgnored for a path under an ignored directory, whatever a negation says', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, '.git'));
    writeTree(root, { '.gitignore': 'dist/\n!dist/keep.js\n', 'dist/keep.js': '', 'src/a.ts': '' });
    const rules = await IgnoreRules.forRoot(root);
    expect(await rules.isIgnored(path.join(root, 'dist/keep.js'), false)).toBe(true);
    expect(await rules.isIgnored(path.join(root, 'dist'), true)).toBe(true);
    expect(await rules.isIgnored(path.join(root, 'src/a.ts'), false)).toBe(false);
    expect(await rules.isIgnored(path.join(root, 'src/.git'), true)).toBe(true);
  });

  it('gives the event loop a turn once a slice is spent', async () => {
    const slices = new TimeSlices(0);
    let ticked = false;
    setImmediate(() => (ticked = true));
    await slices.pause();
    expect(ticked).toBe(true);
    const long = new TimeSlices(60_000);
    ticked = false;
    setImmediate(() => (ticked = true));
    await long.pause();
    expect(ticked).toBe(false); // within its slice: no turn given
  });
});

describe('globWalk', () => {
  it('starts at the pattern\'s literal directories and goes no deeper than the pattern can match', async () => {
    const root = tempDir();
    writeTree(root, { 'src/a.ts': '', 'src/deep/b.ts': '', 'src/deep/c.js': '', 'lib/d.ts': '', 'e.ts': '' });
    const rules = await IgnoreRules.forRoot(root);
    const names = async (pattern: string): Promise<string[]> => (await globWalk(root, pattern, rules)).matches.map((m) => m.relPath).sort();
    expect(await names('src/**/*.ts')).toEqual(['src/a.ts', 'src/deep/b.ts']);
    expect(await names('*.ts')).toEqual(['e.ts']);
    expect(await names('*/*.ts')).toEqual(['lib/d.ts', 'src/a.ts']);
    expect(await names('./src/a.ts')).toEqual(['src/a.ts']);
    expect(await names('{lib,src}/*.ts')).toEqual(['lib/d.ts', 'src/a.ts']);
    expect(await names('missing/**')).toEqual([]);
  });

  it('finds nothing under an ignored directory named by the pattern', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, '.git'));
    writeTree(root, { '.gitignore': 'node_modules/\n', 'node_modules/p/index.js': '', 'x.js': '' });
    const rules = await IgnoreRules.forRoot(root);
    expect((await globWalk(root, 'node_modules/**/*.js', rules)).matches).toEqual([]);
    expect((await globWalk(root, '**/*.js', rules)).matches.map((m) => m.relPath)).toEqual(['x.js']);
  });
});

describe('grep worker helpers', () => {
  it('reads text files and skips binary, oversized and missing ones', () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'hello\n', 'b.bin': Buffer.from([104, 0, 105]), 'c.txt': 'x'.repeat(100) });
    expect(readSearchableSync(fs, path.join(root, 'a.txt'), 50)).toBe('hello\n');
    expect(readSearchableSync(fs, path.join(root, 'b.bin'), 50)).toBeUndefined();
    expect(readSearchableSync(fs, path.join(root, 'c.txt'), 50)).toBeUndefined();
    expect(readSearchableSync(fs, path.join(root, 'gone.txt'), 50)).toBeUndefined();
    expect(readSearchableSync(fs, root, 50)).toBeUndefined();
  });

  it('prefilters a whole file only where it cannot miss a line searchText finds', () => {
    const text = 'first\r\nfoo bar\nlast line\n';
    for (const source of ['^foo', 'bar$', 'o b', '^last line$', '^first$']) {
      const prefilter = wholeFilePrefilter(source, '');
      expect(prefilter?.test(text), source).toBe(searchText(text, new RegExp(source), 0).length > 0);
    }
    expect(wholeFilePrefilter('^nothing$', '')?.test(text)).toBe(false);
    expect(wholeFilePrefilter('(?<=x)foo', '')).toBeUndefined();
    expect(wholeFilePrefilter('foo(?!x)', '')).toBeUndefined();
    expect(wholeFilePrefilter('(?:foo)', 'i')?.flags).toBe('im');
  });
});
