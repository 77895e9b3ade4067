import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, lstatSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { makeCtx, run, tempDir, writeTree } from './helpers.js';
import { mountSmallTmpfs, type SmallTmpfs } from './small-tmpfs.js';

const edit = createEditFileTool();
const write = createWriteFileTool();

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const modeOf = (file: string): number => statSync(file).mode & 0o7777;

describe('write_file and edit_file keep what the rename would lose', () => {
  it('keep an executable script executable (0755) and a private file private (0600)', async () => {
    const root = tempDir();
    writeTree(root, { 'run.sh': '#!/bin/sh\necho old\n', 'secret.env': 'A=1\n' });
    chmodSync(path.join(root, 'run.sh'), 0o755);
    chmodSync(path.join(root, 'secret.env'), 0o600);

    expect((await run(edit, { path: 'run.sh', old_string: 'old', new_string: 'new' }, makeCtx(root))).isError).toBeUndefined();
    expect(modeOf(path.join(root, 'run.sh'))).toBe(0o755);
    expect((await run(write, { path: 'run.sh', content: '#!/bin/sh\necho newer\n' }, makeCtx(root))).isError).toBeUndefined();
    expect(modeOf(path.join(root, 'run.sh'))).toBe(0o755);
    expect(readFileSync(path.join(root, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho newer\n');

    await run(edit, { path: 'secret.env', old_string: 'A=1', new_string: 'A=2' }, makeCtx(root));
    expect(modeOf(path.join(root, 'secret.env'))).toBe(0o600);
  });

  it.skipIf(process.getuid?.() !== 0)('keep the owner and group of a file seek does not own (as root)', async () => {
    const root = tempDir();
    writeTree(root, { 'owned.txt': 'before\n' });
    chownSync(path.join(root, 'owned.txt'), 4321, 4322);
    await run(edit, { path: 'owned.txt', old_string: 'before', new_string: 'after' }, makeCtx(root));
    const info = statSync(path.join(root, 'owned.txt'));
    expect([info.uid, info.gid]).toEqual([4321, 4322]);
    expect(readFileSync(path.join(root, 'owned.txt'), 'utf8')).toBe('after\n');
  });

  it('write through a symlink: the target changes and the link stays a link', async () => {
    const root = tempDir();
    writeTree(root, { 'real/config.txt': 'port=1\n' });
    symlinkSync('real/config.txt', path.join(root, 'link.txt'));

    const edited = await run(edit, { path: 'link.txt', old_string: 'port=1', new_string: 'port=2' }, makeCtx(root));
    expect(edited.isError).toBeUndefined();
    expect(readFileSync(path.join(root, 'real/config.txt'), 'utf8')).toBe('port=2\n');
    expect(lstatSync(path.join(root, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(root, 'link.txt'))).toBe('real/config.txt');

    await run(write, { path: 'link.txt', content: 'port=3\n' }, makeCtx(root));
    expect(readFileSync(path.join(root, 'real/config.txt'), 'utf8')).toBe('port=3\n');
    expect(lstatSync(path.join(root, 'link.txt')).isSymbolicLink()).toBe(true);
    // No temp file is left next to the link or the target.
    expect(readdirSync(root).sort()).toEqual(['link.txt', 'real']);
    expect(readdirSync(path.join(root, 'real'))).toEqual(['config.txt']);
  });

  it('refuse to write through a dangling symlink, saying where it points', async () => {
    const root = tempDir();
    symlinkSync('missing/target.txt', path.join(root, 'dangling.txt'));
    const result = await run(write, { path: 'dangling.txt', content: 'x' }, makeCtx(root));
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      `Cannot write dangling.txt: ${path.join(root, 'dangling.txt')} is a symbolic link to ${path.join(root, 'missing/target.txt')}, which does not exist; no file was created.`,
    );
    expect(lstatSync(path.join(root, 'dangling.txt')).isSymbolicLink()).toBe(true);
    expect(readdirSync(root)).toEqual(['dangling.txt']);
  });

  it('remove a temp file left by a killed seek, but not one of a live writer', async () => {
    const root = tempDir();
    writeTree(root, { 'f.txt': 'one\n' });
    const deadPid = spawnSync('true').pid!; // has exited: its pid names no live process
    const stale = `.f.txt.seek-${deadPid}-0123abcd.tmp`;
    const live = `.f.txt.seek-${process.ppid}-89abcdef.tmp`; // our parent runs
    writeTree(root, { [stale]: 'half-written', [live]: 'in progress' });
    await run(edit, { path: 'f.txt', old_string: 'one', new_string: 'two' }, makeCtx(root));
    expect(readdirSync(root).sort()).toEqual([live, 'f.txt'].sort());
    expect(readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('two\n');
  });
});

describe('a full disk (ENOSPC on a 2 MiB tmpfs)', () => {
  let tmpfs: SmallTmpfs | undefined;
  afterEach(() => {
    tmpfs?.remove();
    tmpfs = undefined;
  });

  /** A 2 MiB tmpfs holding `big.txt` (HEAD and 60,000 lines of 17 bytes, about 1 MiB), or a skip reason. */
  function fullDisk(): { dir: string; original: string } | { skip: string } {
    const mounted = mountSmallTmpfs(2 * 1024 * 1024);
    if ('skip' in mounted) return mounted;
    tmpfs = mounted;
    const file = path.join(mounted.dir, 'big.txt');
    writeFileSync(file, `HEAD\n${'0123456789abcdef\n'.repeat(60_000)}`);
    return { dir: mounted.dir, original: sha256(file) };
  }

  it('edit_file that grows the file past the free space keeps the original and says so', async (context) => {
    const disk = fullDisk();
    if ('skip' in disk) return context.skip(disk.skip);
    // About 3 MiB afterwards: written in place, this used to leave a 2 MiB torn file.
    const args = { path: 'big.txt', old_string: '0123456789abcdef', new_string: '0123456789abcdef'.repeat(3), replace_all: true };
    const result = await run(edit, args, makeCtx(disk.dir));
    expect(result.isError).toBe(true);
    expect(result.content).toBe('No space left on device while writing big.txt; the original file is unchanged.');
    expect(sha256(path.join(disk.dir, 'big.txt'))).toBe(disk.original);
    expect(readdirSync(disk.dir)).toEqual(['big.txt']);
  });

  it('edit_file without room for the second copy an atomic replace needs keeps the original too', async (context) => {
    const disk = fullDisk();
    if ('skip' in disk) return context.skip(disk.skip);
    writeFileSync(path.join(disk.dir, 'filler'), Buffer.alloc(700 * 1024));
    const result = await run(edit, { path: 'big.txt', old_string: 'HEAD', new_string: 'NEW HEAD' }, makeCtx(disk.dir));
    expect(result.content).toBe('No space left on device while writing big.txt; the original file is unchanged.');
    expect(sha256(path.join(disk.dir, 'big.txt'))).toBe(disk.original);
    expect(readdirSync(disk.dir).sort()).toEqual(['big.txt', 'filler']);
  });

  it('write_file keeps the original, and creates nothing when there was none', async (context) => {
    const disk = fullDisk();
    if ('skip' in disk) return context.skip(disk.skip);
    const content = 'x'.repeat(3 * 1024 * 1024);
    const overwrite = await run(write, { path: 'big.txt', content }, makeCtx(disk.dir));
    expect(overwrite.isError).toBe(true);
    expect(overwrite.content).toBe('No space left on device while writing big.txt; the original file is unchanged.');
    expect(sha256(path.join(disk.dir, 'big.txt'))).toBe(disk.original);

    const create = await run(write, { path: 'new.txt', content }, makeCtx(disk.dir));
    expect(create.content).toBe('No space left on device while writing new.txt; no file was created.');
    expect(readdirSync(disk.dir)).toEqual(['big.txt']);
  });
});
