import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

// bin/seek.js runs dist/cli/main.cjs through a V8 code cache under SEEK_HOME/cache/v8
// (src/launch/code-cache.ts). These runs check what a user would notice: the answer is always
// right, whatever state the cache is in, and the cache is written once, reused, and written again
// only when it is damaged or by the first run of a kind it lacks. Runs with -p have a cache of their
// own (`…-print.bin`), the rest share one (`…-session.bin`). A cache's first byte holds the kinds
// of run that went into it: 1 a headless prompt, 2 the terminal UI, 4 anything else, and 8 once a
// run that went into it ran tools. -p runs start
// dist/cli/headless.cjs, the CLI without the terminal UI and the subcommands; the rest main.cjs.

const suite = useScriptedServer();
const h = tuiHarness();
const PRINT = 1;
const TUI = 2;
const OTHER = 4;
const TOOLS = 8;

function cacheDir(home: string): string {
  return join(home, 'cache', 'v8');
}

function cacheFiles(home: string): string[] {
  const dir = cacheDir(home);
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.bin')) : [];
}

function cacheOf(home: string, group: 'print' | 'session'): { path: string; bytes: Buffer } {
  const files = cacheFiles(home).filter((name) => name.endsWith(`-${group}.bin`));
  expect(files).toHaveLength(1);
  const path = join(cacheDir(home), files[0]!);
  return { path, bytes: readFileSync(path) };
}

function onlyCache(home: string): { path: string; bytes: Buffer } {
  expect(cacheFiles(home)).toHaveLength(1);
  return cacheOf(home, 'print');
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

  it('learns the tools from the first run that calls one, then stays as it is', async () => {
    const { root, home } = makeProject();
    await sayHello(root, home);
    const withoutTools = onlyCache(home);
    expect(withoutTools.bytes[0]).toBe(PRINT);
    const readTheReadme = async () => {
      suite.server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] }, { text: 'It says demo.' });
      const run = await runSeek(['-p', 'what does the readme say?', '--no-save'], { cwd: root, env: suite.env(home) });
      expect(run.stdout).toContain('It says demo.');
      expect(run.code).toBe(0);
    };
    await readTheReadme();
    const withTools = onlyCache(home);
    expect(withTools.bytes[0]).toBe(PRINT | TOOLS);
    expect(withTools.bytes.length).toBeGreaterThan(withoutTools.bytes.length); // the tools' code added
    await readTheReadme();
    await sayHello(root, home);
    expect(onlyCache(home).bytes.equals(withTools.bytes)).toBe(true); // kinds it holds write nothing
  });

  it('keeps -p runs apart from the rest, each written once and reused', async () => {
    const { root, home } = makeProject();
    const help = await runSeek(['help'], { cwd: root, env: { SEEK_HOME: home } });
    expect(help.stdout).toMatch(/^Usage: seek/);
    const session = cacheOf(home, 'session');
    expect(session.bytes[0]).toBe(OTHER);
    expect(cacheFiles(home)).toHaveLength(1);
    await sayHello(root, home);
    const print = cacheOf(home, 'print');
    expect(print.bytes[0]).toBe(PRINT);
    // Each from its own build (src/launch/route.ts): -p runs start the headless one.
    expect(basename(print.path)).toMatch(/^headless-v\d/);
    expect(basename(session.path)).toMatch(/^main-v\d/);
    expect(cacheOf(home, 'session').bytes.equals(session.bytes)).toBe(true);
    expect((await runSeek(['help'], { cwd: root, env: { SEEK_HOME: home } })).code).toBe(0);
    await sayHello(root, home);
    expect(cacheOf(home, 'session').bytes.equals(session.bytes)).toBe(true); // kinds they hold write nothing
    expect(cacheOf(home, 'print').bytes.equals(print.bytes)).toBe(true);
  });

  it('answers the version query from the headless build', async () => {
    const { root, home } = makeProject();
    const version = await runSeek(['--version'], { cwd: root, env: { SEEK_HOME: home } });
    expect(version.stdout).toMatch(/^seek \d+\.\d+\.\d+\n$/);
    expect(version.code).toBe(0);
    expect(basename(cacheOf(home, 'print').path)).toMatch(/^headless-v\d/);
    expect(cacheOf(home, 'print').bytes[0]).toBe(OTHER);
  });

  it.skipIf(!hasTmux)('learns the terminal UI from its first interactive run, adding to what the session cache holds (tmux)', async () => {
    const { root, home } = makeProject();
    expect((await runSeek(['help'], { cwd: root, env: { SEEK_HOME: home } })).code).toBe(0);
    const before = cacheOf(home, 'session');
    for (let run = 0; run < 2; run++) {
      const t = h.start(root, home, { width: 80, height: 24 });
      await t.waitFor('ask seek');
      t.type('/exit');
      t.keys('Enter');
      await t.waitFor('[seek exited 0]');
      const after = cacheOf(home, 'session');
      expect(after.bytes[0]).toBe(OTHER | TUI);
      expect(after.bytes.length).toBeGreaterThan(before.bytes.length); // the terminal UI's code added
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
    // The folder holds other start-up caches too (project ids): they cannot be written either.
    rmSync(join(home, 'cache'), { recursive: true, force: true });
    writeFileSync(join(home, 'cache'), 'not a folder');
    await sayHello(root, home);
    await sayHello(root, home);
    expect(readFileSync(join(home, 'cache'), 'utf8')).toBe('not a folder');
  });

  it('keeps four caches of other builds beside its own, removes older ones and abandoned temporary files', async () => {
    const { root, home } = makeProject();
    await sayHello(root, home);
    const own = onlyCache(home).path;
    const others = ['v0.0.1', 'v0.0.2', 'v0.0.3', 'v0.0.4', 'v0.0.5', 'v0.0.6'].map((node) => `main-${node}-x64-1-1-print.bin`);
    others.forEach((name, index) => {
      const path = join(cacheDir(home), name);
      writeFileSync(path, 'other build');
      utimesSync(path, 1_000 + index, 1_000 + index);
    });
    // Temporary files: one a killed writer left long ago, one another process is writing now.
    const abandoned = `${own.split('/').pop()!}.999999.tmp`;
    const inProgress = `${own.split('/').pop()!}.999998.tmp`;
    writeFileSync(join(cacheDir(home), abandoned), 'partial');
    utimesSync(join(cacheDir(home), abandoned), 1_000, 1_000);
    writeFileSync(join(cacheDir(home), inProgress), 'partial');
    writeFileSync(own, 'damaged'); // forces a write, which prunes
    await sayHello(root, home);
    expect(readdirSync(cacheDir(home)).sort()).toEqual([own.split('/').pop()!, inProgress, ...others.slice(2)].sort());
  });

  it('has a headless build without the terminal UI and the subcommands, half the size of the whole CLI', () => {
    const dist = new URL('../../dist/cli/', import.meta.url).pathname;
    const whole = readFileSync(join(dist, 'main.cjs'), 'latin1');
    const headless = readFileSync(join(dist, 'headless.cjs'), 'latin1');
    expect(whole).toContain('"src/tui/App.tsx"');
    expect(whole).toContain('"src/cli/commands/worker.ts"');
    expect(headless).not.toContain('"src/tui/');
    expect(headless).not.toContain('"src/cli/commands/');
    expect(headless).not.toContain('node_modules/bullmq/');
    expect(headless).toContain('"src/cli/headless.ts"');
    expect(headless.length).toBeLessThan(whole.length * 0.6);
  });
});

function withChecksum(data: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header[0] = PRINT;
  header.writeUInt32LE(crc32(data), 1);
  return Buffer.concat([header, data]);
}
