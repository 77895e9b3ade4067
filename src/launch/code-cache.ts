/**
 * Start-up through a V8 code cache. The build writes the whole CLI as one CommonJS function
 * expression, dist/cli/main.cjs. Node 20 keeps no compiled code between runs for ES modules
 * (`module.enableCompileCache()` arrives in 22.1), so this compiles that script with `vm.Script`
 * and hands V8 the code it serialised on an earlier run: parsing and compiling the start path then
 * costs a deserialisation instead (bench/say-hello measures it).
 *
 * Contract:
 * - The cache lives under SEEK_HOME (`cache/v8/`), a directory of the user's own: V8 trusts a code
 *   cache as compiled code, so it must never come from a shared, writable place such as /tmp.
 * - Its name carries the Node version, the architecture and the script's size and mtime, so a new
 *   build or a new Node never meets an old cache; V8 also rejects one made under other flags, and
 *   a rejected or missing cache is written again after the run.
 * - A cache is serialised after the run, so it holds the functions that run compiled (those it
 *   loaded from the cache included). The CLI says what kind of run it made (a headless prompt, the
 *   terminal UI, anything else: src/cli/run-kind.ts); the first run of each kind serialises the
 *   cache again, adding its code. Runs with -p have a cache of their own, so the terminal UI's code
 *   never weighs on a scripted start (V8 deserialises a whole cache, so its size is start time).
 * - Writes are atomic (temporary file, then rename): concurrent starts read a whole cache or none.
 *   A CRC-32 of the data is checked before V8 sees it: V8 checks a cache's version, flags and
 *   length, not every byte, and a damaged file must cost a recompile, never a crash. Node before
 *   20.15 has no zlib.crc32 and runs without the cache.
 * - Any failure to read or write the cache only costs speed; `SEEK_CODE_CACHE=0` turns it off.
 *
 * This file is bundled on its own (dist/launch.js) and imports nothing from the rest of seek.
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';

/** What dist/cli/main.cjs evaluates to: the CommonJS module wrapper around the CLI. It never
 * calls import(): Node 20 drops a vm.Script's dynamic import callback when the script comes from a
 * code cache (the build turns dependencies' import() into require()). */
type ModuleWrapper = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

interface CliModule {
  main(argv: string[]): Promise<void>;
  runKind?(): 'print' | 'tui' | 'other';
}

/** A cache file: one byte of the kinds of run that went into it (RUN_KIND_BITS), the CRC-32 of
 * the data (uint32, little-endian), then V8's data. */
const HEADER_BYTES = 5;
const RUN_KIND_BITS = { print: 1, tui: 2, other: 4 } as const;
/** Caches of other builds kept beside the current one's (two each: -p runs and the rest). */
const KEPT_OTHER_CACHES = 4;
/** A temporary cache file this old was left by a writer that was killed. */
const ABANDONED_TEMPORARY_MS = 60_000;

/** Loads and runs the CLI in `scriptPath` with `argv`; resolves when `main` does. */
export async function launch(scriptPath: string, argv: string[]): Promise<void> {
  const bytes = readFileSync(scriptPath);
  // An ASCII script becomes a one-byte string (half the memory, a third of the decoding time).
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const printRun = argv.some((arg) => arg === '-p' || arg === '--print' || arg.startsWith('--print='));
  const cache = cacheFile(scriptPath, printRun ? 'print' : 'session');
  const cached = cache ? readCache(cache.path) : undefined;
  const script = new vm.Script(source, { filename: scriptPath, cachedData: cached?.data });
  const wrapper = script.runInThisContext() as ModuleWrapper;
  const module = { exports: {} };
  wrapper.call(module.exports, module.exports, createRequire(scriptPath), module, scriptPath, dirname(scriptPath));
  const cli = module.exports as CliModule;
  try {
    await cli.main(argv);
  } finally {
    const kind = RUN_KIND_BITS[cli.runKind?.() ?? 'other'];
    const usable = cached !== undefined && script.cachedDataRejected !== true;
    if (cache && (!usable || (cached.kinds & kind) === 0)) writeCache(cache, script, (usable ? cached.kinds : 0) | kind);
  }
}

function cacheFile(scriptPath: string, group: 'print' | 'session'): { path: string; build: string } | undefined {
  if (process.env.SEEK_CODE_CACHE === '0' || typeof zlib.crc32 !== 'function') return undefined;
  try {
    const { size, mtimeMs } = statSync(scriptPath);
    // Same rule as src/config/paths.ts seekHome(), which this file cannot import.
    const override = process.env.SEEK_HOME;
    const home = override !== undefined && override.trim() !== '' ? resolve(override) : join(homedir(), '.seek');
    const build = `main-${process.version}-${process.arch}-${size}-${Math.floor(mtimeMs)}`;
    return { path: join(home, 'cache', 'v8', `${build}-${group}.bin`), build };
  } catch {
    return undefined;
  }
}

function readCache(file: string): { data: Buffer; kinds: number } | undefined {
  try {
    const bytes = readFileSync(file);
    if (bytes.length <= HEADER_BYTES) return undefined;
    const data = bytes.subarray(HEADER_BYTES);
    if (zlib.crc32(data) !== bytes.readUInt32LE(1)) return undefined;
    return { data, kinds: bytes[0]! };
  } catch {
    return undefined;
  }
}

function writeCache({ path: file, build }: { path: string; build: string }, script: vm.Script, kinds: number): void {
  const dir = dirname(file);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const header = Buffer.alloc(HEADER_BYTES);
    header[0] = kinds;
    header.writeUInt32LE(zlib.crc32(data), 1);
    writeFileSync(temporary, Buffer.concat([header, data]), { mode: 0o600 });
    renameSync(temporary, file);
    pruneOtherBuilds(dir, build);
  } catch {
    // A cache that cannot be written (read-only home, full disk) only costs the next start time;
    // a partly written temporary file goes.
    unlinkQuietly(temporary);
  }
}

/** Keeps the newest few caches of other builds (another install sharing this SEEK_HOME keeps its
 * own), and removes the rest: a rebuilt or upgraded seek never reads its old cache again. A
 * temporary file older than a minute was left by a killed writer and goes too. */
function pruneOtherBuilds(dir: string, build: string): void {
  const entries = readdirSync(dir)
    .filter((name) => name.startsWith('main-'))
    .map((name) => {
      const path = join(dir, name);
      try {
        return { name, path, mtimeMs: statSync(path).mtimeMs };
      } catch {
        return { name, path, mtimeMs: 0 };
      }
    });
  const now = Date.now();
  for (const left of entries.filter((entry) => entry.name.endsWith('.tmp') && now - entry.mtimeMs > ABANDONED_TEMPORARY_MS)) unlinkQuietly(left.path);
  const others = entries.filter((entry) => !entry.name.endsWith('.tmp') && !entry.name.startsWith(`${build}-`)).sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const stale of others.slice(KEPT_OTHER_CACHES)) unlinkQuietly(stale.path);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Another process may have removed it first.
  }
}
