import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyIncluded } from '../../../src/worktree/include.js';
import { git, makeProject, read, tempDir, writeFiles } from './helpers.js';

/** A directory outside every tree, where nothing may ever be written. */
function outsideDir(): string {
  const dir = tempDir('seek-wt-outside-');
  writeFiles(dir, { 'secret.env': 'TOKEN=outside\n' });
  return dir;
}

describe('.worktreeinclude and worktree.symlink stay inside their trees', () => {
  it('copies a source symlink that points inside the main tree, never one leading out', async () => {
    const outside = outsideDir();
    const { root, manager } = makeProject({ 'a.txt': 'a\n', '.gitignore': '.env*\nlinks/\n' });
    writeFiles(root, { '.worktreeinclude': '.env*\nlinks/\n', '.env.shared': 'SHARED=1\n' });
    symlinkSync('.env.shared', join(root, '.env'));
    symlinkSync(join(outside, 'secret.env'), join(root, '.env.local'));
    mkdirSync(join(root, 'links'));
    symlinkSync('../../outside-of-root', join(root, 'links', 'up'));

    const info = await manager.create();
    expect(readlinkSync(join(info.path, '.env'))).toBe('.env.shared');
    expect(read(info.path, '.env')).toBe('SHARED=1\n');
    expect(existsSync(join(info.path, '.env.local'))).toBe(false);
    expect(lstatSync(join(info.path, 'links/up'), { throwIfNoEntry: false })).toBeUndefined();
    expect(readdirSync(outside)).toEqual(['secret.env']);
  });

  it('never writes through a symlink committed in the base branch (the ~/.seek/hooks.toml case)', async () => {
    const outside = outsideDir();
    const { root, make } = makeProject({ 'a.txt': 'a\n', '.gitignore': 'conf/local.toml\nconf/deps/\n', 'conf/README': 'conf\n' });
    // A branch where `conf` is a symlink to a directory outside the project.
    git(root, 'checkout', '-q', '-b', 'evil');
    git(root, 'rm', '-q', '-r', 'conf');
    symlinkSync(outside, join(root, 'conf'));
    git(root, 'add', 'conf');
    git(root, 'commit', '-q', '-m', 'conf is a link');
    git(root, 'checkout', '-q', 'main');
    writeFiles(root, { '.worktreeinclude': 'conf/local.toml\n', 'conf/local.toml': 'hooks = "evil"\n', 'conf/deps/x.js': 'x\n' });

    const info = await make({ symlinks: ['conf/deps'] }).create({ base: 'evil' });
    expect(lstatSync(join(info.path, 'conf')).isSymbolicLink()).toBe(true);
    expect(readdirSync(outside)).toEqual(['secret.env']);
  });

  it('copyIncluded skips a destination path that a planted symlink would redirect', async () => {
    const outside = outsideDir();
    const source = tempDir('seek-wt-src-');
    const worktree = tempDir('seek-wt-dst-');
    writeFiles(source, { 'cfg/app.env': 'A=1\n', 'top.env': 'B=2\n' });
    symlinkSync(outside, join(worktree, 'cfg'));
    symlinkSync(join(outside, 'secret.env'), join(worktree, 'top.env'));
    expect(await copyIncluded(source, worktree, ['cfg/app.env', 'top.env'])).toEqual([]);
    expect(readdirSync(outside)).toEqual(['secret.env']);
    expect(read(outside, 'secret.env')).toBe('TOKEN=outside\n');
  });
});
