import { mkdirSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayPath, isInside, resolvePath, suggestSimilarPaths } from '../../../src/tools/paths.js';
import { tempDir, writeTree } from './helpers.js';

describe('resolvePath', () => {
  it('resolves relative paths against ctx.cwd and expands ~', () => {
    const ctx = { cwd: '/work/project' };
    expect(resolvePath(ctx, 'src/a.ts')).toBe('/work/project/src/a.ts');
    expect(resolvePath(ctx, '../other/b.ts')).toBe('/work/other/b.ts');
    expect(resolvePath(ctx, '/etc/hosts')).toBe('/etc/hosts');
    expect(resolvePath(ctx, '~')).toBe(homedir());
    expect(resolvePath(ctx, '~/notes.md')).toBe(path.join(homedir(), 'notes.md'));
  });

  it('shows paths relative to cwd when inside it', () => {
    const ctx = { cwd: '/work/project' };
    expect(displayPath(ctx, '/work/project/src/a.ts')).toBe('src/a.ts');
    expect(displayPath(ctx, '/work/project')).toBe('.');
    expect(displayPath(ctx, '/etc/hosts')).toBe('/etc/hosts');
  });
});

describe('isInside', () => {
  it('accepts the root and paths below it, including ones that do not exist yet', () => {
    const root = tempDir();
    writeTree(root, { 'src/a.ts': '' });
    expect(isInside(root, root)).toBe(true);
    expect(isInside(root, path.join(root, 'src/a.ts'))).toBe(true);
    expect(isInside(root, path.join(root, 'new/dir/file.ts'))).toBe(true);
  });

  it('rejects ../ escapes and sibling directories with a common prefix', () => {
    const root = tempDir();
    expect(isInside(root, path.join(root, '..', 'elsewhere'))).toBe(false);
    expect(isInside(root, `${root}-sibling/file`)).toBe(false);
    expect(isInside(root, '/etc/passwd')).toBe(false);
  });

  it('follows symlinks that point out of the root, even to files not yet created', () => {
    const root = tempDir();
    const outside = tempDir();
    symlinkSync(outside, path.join(root, 'escape'));
    expect(isInside(root, path.join(root, 'escape'))).toBe(false);
    expect(isInside(root, path.join(root, 'escape', 'new-file.txt'))).toBe(false);
  });

  it('accepts a root given through a symlink', () => {
    const real = tempDir();
    mkdirSync(path.join(real, 'src'));
    const holder = tempDir();
    const link = path.join(holder, 'link');
    symlinkSync(real, link);
    expect(isInside(link, path.join(real, 'src'))).toBe(true);
    expect(isInside(real, path.join(link, 'src'))).toBe(true);
  });
});

describe('suggestSimilarPaths', () => {
  it('offers close names from the same directory', async () => {
    const root = tempDir();
    writeTree(root, { 'src/config.ts': '', 'src/Config.test.ts': '', 'src/unrelated.md': '' });
    const ctx = { cwd: root };
    expect(await suggestSimilarPaths(ctx, path.join(root, 'src/confg.ts'))).toEqual(['src/config.ts']);
    expect(await suggestSimilarPaths(ctx, path.join(root, 'src/config.js'))).toContain('src/config.ts');
    expect(await suggestSimilarPaths(ctx, path.join(root, 'missing/x.ts'))).toEqual([]);
  });
});
