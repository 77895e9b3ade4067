import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOW_MEMORY_AFTER_MS, startMemorySaver } from '../../../src/launch/memory-saver.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('memory saver (V8 --optimize-for-size for long runs)', () => {
  it('switches the flag on only once the run has lasted, and off again at the end', () => {
    vi.useFakeTimers();
    const flags: string[] = [];
    const saver = startMemorySaver(import.meta.filename, {}, (flag) => flags.push(flag));
    vi.advanceTimersByTime(LOW_MEMORY_AFTER_MS - 1);
    expect(flags).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flags).toEqual(['--optimize-for-size']);
    saver.stop();
    expect(flags).toEqual(['--optimize-for-size', '--no-optimize-for-size']);
  });

  it('costs a short run nothing: stopped before the delay, no flag is touched', () => {
    vi.useFakeTimers();
    const flags: string[] = [];
    startMemorySaver(import.meta.filename, {}, (flag) => flags.push(flag)).stop();
    vi.advanceTimersByTime(LOW_MEMORY_AFTER_MS * 2);
    expect(flags).toEqual([]);
  });

  it('leaves V8 alone with SEEK_LOW_MEMORY=0', () => {
    vi.useFakeTimers();
    const flags: string[] = [];
    const saver = startMemorySaver(import.meta.filename, { SEEK_LOW_MEMORY: '0' }, (flag) => flags.push(flag));
    vi.advanceTimersByTime(LOW_MEMORY_AFTER_MS * 2);
    saver.stop();
    expect(flags).toEqual([]);
  });

  it('loads node:v8 itself when given no setter', () => {
    vi.useFakeTimers();
    const saver = startMemorySaver(import.meta.filename, {});
    vi.advanceTimersByTime(LOW_MEMORY_AFTER_MS);
    saver.stop(); // the real flag, on then off: nothing thrown
    expect(vi.getTimerCount()).toBe(0);
  });
});
