import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfinementError,
  copyFileConfined,
  lstatConfined,
  mkdirConfined,
  readFileConfined,
  readlinkConfined,
  renameConfined,
  rmdirIfEmptyConfined,
  setProcFdForTesting,
  symlinkConfined,
  unlinkConfined,
  usesProcFd,
  writeFileConfined,
} from '../../../src/util/confined-fs.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project root and an "outside" directory next to it, both fresh. */
function dirs(): { root: string; outside: string } {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-confined-')));
  made.push(base);
  const root = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return { root, outside };
}

/** The descriptor walk where /proc/self/fd works (Linux); the lstat fallback everywhere. */
const modes = [
  ...(usesProcFd() ? [{ name: 'descriptor walk (/proc/self/fd)', procFd: true }] : []),
  { name: 'lstat fallback', procFd: false },
];

describe.each(modes)('confined-fs, $name', ({ procFd }) => {
  beforeAll(() => setProcFdForTesting(procFd));
  afterAll(() => setProcFdForTesting(undefined));

  it('writes a new file, creating parents, and replaces it atomically without leaving temp files', async () => {
    const { root } = dirs();
    await writeFileConfined(root, 'a/b/c.txt', 'one\n');
    await writeFileConfined(root, path.join(root, 'a/b/c.txt'), 'two\n', { durable: true });
    expect(readFileSync(path.join(root, 'a/b/c.txt'), 'utf8')).toBe('two\n');
    expect(readdirSync(path.join(root, 'a/b'))).toEqual(['c.txt']);
    expect(statSync(path.join(root, 'a/b/c.txt')).mode & 0o777).toBe(0o666 & ~process.umask());
  });

  it('keeps an existing file mode with preserve, and sets a given mode otherwise', async () => {
    const { root } = dirs();
    writeFileSync(path.join(root, 'run.sh'), 'old\n');
    chmodSync(path.join(root, 'run.sh'), 0o751);
    await writeFileConfined(root, 'run.sh', 'new\n', { preserve: true });
    expect(statSync(path.join(root, 'run.sh')).mode & 0o7777).toBe(0o751);
    await writeFileConfined(root, 'private', 'x', { mode: 0o600 });
    expect(statSync(path.join(root, 'private')).mode & 0o7777).toBe(0o600);
  });

  it('refuses a symlinked intermediate directory leading outside, and writes nothing there', async () => {
    const { root, outside } = dirs();
    mkdirSync(path.join(root, 'a'));
    symlinkSync(outside, path.join(root, 'a', 'b'));
    for (const followLinks of [false, true]) {
      const error = await writeFileConfined(root, 'a/b/c.txt', 'x', { followLinks }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfinementError);
      expect((error as Error).message).toBe(`refusing to write ${path.join(root, 'a/b/c.txt')}: a/b is a symbolic link to ${outside}, leading outside ${root}`);
    }
    expect(() => mkdirConfined(root, 'a/b/deeper')).toThrow(ConfinementError);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses an intermediate link inside the root unless followLinks, which resolves it', async () => {
    const { root } = dirs();
    mkdirSync(path.join(root, 'real'));
    symlinkSync('real', path.join(root, 'alias'));
    await expect(writeFileConfined(root, 'alias/f.txt', 'x')).rejects.toThrow(/alias is a symbolic link to real \(/);
    await writeFileConfined(root, 'alias/f.txt', 'x', { followLinks: true });
    expect(readFileSync(path.join(root, 'real/f.txt'), 'utf8')).toBe('x');
    expect(lstatSync(path.join(root, 'alias')).isSymbolicLink()).toBe(true);
  });

  it('final symlink: followed inside the root (the link stays a link), refused outside with the target intact', async () => {
    const { root, outside } = dirs();
    writeFileSync(path.join(root, 'target.txt'), 'inside\n');
    symlinkSync('target.txt', path.join(root, 'link.txt'));
    await writeFileConfined(root, 'link.txt', 'changed\n', { followLinks: true, preserve: true });
    expect(readFileSync(path.join(root, 'target.txt'), 'utf8')).toBe('changed\n');
    expect(readlinkSync(path.join(root, 'link.txt'))).toBe('target.txt');

    writeFileSync(path.join(outside, 'secret'), 'keep\n');
    symlinkSync(path.join(outside, 'secret'), path.join(root, 'out.txt'));
    await expect(writeFileConfined(root, 'out.txt', 'evil', { followLinks: true })).rejects.toThrow(
      `refusing to write ${path.join(root, 'out.txt')}: out.txt is a symbolic link to ${path.join(outside, 'secret')}, leading outside ${root}`,
    );
    expect(readFileSync(path.join(outside, 'secret'), 'utf8')).toBe('keep\n');
    expect(readlinkSync(path.join(root, 'out.txt'))).toBe(path.join(outside, 'secret'));
    expect(readdirSync(root).sort()).toEqual(['link.txt', 'out.txt', 'target.txt']);

    // Without followLinks the link itself is replaced by the new file; the outside file is untouched.
    await writeFileConfined(root, 'out.txt', 'replaced');
    expect(lstatSync(path.join(root, 'out.txt')).isFile()).toBe(true);
    expect(readFileSync(path.join(outside, 'secret'), 'utf8')).toBe('keep\n');
  });

  it('refuses a dangling final link with the old message, creating nothing', async () => {
    const { root } = dirs();
    symlinkSync('missing.txt', path.join(root, 'dangling'));
    const error = await writeFileConfined(root, 'dangling', 'x', { followLinks: true }).catch((e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).toBe('EDANGLINGLINK');
    expect(readdirSync(root)).toEqual(['dangling']);
  });

  it('refuses `..` escapes, absolute paths elsewhere and the root itself', async () => {
    const { root, outside } = dirs();
    await expect(writeFileConfined(root, '../outside/x', 'x')).rejects.toThrow(`refusing to write ${path.join(outside, 'x')}: it is outside ${root}`);
    await expect(writeFileConfined(root, 'a/../../outside/x', 'x')).rejects.toThrow(ConfinementError);
    await expect(writeFileConfined(root, path.join(outside, 'x'), 'x')).rejects.toThrow(ConfinementError);
    await expect(writeFileConfined(root, root, 'x')).rejects.toThrow('it is the root itself');
    expect(() => unlinkConfined(root, '../outside')).toThrow(ConfinementError);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a parent that is a file throws ENOTDIR; a directory target EISDIR; the old file stays', async () => {
    const { root } = dirs();
    writeFileSync(path.join(root, 'file'), 'keep');
    mkdirSync(path.join(root, 'dir'));
    await expect(writeFileConfined(root, 'file/x', 'x')).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(writeFileConfined(root, 'dir', 'x')).rejects.toMatchObject({ code: 'EISDIR' });
    expect(readFileSync(path.join(root, 'file'), 'utf8')).toBe('keep');
    expect(readdirSync(root).sort()).toEqual(['dir', 'file']);
  });

  it('exclusive creates only, writing in place', async () => {
    const { root } = dirs();
    await writeFileConfined(root, 'new', 'one', { exclusive: true, mode: 0o640 });
    expect(statSync(path.join(root, 'new')).mode & 0o777).toBe(0o640);
    await expect(writeFileConfined(root, 'new', 'two', { exclusive: true })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(path.join(root, 'new'), 'utf8')).toBe('one');
  });

  it('copies between trees with the source mode, refusing a linked source', async () => {
    const { root, outside } = dirs();
    const source = path.join(path.dirname(root), 'source');
    mkdirSync(path.join(source, 'conf'), { recursive: true });
    writeFileSync(path.join(source, 'conf/.env'), 'A=1\n');
    chmodSync(path.join(source, 'conf/.env'), 0o600);
    await copyFileConfined({ root: source, path: 'conf/.env' }, { root, path: 'conf/.env' }, { exclusive: true });
    expect(readFileSync(path.join(root, 'conf/.env'), 'utf8')).toBe('A=1\n');
    expect(statSync(path.join(root, 'conf/.env')).mode & 0o777).toBe(0o600);

    writeFileSync(path.join(outside, 'id_rsa'), 'secret');
    symlinkSync(path.join(outside, 'id_rsa'), path.join(source, 'key'));
    await expect(copyFileConfined({ root: source, path: 'key' }, { root, path: 'key' })).rejects.toThrow(ConfinementError);
    expect(lstatSync(path.join(root, 'key'), { throwIfNoEntry: false })).toBeUndefined();
  });

  it('reads, lstats, unlinks, renames, links and removes empty directories without following links', async () => {
    const { root, outside } = dirs();
    writeFileSync(path.join(outside, 'victim'), 'keep');
    mkdirSync(path.join(root, 'd'));
    writeFileSync(path.join(root, 'd/f'), 'data');
    symlinkSync(outside, path.join(root, 'out'));

    expect((await readFileConfined(root, 'd/f')).toString()).toBe('data');
    await expect(readFileConfined(root, 'out/victim')).rejects.toThrow(ConfinementError);
    expect(lstatConfined(root, 'out')?.isSymbolicLink()).toBe(true);
    expect(lstatConfined(root, 'missing/x')).toBeUndefined();
    expect(() => lstatConfined(root, 'out/victim')).toThrow(ConfinementError);
    expect(readlinkConfined(root, 'out')).toBe(outside);

    expect(() => unlinkConfined(root, 'out/victim')).toThrow(ConfinementError);
    expect(unlinkConfined(root, 'out')).toBe(true); // the link, not what it points to
    expect(unlinkConfined(root, 'out')).toBe(false);
    expect(readFileSync(path.join(outside, 'victim'), 'utf8')).toBe('keep');

    symlinkConfined(root, 'e/link', '../d/f');
    expect(readlinkSync(path.join(root, 'e/link'))).toBe('../d/f');
    expect(() => symlinkConfined(root, 'e/link', 'other')).toThrow(/EEXIST/);
    symlinkConfined(root, 'e/link', 'other', { replace: true });
    expect(readlinkSync(path.join(root, 'e/link'))).toBe('other');

    renameConfined(root, 'd/f', 'e/g');
    expect(readFileSync(path.join(root, 'e/g'), 'utf8')).toBe('data');
    expect(rmdirIfEmptyConfined(root, 'e')).toBe(false);
    expect(rmdirIfEmptyConfined(root, 'd')).toBe(true);
    expect(readdirSync(outside)).toEqual(['victim']);
  });
});
