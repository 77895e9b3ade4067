import { describe, expect, it } from 'vitest';
import { lazy, lazyAsync } from '../../../src/util/lazy.js';
import { lazySchema } from '../../../src/util/zod.js';

describe('lazy', () => {
  it('builds at the first call, once, and returns the same value after', () => {
    let builds = 0;
    const value = lazy(() => ({ n: ++builds }));
    expect(builds).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(builds).toBe(1);
  });

  it('tries a builder that threw again at the next call', () => {
    let calls = 0;
    const value = lazy(() => {
      calls += 1;
      if (calls === 1) throw new Error('first call fails');
      return calls;
    });
    expect(() => value()).toThrow('first call fails');
    expect(value()).toBe(2);
    expect(value()).toBe(2);
  });
});

describe('lazySchema', () => {
  it('hands the builder zod and keeps the schema it built', () => {
    const schema = lazySchema((z) => z.object({ n: z.number().int() }).strict());
    expect(schema()).toBe(schema());
    expect(schema().safeParse({ n: 1 }).success).toBe(true);
    expect(schema().safeParse({ n: 1.5 }).success).toBe(false);
    expect(schema().safeParse({ n: 1, extra: true }).success).toBe(false);
  });
});

describe('lazyAsync', () => {
  it('builds once for concurrent first calls and keeps the value', async () => {
    let builds = 0;
    const value = lazyAsync(async () => ++builds);
    expect(await Promise.all([value(), value(), value()])).toEqual([1, 1, 1]);
    expect(await value()).toBe(1);
    expect(builds).toBe(1);
  });

  it('forgets a build that rejected, and tries again at the next call', async () => {
    let builds = 0;
    const value = lazyAsync(async () => {
      builds++;
      if (builds === 1) throw new Error('not yet');
      return 'ready';
    });
    await expect(value()).rejects.toThrow('not yet');
    expect(await value()).toBe('ready');
    expect(await value()).toBe('ready');
    expect(builds).toBe(2);
  });
});
