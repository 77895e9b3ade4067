import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOW_MEMORY_CHECKS_MS, startMemorySaver } from '../../../src/launch/memory-saver.js';

// The launcher switches V8's --optimize-for-size on only in a run that lasts and will write no
// code cache (src/launch/memory-saver.ts says why: V8 rejects a cache made under other flags).
// test/e2e/memory-saver.test.ts checks it against the real process and V8.

const FIRST = LOW_MEMORY_CHECKS_MS[0];
const LAST = LOW_MEMORY_CHECKS_MS[LOW_MEMORY_CHECKS_MS.length - 1]!;

afterEach(() => {
  vi.useRealTimers();
});

function saver(nothingToWrite: () => boolean, env: NodeJS.ProcessEnv = {}) {
  const flags: string[] = [];
  const started = startMemorySaver({ anchor: import.meta.filename, nothingToWrite, env, setFlags: (flag) => flags.push(flag) });
  return { flags, started };
}

describe('memory saver', () => {
  it('switches the flag on once the run has lasted, if it will write no cache, and says so', () => {
    vi.useFakeTimers();
    const { flags, started } = saver(() => true);
    vi.advanceTimersByTime(FIRST - 1);
    expect(flags).toEqual([]);
    expect(started.on).toBe(false);
    vi.advanceTimersByTime(1);
    expect(flags).toEqual(['--optimize-for-size']);
    expect(started.on).toBe(true); // the launcher then writes no cache
    started.stop();
    expect(flags).toEqual(['--optimize-for-size']); // never switched back: that would not restore V8's flag hash
  });

  it('leaves the flag off in a run that has a cache to write, asking at each check and not before', () => {
    vi.useFakeTimers();
    const asked = vi.fn(() => false);
    const { flags, started } = saver(asked);
    expect(asked).not.toHaveBeenCalled();
    vi.advanceTimersByTime(FIRST);
    expect(asked).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(LAST * 2);
    expect(asked).toHaveBeenCalledTimes(LOW_MEMORY_CHECKS_MS.length);
    expect(flags).toEqual([]);
    expect(started.on).toBe(false);
    expect(vi.getTimerCount()).toBe(0); // no check left pending
  });

  it('switches at a later check once the answer changes (the CLI said late what kind of run it makes)', () => {
    vi.useFakeTimers();
    let known = false;
    const { flags, started } = saver(() => known);
    vi.advanceTimersByTime(FIRST);
    expect(flags).toEqual([]);
    known = true;
    vi.advanceTimersByTime(LOW_MEMORY_CHECKS_MS[1] - FIRST - 1);
    expect(flags).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flags).toEqual(['--optimize-for-size']);
    expect(started.on).toBe(true);
    vi.advanceTimersByTime(LAST * 2);
    expect(flags).toEqual(['--optimize-for-size']); // once
    expect(vi.getTimerCount()).toBe(0);
  });

  it('costs a short run nothing: stopped before the check, nothing is asked or set', () => {
    vi.useFakeTimers();
    const asked = vi.fn(() => true);
    const { flags, started } = saver(asked);
    started.stop();
    vi.advanceTimersByTime(LAST * 2);
    expect(asked).not.toHaveBeenCalled();
    expect(flags).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves V8 alone with SEEK_LOW_MEMORY=0', () => {
    vi.useFakeTimers();
    const { flags, started } = saver(() => true, { SEEK_LOW_MEMORY: '0' });
    vi.advanceTimersByTime(LAST * 2);
    expect(flags).toEqual([]);
    expect(started.on).toBe(false);
  });

  it('writes its decision to stderr only with SEEK_LAUNCH_TRACE=1', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      saver(() => true);
      saver(() => true, { SEEK_LAUNCH_TRACE: '1' });
      saver(() => false, { SEEK_LAUNCH_TRACE: '1' });
      vi.advanceTimersByTime(FIRST);
    } finally {
      write.mockRestore();
    }
    expect(written).toEqual(['seek launch: --optimize-for-size on\n', `seek launch: --optimize-for-size stays off at ${FIRST} ms (a code cache to write after this run)\n`]);
  });
});
