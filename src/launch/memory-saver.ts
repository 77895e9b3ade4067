/**
 * Bounded memory for long sessions. Most of what a long session's RSS gains is garbage, not
 * retained state (issue 38: a forced GC at turn 495 left 9.6 MB live of 59 MB): each request's
 * body, the size of the whole history, is a new string, and V8's default heap growth lets such
 * garbage pile up before a full collection. V8's `--optimize-for-size` collects sooner and grows
 * the heap less; over 500 turns (bench/long-session.ts) it took max RSS from 104-108 MB to 80-83 MB
 * (docs/performance.md). It is switched on once the process has run `LOW_MEMORY_AFTER_MS`: loading
 * node:v8 costs 3-15 ms on a busy 2-core machine, which a short `seek -p` should not pay, and
 * a short run never grows. `SEEK_LOW_MEMORY=0` leaves V8's defaults alone.
 *
 * The flag is not part of the flag hash V8 checks in a code cache (a cache made under it is
 * accepted without it and the reverse), and it is switched off again before the caches are
 * written after the run all the same.
 */
import { createRequire } from 'node:module';
import type * as V8 from 'node:v8';

export const LOW_MEMORY_AFTER_MS = 2_000;

export interface MemorySaver {
  /** Cancels a pending switch, or restores V8's default. */
  stop(): void;
}

/** Arms the switch; `anchor` is any absolute file path (for `createRequire`); `setFlags` is
 * node:v8's `setFlagsFromString` unless a test gives its own. */
export function startMemorySaver(anchor: string, env: NodeJS.ProcessEnv = process.env, setFlags?: (flags: string) => void): MemorySaver {
  if (env['SEEK_LOW_MEMORY'] === '0') return { stop: () => undefined };
  let set: ((flags: string) => void) | undefined;
  const timer = setTimeout(() => {
    set = setFlags ?? (createRequire(anchor)('node:v8') as typeof V8).setFlagsFromString;
    set('--optimize-for-size');
  }, LOW_MEMORY_AFTER_MS);
  timer.unref();
  return {
    stop: () => {
      clearTimeout(timer);
      set?.('--no-optimize-for-size');
    },
  };
}
