import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

// bin/seek.js runs dist/cli/main.cjs through a V8 code cache under SEEK_HOME/cache/v8
// (src/launch/code-cache.ts). These runs check what a user would notice: the answer is always
// right, whatever state the cache is in, and the cache is written once, reused, and written again
// only when it is damaged or by the first run of a kind it lacks. Its first byte holds the kinds of
// run that went into it: 1 a headless prompt, 2 the terminal UI, 4 anything else.

const suite = useScriptedServer();
const h = tuiHarness();
const PRINT = 1;
const TUI = 2;
const OTHER = 4;

function cacheDir(home: string): string {
  return join(home, 'cache', 'v8');
}

function cacheFiles(home: string): string[] {
  const dir = cacheDir(home);
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.bin')) : [];
}

function onlyCache(home: string): { path: string; bytes: Buffer } {
  const files = cacheFiles(home);
  expect(files).toHaveLength(1);
  const path = join(cacheDir(home), files[0]!);
  return { path, bytes: readFileSync(path) };
}

async function sayHello(root: string, home: string, extra: Record<string, string> = {}) {
  suite.server.enqueue({ text: 'Hello!' });
  const run = await runSeek(['-p', 'say hello', '--no-save'], { cwd: root, env: suite.env(home, extra) });
  expect(run.stderr).toBe('');
  expect(run.stdout).toContain('Hello!');
  expect(run.code).toBe(0);
}

describe('the start-up code cache', () => {
  it('is written by the first prompt run and reused, unchanged, by the next', async () => {
    const { root, home } = makeProject();
    expect(cacheFiles(home)).toEqual([]);
    await sayHello(root, home);
    const first = onlyCache(home);
    expect(first.bytes[0]).toBe(PRINT);
    expect(first.bytes.readUInt32LE(1)).toBe(crc32(first.bytes.subarray(5)));
    expect(statSync(first.path).mode & 0o777).toBe(0o600);
    expect(statSync(cacheDir(home)).mode & 0o777).toBe(0o700);
    const writtenAt = statSync(first.path).mtimeMs;
    await sayHello(root, home);
    const second = onlyCache(home);
    expect(second.path).toBe(first.path);
    expect(statSync(second.path).mtimeMs).toBe(writtenAt); // V8 accepted it: nothing rewritten
    expect(second.bytes.equals(first.bytes)).toBe(true);
  });

  it('is written again once by the first run of each kind, and holds them all', async () => {
    const { root, home } = makeProject();
    const version = await runSeek(['--version'], { cwd: root, env: { SEEK_HOME: home } });
    expect(version.stdout).toMatch(/^seek \d/);
    const other = onlyCache(home);
    expect(other.bytes[0]).toBe(OTHER);
    await sayHello(root, home);
    const both = onlyCache(home);
    expect(both.bytes[0]).toBe(OTHER | PRINT);
    expect(both.bytes.length).toBeGreaterThan(other.bytes.length); // the prompt's code added
    const again = await runSeek(['--version'], { cwd: root, env: { SEEK_HOME: home } });
    expect(again.code).toBe(0);
    await sayHello(root, home);
    expect(onlyCache(home).bytes.equals(both.bytes)).toBe(true); // kinds it holds write nothing
  });

  it.skipIf(!hasTmux)('learns the terminal UI from its first interactive run, which starts as usual (tmux)', async () => {
    const { root, home } = makeProject();
    await sayHello(root, home);
    for (const expected of [PRINT | TUI, PRINT | TUI]) {
      const t = h.start(root, home, { width: 80, height: 24 });
      await t.waitFor('ask seek');
      t.type('/exit');
      t.keys('Enter');
      await t.waitFor('[seek exited 0]');
      expect(onlyCache(home).bytes[0]).toBe(expected);
    }
  });

  it('damaged in any way, costs a recompile and is written again, never a wrong answer or a crash', async () => {
    const { root, home } = makeProject();
    await sayHello(root, home);
    const good = onlyCache(home);
    const damages: [string, Buffer][] = [
      ['a flipped byte in the data', Buffer.from(good.bytes).fill(good.bytes[good.bytes.length >> 1]! ^ 0xff, good.bytes.length >> 1, (good.bytes.length >> 1) + 1)],
      ['truncated', good.bytes.subarray(0, good.bytes.length >> 1)],
      ['empty', Buffer.alloc(0)],
      ['random bytes with a matching checksum', withChecksum(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) & 0xff)))],
    ];
    for (const [label, bytes] of damages) {
      writeFileSync(good.path, bytes);
      await sayHello(root, home).catch((error: unknown) => {
        throw new Error(`cache ${label}: ${String(error)}`);
      });
      const rewritten = onlyCache(home);
      expect(rewritten.bytes[0], label).toBe(PRINT);
      expect(rewritten.bytes.readUInt32LE(1), label).toBe(crc32(rewritten.bytes.subarray(5)));
    }
  });

  it('costs nothing but speed when it cannot be written, and SEEK_CODE_CACHE=0 turns it off', async () => {
    const { root, home } = makeProject();
    await sayHello(root, home, { SEEK_CODE_CACHE: '0' });
    expect(cacheFiles(home)).toEqual([]);
    // A file where the cache folder would go (permissions would not stop root, which CI may be).
    writeFileSync(join(home, 'cache'), 'not a folder');
    await sayHello(root, home);
    await sayHello(root, home);
    expect(readFileSync(join(home, 'cache'), 'utf8')).toBe('not a folder');
  });

  it('keeps two caches of other builds beside its own and removes older ones', async () => {
    const { root, home } = makeProject();
    await sayHello(root, home);
    const own = onlyCache(home).path;
    const others = ['main-v0.0.1-x64-1-1.bin', 'main-v0.0.2-x64-1-1.bin', 'main-v0.0.3-x64-1-1.bin', 'main-v0.0.4-x64-1-1.bin'];
    others.forEach((name, index) => {
      const path = join(cacheDir(home), name);
      writeFileSync(path, 'other build');
      utimesSync(path, 1_000 + index, 1_000 + index);
    });
    writeFileSync(own, 'damaged'); // forces a write, which prunes
    await sayHello(root, home);
    expect(readdirSync(cacheDir(home)).sort()).toEqual([own.split('/').pop()!, others[2], others[3]].sort());
  });
});

function withChecksum(data: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header[0] = PRINT;
  header.writeUInt32LE(crc32(data), 1);
  return Buffer.concat([header, data]);
}
