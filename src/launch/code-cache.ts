/**
 * Start-up through a V8 code cache. The build writes the CLI as one CommonJS function expression,
 * twice: dist/cli/main.cjs, the whole CLI, and dist/cli/headless.cjs for `seek -p` runs
 * (src/launch/route.ts chooses). Node 20 keeps no compiled code between runs for ES modules
 * (`module.enableCompileCache()` arrives in 22.1), so this compiles that script with `vm.Script`
 * and hands V8 the code it serialised on an earlier run: parsing and compiling the start path then
 * costs a deserialisation instead (bench/say-hello measures it).
 *
 * Contract:
 * - The cache lives under SEEK_HOME (`cache/v8/`), a directory of the user's own: V8 trusts a code
 *   cache as compiled code, so it must never come from a shared, writable place such as /tmp.
 * - Its name carries the script's name, the Node version, the architecture and the script's size
 *   and mtime, so a new build or a new Node never meets an old cache; V8 also rejects one made
 *   under other flags, and a rejected or missing cache is written again after the run.
 * - A cache is serialised after the run, so it holds the functions that run compiled (those it
 *   loaded from the cache included). The CLI says what kind of run it made (a headless prompt, the
 *   terminal UI, anything else: src/cli/run-kind.ts) and whether it ran tools; the first run of
 *   each kind, and the first of a kind that ran tools, serialise the cache again, adding their
 *   code. Runs with -p (and `--version`) have a build and a cache of their own, so the
 *   terminal UI's code never weighs on a scripted start (V8 deserialises a whole cache, and reads
 *   a whole script, so their sizes are start time).
 * - Large dependencies most runs never load are vendor chunks beside the CLI scripts (chunks.ts):
 *   each compiles through a cache of its own (`chunk-<name>-…-shared.bin`, any kind of run), at
 *   its first use only.
 * - Writes are atomic (temporary file, then rename): concurrent starts read a whole cache or none.
 *   A CRC-32 of the data is checked before V8 sees it: V8 checks a cache's version, flags and
 *   length, not every byte, and a damaged file must cost a recompile, never a crash. Node before
 *   20.15 has no zlib.crc32 and runs without the cache.
 * - Any failure to read or write the cache only costs speed; `SEEK_CODE_CACHE=0` turns it off.
 * - A run that lasts and will write no cache switches V8's `--optimize-for-size` on, and then
 *   writes none (memory-saver.ts: V8 rejects a cache made under other flags).
 *
 * This file is bundled on its own (dist/launch.cjs) and imports nothing from the rest of seek but
 * the routing rule (route.ts), the chunks' require (chunks.ts), the memory saver (memory-saver.ts)
 * and its trace (trace.ts).
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { chunkAwareRequire, chunkFolder, type CompiledScript, type ModuleWrapper } from './chunks.js';
import { startMemorySaver } from './memory-saver.js';
import { runsOnHeadlessBuild } from './route.js';
import { launchTrace } from './trace.js';

interface CliModule {
  main(argv: string[]): Promise<void>;
  runKind?(): 'print' | 'tui' | 'other';
  /** Whether a tool ran (its code is then worth caching). */
  ranTools?(): boolean;
}

/** A cache file: one byte of the kinds of run that went into it (RUN_KIND_BITS, TOOLS_BIT), the CRC-32 of
 * the data (uint32, little-endian), then V8's data. */
const HEADER_BYTES = 5;
const RUN_KIND_BITS = { print: 1, tui: 2, other: 4 } as const;
/** Added to a run's kind when it ran tools. */
const TOOLS_BIT = 8;
/** Caches of other builds kept beside the current ones (an older install has two: -p runs and the rest). */
const KEPT_OTHER_CACHES = 4;
/** A temporary cache file this old was left by a writer that was killed. */
const ABANDONED_TEMPORARY_MS = 60_000;

/** The two builds of the CLI (scripts/build.mjs): the whole CLI, and the one for headless prompts. */
export interface CliScripts {
  full: string;
  headless: string;
}

/** Loads and runs the CLI build that `argv` needs (src/launch/route.ts); resolves when its `main`
 * does. The vendor chunks it asks for (chunks.ts) compile through the same cache. */
export async function launch(scripts: CliScripts, argv: string[]): Promise<void> {
  const headless = runsOnHeadlessBuild(argv);
  const scriptPath = headless ? scripts.headless : scripts.full;
  const compiled: CachedScript[] = [];
  const compile = (path: string, group: CacheGroup): CachedScript => {
    const script = compileCached(path, group);
    compiled.push(script);
    return script;
  };
  const cliScript = compile(scriptPath, headless ? 'print' : 'session');
  const module = { exports: {} };
  const require = chunkAwareRequire(scriptPath, (path) => compile(path, 'shared'));
  cliScript.wrapper.call(module.exports, module.exports, require, module, scriptPath, dirname(scriptPath));
  const cli = module.exports as CliModule;
  const runKind = (): number => RUN_KIND_BITS[cli.runKind?.() ?? 'other'];
  // Whatever this run does next, every cache it has read already holds it (memory-saver.ts).
  const nothingToWrite = (): boolean => compiled.every((script) => script.holds(runKind() | TOOLS_BIT));
  const memorySaver = startMemorySaver({ anchor: scriptPath, nothingToWrite });
  try {
    await cli.main(argv);
  } finally {
    memorySaver.stop();
    // Under --optimize-for-size every cache written now would be rejected by the next start.
    if (!memorySaver.on) {
      const kind = runKind() | (cli.ranTools?.() === true ? TOOLS_BIT : 0);
      for (const script of compiled) script.saveCache(kind, scripts);
    }
  }
}

/** -p runs and the rest have caches of their own for their CLI builds; a chunk has one for all. */
type CacheGroup = 'print' | 'session' | 'shared';

interface CachedScript extends CompiledScript {
  /** True when the script needs no cache written after a run of `kind`: its cache was read and
   * accepted and holds that kind (and the tools, if asked), or there is no cache to write. */
  holds(kind: number): boolean;
  /** Writes the cache after the run if it was missing or rejected, or lacks this kind of run (or
   * its tools). */
  saveCache(kind: number, scripts: CliScripts): void;
}

function compileCached(scriptPath: string, group: CacheGroup): CachedScript {
  const bytes = readFileSync(scriptPath);
  // An ASCII script becomes a one-byte string (half the memory, a third of the decoding time).
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const cache = cacheFile(scriptPath, group);
  const cached = cache ? readCache(cache.path) : undefined;
  const script = new vm.Script(source, { filename: scriptPath, cachedData: cached?.data });
  const usable = cached !== undefined && script.cachedDataRejected !== true;
  launchTrace(`${basename(scriptPath)}: code cache ${!cache ? 'off' : cached === undefined ? 'missing' : usable ? `accepted (kinds ${cached.kinds})` : 'rejected'}`);
  const kinds = usable ? cached.kinds : 0;
  const holds = (kind: number): boolean => !cache || (usable && (kinds & kind) === kind);
  return {
    wrapper: script.runInThisContext() as ModuleWrapper,
    holds,
    saveCache(kind, scripts) {
      if (cache && !holds(kind)) writeCache(cache, script, kinds | kind, scripts);
    },
  };
}

/** A script's build: its name (a chunk's prefixed `chunk-`), the Node version and architecture,
 * its size and mtime. A cache is named after the build that made it, so a new build or a new Node
 * never meets an old cache. */
function buildOf(scriptPath: string): string {
  const { size, mtimeMs } = statSync(scriptPath);
  const name = basename(dirname(scriptPath)) === 'chunks' ? `chunk-${basename(scriptPath, '.cjs')}` : basename(scriptPath, '.cjs');
  return `${name}-${process.version}-${process.arch}-${size}-${Math.floor(mtimeMs)}`;
}

/** The builds whose caches are this install's own: the two CLI scripts and the chunks beside them. */
function currentBuilds(scripts: CliScripts): string[] {
  const builds = [buildOf(scripts.full), buildOf(scripts.headless)];
  const folder = chunkFolder(scripts.full);
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    // A build without chunks: nothing more of ours.
  }
  for (const name of names) if (name.endsWith('.cjs')) builds.push(buildOf(join(folder, name)));
  return builds;
}

function cacheFile(scriptPath: string, group: CacheGroup): { path: string } | undefined {
  if (process.env.SEEK_CODE_CACHE === '0' || typeof zlib.crc32 !== 'function') return undefined;
  try {
    // Same rule as src/config/paths.ts seekHome(), which this file cannot import.
    const override = process.env.SEEK_HOME;
    const home = override !== undefined && override.trim() !== '' ? resolve(override) : join(homedir(), '.seek');
    return { path: join(home, 'cache', 'v8', `${buildOf(scriptPath)}-${group}.bin`) };
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

function writeCache({ path: file }: { path: string }, script: vm.Script, kinds: number, scripts: CliScripts): void {
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
    pruneOtherBuilds(dir, currentBuilds(scripts));
  } catch {
    // A cache that cannot be written (read-only home, full disk) only costs the next start time;
    // a partly written temporary file goes.
    unlinkQuietly(temporary);
  }
}

/** Caches are named `<script>-<node>-<arch>-<size>-<mtime>-<group>.bin` (buildOf). */
const CACHE_NAME = /^(main|headless|chunk-[a-z0-9]+)-/;

/** Keeps the newest few caches of other builds (another install sharing this SEEK_HOME keeps its
 * own), and removes the rest: a rebuilt or upgraded seek never reads its old cache again. A
 * temporary file older than a minute was left by a killed writer and goes too. */
function pruneOtherBuilds(dir: string, current: string[]): void {
  const entries = readdirSync(dir)
    .filter((name) => CACHE_NAME.test(name))
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
  const ours = (name: string): boolean => current.some((build) => name.startsWith(`${build}-`));
  const others = entries.filter((entry) => !entry.name.endsWith('.tmp') && !ours(entry.name)).sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const stale of others.slice(KEPT_OTHER_CACHES)) unlinkQuietly(stale.path);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Another process may have removed it first.
  }
}
