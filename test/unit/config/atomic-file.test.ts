import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/config/atomic-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seek-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const modeOf = (file: string): number => statSync(file).mode & 0o7777;

describe('writeFileAtomic', () => {
  it('creates parent directories and sets the exact mode asked for (default 0644)', async () => {
    await writeFileAtomic(join(dir, 'a/b/plain.json'), '{}\n');
    await writeFileAtomic(join(dir, 'a/b/secret.json'), '{"key":1}\n', { mode: 0o600, durable: true });
    expect(readFileSync(join(dir, 'a/b/plain.json'), 'utf8')).toBe('{}\n');
    expect(modeOf(join(dir, 'a/b/plain.json'))).toBe(0o644);
    expect(modeOf(join(dir, 'a/b/secret.json'))).toBe(0o600);
    expect(readdirSync(join(dir, 'a/b')).sort()).toEqual(['plain.json', 'secret.json']);
  });

  it('writes bytes as they are', async () => {
    const bytes = Uint8Array.from([0, 255, 10, 13, 128]);
    await writeFileAtomic(join(dir, 'bytes.bin'), bytes);
    expect(readFileSync(join(dir, 'bytes.bin')).equals(Buffer.from(bytes))).toBe(true);
  });

  it('without preserve, replaces a symlink at the path by a file (config files stay plain files)', async () => {
    writeFileSync(join(dir, 'target'), 'old');
    symlinkSync('target', join(dir, 'link'));
    await writeFileAtomic(join(dir, 'link'), 'new');
    expect(lstatSync(join(dir, 'link')).isFile()).toBe(true);
    expect(readFileSync(join(dir, 'target'), 'utf8')).toBe('old');
  });

  it('with preserve, writes through a symlink chain and keeps the mode of the final file', async () => {
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real/tool.sh'), 'echo old\n', { mode: 0o750 });
    symlinkSync('real/tool.sh', join(dir, 'one'));
    symlinkSync('one', join(dir, 'two'));
    await writeFileAtomic(join(dir, 'two'), 'echo new\n', { preserve: true });
    expect(readFileSync(join(dir, 'real/tool.sh'), 'utf8')).toBe('echo new\n');
    expect(modeOf(join(dir, 'real/tool.sh'))).toBe(0o750);
    expect(lstatSync(join(dir, 'two')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(dir, 'one')).isSymbolicLink()).toBe(true);
  });

  it('with preserve, refuses a link loop with a clear error', async () => {
    symlinkSync('b', join(dir, 'a'));
    symlinkSync('a', join(dir, 'b'));
    await expect(writeFileAtomic(join(dir, 'a'), 'x', { preserve: true })).rejects.toMatchObject({
      code: 'EDANGLINGLINK',
      message: `${join(dir, 'a')} is a symbolic link to a loop of links`,
    });
  });

  it('on failure leaves the target as it was and removes its temp file', async () => {
    mkdirSync(join(dir, 'occupied'));
    writeFileSync(join(dir, 'occupied/keep'), 'x');
    // rename(temp, dir-with-content) fails after the temp file was fully written.
    await expect(writeFileAtomic(join(dir, 'occupied'), 'data', { durable: true })).rejects.toMatchObject({ code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/) });
    expect(readdirSync(dir)).toEqual(['occupied']);
    expect(readdirSync(join(dir, 'occupied'))).toEqual(['keep']);
  });
});
