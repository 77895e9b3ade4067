/**
 * Bounded memory for long runs. What a long session's RSS gains is garbage, not retained state
 * (issue 38: a forced GC at turn 495 left 9.6 MB live of 59 MB): each request's body, the size of
 * the whole history, is new, and V8's default heap growth lets such garbage pile up before a full
 * collection. V8's `--optimize-for-size` collects sooner and grows the heap less.
 *
 * Contract (why it is switched on so late and so rarely):
 * - V8 stamps a code cache with a hash of the flags in force when it is serialised, and rejects a
 *   cache whose hash differs from the current flags. Once `--optimize-for-size` is set, a cache
 *   serialised in this process would be rejected by every later start (which runs without the
 *   flag; setting `--no-optimize-for-size` again does not restore the hash), and a cache read after
 *   the switch is rejected too (a vendor chunk first loaded late compiles without its cache).
 * - So the flag is switched on only in a run that will write no cache: the launcher's
 *   `nothingToWrite` says that every script compiled so far had a usable cache that already holds
 *   this kind of run and the tools (code-cache.ts), or that the code cache is off. After the switch
 *   the launcher writes no cache at all: a chunk compiled after it had its cache rejected and must
 *   not write it again (it would be rejected by the next start, which would write it again: two
 *   kinds of run fighting over one file).
 * - It is checked when the run has lasted `LOW_MEMORY_CHECKS_MS[0]`: a short run (a scripted
 *   `seek -p`) never grows, and never pays for loading node:v8 (about 3 ms) or for a late chunk
 *   compiled without its cache. A run that has a cache to write is checked again later, as the
 *   answer can change while the CLI has not yet said what kind of run it makes (it says so after
 *   reading piped input, say); once that is known the answer stays, so a few checks suffice.
 * - `SEEK_LOW_MEMORY=0` leaves V8's defaults alone. With `SEEK_LAUNCH_TRACE=1` (trace.ts) the
 *   decision is written to stderr: `seek launch: --optimize-for-size on`, or `… stays off (…)`.
 */
import { createRequire } from 'node:module';
import type * as V8 from 'node:v8';
import { launchTrace } from './trace.js';

/** When the run is checked for the switch, from its start (docs/performance.md has the
 * measurements behind the first); the check stops at the first switch. */
export const LOW_MEMORY_CHECKS_MS = [300, 1_000, 3_000, 10_000] as const;

export interface MemorySaver {
  /** True once `--optimize-for-size` is on in this process: write no code cache. */
  readonly on: boolean;
  /** Cancels a pending check (the run is over). */
  stop(): void;
}

export interface MemorySaverOptions {
  /** Any absolute file path (for `createRequire`, as the launcher is CommonJS). */
  anchor: string;
  /** True when this run will write no code cache whatever it does next. */
  nothingToWrite: () => boolean;
  env?: NodeJS.ProcessEnv;
  /** node:v8's `setFlagsFromString` unless a test gives its own. */
  setFlags?: (flags: string) => void;
}

/** Arms the check; see the contract above. */
export function startMemorySaver(options: MemorySaverOptions): MemorySaver {
  const env = options.env ?? process.env;
  let on = false;
  if (env['SEEK_LOW_MEMORY'] === '0') return { on, stop: () => undefined };
  let timer: NodeJS.Timeout | undefined;
  const checkAt = (index: number, elapsed: number): void => {
    const at = LOW_MEMORY_CHECKS_MS[index];
    if (at === undefined) return;
    timer = setTimeout(() => {
      if (options.nothingToWrite()) return switchOn();
      launchTrace(`--optimize-for-size stays off at ${at} ms (a code cache to write after this run)`, env);
      checkAt(index + 1, at);
    }, at - elapsed);
    timer.unref();
  };
  const switchOn = (): void => {
    const setFlags = options.setFlags ?? (createRequire(options.anchor)('node:v8') as typeof V8).setFlagsFromString;
    setFlags('--optimize-for-size');
    on = true;
    launchTrace('--optimize-for-size on', env);
  };
  checkAt(0, 0);
  return {
    get on() {
      return on;
    },
    stop: () => clearTimeout(timer),
  };
}
