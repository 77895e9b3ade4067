import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeRelativeEntry } from '../../../src/worktree/include.js';
import { chmod, git, makeProject, read, writeFiles } from './helpers.js';

describe('.worktreeinclude', () => {
  it('copies ignored files it matches, keeping paths and modes, and nothing else', async () => {
    const { root, manager } = makeProject({ 'a.txt': 'a\n', '.gitignore': '.env\nconfig/local.json\nbuild/\n' });
    writeFiles(root, {
      '.worktreeinclude': '.env\nconfig/local.json\nnotes.txt\na.txt\nbuild/\n',
      '.env': 'SECRET=1\n',
      'config/local.json': '{"port": 1}\n',
      'notes.txt': 'untracked but not ignored\n',
      'build/out/bundle.js': 'bundle\n',
      'other/.env.example': 'not listed\n',
    });
    chmod(join(root, '.env'), 0o600);
    symlinkSync('.env', join(root, 'build', 'env-link'));

    const info = await manager.create();
    expect(read(info.path, '.env')).toBe('SECRET=1\n');
    expect(statSync(join(info.path, '.env')).mode & 0o777).toBe(0o600);
    expect(read(info.path, 'config/local.json')).toBe('{"port": 1}\n');
    expect(read(info.path, 'build/out/bundle.js')).toBe('bundle\n');
    expect(lstatSync(join(info.path, 'build/env-link')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(info.path, 'notes.txt'))).toBe(false); // not ignored: never copied
    expect(existsSync(join(info.path, '.worktreeinclude'))).toBe(false); // untracked, not ignored
    expect(existsSync(join(info.path, 'other'))).toBe(false);
    expect(read(info.path, 'a.txt')).toBe('a\n'); // tracked: checked out by git, untouched
    expect(await manager.status(info.path)).toBe(0);
    expect((await manager.cleanup(info.path)).result).toBe('[worktree: cleaned]');
  });

  it('does nothing without the file', async () => {
    const { root, manager } = makeProject({ 'a.txt': 'a\n', '.gitignore': '.env\n' });
    writeFiles(root, { '.env': 'SECRET=1\n' });
    const info = await manager.create();
    expect(existsSync(join(info.path, '.env'))).toBe(false);
  });
});

describe('worktree.symlink', () => {
  function withNodeModules(gitignore: string) {
    const project = makeProject({ 'a.txt': 'a\n', '.gitignore': gitignore, 'packages/app/index.js': 'x\n' });
    writeFiles(project.root, { 'node_modules/pkg/index.js': 'module.exports = 1;\n', 'node_modules/.bin/tool': '#!/bin/sh\n' });
    return { ...project, manager: project.make({ symlinks: ['node_modules', '../outside', '/etc', 'missing', 'a.txt'] }) };
  }

  it('links a folder git ignores as a symlink (pattern without a slash); status stays 0', async () => {
    const { root, manager } = withNodeModules('node_modules\n');
    const info = await manager.create();
    const link = join(info.path, 'node_modules');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(realpathSync(link)).toBe(join(root, 'node_modules'));
    expect(read(info.path, 'node_modules/pkg/index.js')).toBe('module.exports = 1;\n');
    expect(await manager.status(info.path)).toBe(0);
    expect(existsSync(join(info.path, 'missing'))).toBe(false);
    expect(lstatSync(join(info.path, 'a.txt')).isSymbolicLink()).toBe(false); // tracked: left alone

    // Removing the worktree never follows the link into the main tree, even on discard.
    writeFiles(info.path, { 'dirty.txt': 'x\n' });
    expect((await manager.cleanup(info.path, 'discard')).kind).toBe('discarded');
    expect(read(root, 'node_modules/pkg/index.js')).toBe('module.exports = 1;\n');
  });

  it('mirrors a folder whose pattern matches only directories (node_modules/); status stays 0', async () => {
    const { root, manager } = withNodeModules('node_modules/\n');
    const info = await manager.create();
    const folder = join(info.path, 'node_modules');
    expect(lstatSync(folder).isDirectory()).toBe(true);
    expect(lstatSync(join(folder, 'pkg')).isSymbolicLink()).toBe(true);
    expect(read(info.path, 'node_modules/pkg/index.js')).toBe('module.exports = 1;\n');
    expect(read(info.path, 'node_modules/.bin/tool')).toBe('#!/bin/sh\n');
    expect(await manager.status(info.path)).toBe(0);
    expect(git(info.path, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    // The main repository's exclude file is never touched.
    expect(existsSync(join(root, '.git', 'info', 'exclude')) ? readFileSync(join(root, '.git', 'info', 'exclude'), 'utf8') : '').not.toContain('node_modules');

    // A merge does not carry the links into the main tree.
    writeFiles(info.path, { 'feature.txt': 'f\n' });
    expect((await manager.cleanup(info.path, 'merge')).kind).toBe('merged');
    expect(git(root, 'ls-files')).not.toContain('node_modules');
    expect(lstatSync(join(root, 'node_modules')).isDirectory()).toBe(true);
    expect(read(root, 'node_modules/pkg/index.js')).toBe('module.exports = 1;\n');
  });

  it('mirrors a folder that is not ignored at all in the main tree', async () => {
    const { root, make } = makeProject({ 'a.txt': 'a\n' });
    mkdirSync(join(root, 'venv', 'lib'), { recursive: true });
    writeFiles(root, { 'venv/lib/site.py': 'x = 1\n' });
    const manager = make({ symlinks: ['venv'] });
    const info = await manager.create();
    expect(read(info.path, 'venv/lib/site.py')).toBe('x = 1\n');
    expect(await manager.status(info.path)).toBe(0);
  });

  it('accepts only relative entries inside the project', () => {
    expect(safeRelativeEntry('node_modules/')).toBe('node_modules');
    expect(safeRelativeEntry('packages/app/node_modules')).toBe(join('packages', 'app', 'node_modules'));
    for (const bad of ['', '.', '..', '../x', 'a/../../x', '/abs', '.git', 'x/.git/y']) expect(safeRelativeEntry(bad)).toBeUndefined();
  });
});
