/**
 * The built-in grep matches in a worker thread: a catastrophic pattern neither blocks the event
 * loop nor outlives its time budget or an abort. `(a+)+$` on forty a's and a b needs about 2^40
 * backtracking steps, so it never finishes by itself; on the main thread it would freeze the test.
 */
import { describe, expect, it, vi } from 'vitest';
import { createGrepTool } from '../../../src/tools/grep.js';
import { regexWorkerStats } from '../../../src/tools/grep-worker.js';
import { makeCtx, run, tempDir, writeTree } from './helpers.js';

const CATASTROPHIC = '(a+)+$';
const EVIL_LINE = `${'a'.repeat(40)}b`;

/** Counts the ticks of a main-thread interval while `work` runs. */
async function countTicks<T>(work: Promise<T>): Promise<{ value: T; ticks: number }> {
  let ticks = 0;
  const interval = setInterval(() => (ticks += 1), 1);
  try {
    return { value: await work, ticks };
  } finally {
    clearInterval(interval);
  }
}

/** Resolves once `condition()` holds, checked on each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}


/** Nothing matches any more, and the only thread left is at most the one kept warm for the next
 * search: a stopped search's worker was terminated, not left spinning. */
function expectNoThreadBeyondTheWarmOne(): void {
  const stats = regexWorkerStats();
  expect(stats.matching).toBe(0);
  expect(stats.live).toBe(stats.idle);
  expect(stats.idle).toBeLessThanOrEqual(1);
}

describe('grep built-in search in a worker', () => {
  it('stops a catastrophic pattern at the time budget with a clear error, the event loop ticking meanwhile', async () => {
    const root = tempDir();
    writeTree(root, { 'evil.txt': `fine\n${EVIL_LINE}\n`, 'other.txt': 'aaa\n' });
    const tool = createGrepTool({ engine: 'builtin', timeoutMs: 300 });
    const { value: result, ticks } = await countTicks(run(tool, { pattern: CATASTROPHIC }, makeCtx(root)));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^The pattern took longer than 0\.3 s to match and was stopped; simplify it/);
    expect(ticks).toBeGreaterThanOrEqual(3);
    expectNoThreadBeyondTheWarmOne();
  });

  it('takes its budget from SEEK_GREP_TIMEOUT_MS', async () => {
    const root = tempDir();
    writeTree(root, { 'evil.txt': `${EVIL_LINE}\n` });
    vi.stubEnv('SEEK_GREP_TIMEOUT_MS', '200');
    try {
      const result = await run(createGrepTool({ engine: 'builtin' }), { pattern: CATASTROPHIC }, makeCtx(root));
      expect(result.content).toMatch(/^The pattern took longer than 0\.2 s/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('ends at once when the tool call is aborted, and leaves no thread running', async () => {
    const root = tempDir();
    writeTree(root, { 'evil.txt': `${EVIL_LINE}\n` });
    const controller = new AbortController();
    const tool = createGrepTool({ engine: 'builtin', timeoutMs: 600_000 });
    let settled = false;
    const call = run(tool, { pattern: CATASTROPHIC }, makeCtx(root, { signal: controller.signal })).finally(() => {
      settled = true;
    });
    let ticks = 0;
    const interval = setInterval(() => (ticks += 1), 1);
    try {
      await until(() => regexWorkerStats().matching === 1); // the search is under way in its worker
      await until(() => ticks >= 20 || settled);
    } finally {
      clearInterval(interval);
    }
    expect(settled).toBe(false); // still matching, yet the main thread ran the interval 20 times
    controller.abort();
    const result = await call;
    expect(result).toMatchObject({ isError: true, content: 'Interrupted: the search was cancelled.' });
    expectNoThreadBeyondTheWarmOne();
  });

  it('keeps path order and every match across many batches of files', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let index = 0; index < 40; index += 1) files[`f${String(index).padStart(2, '0')}.txt`] = `x\nhit ${index}\ny\n`;
    writeTree(root, files);
    const result = await run(createGrepTool({ engine: 'builtin' }), { pattern: 'hit', context_lines: 1 }, makeCtx(root));
    const expected = Object.keys(files).flatMap((name, index) => [...(index > 0 ? ['--'] : []), `${name}-1-x`, `${name}:2:hit ${index}`, `${name}-3-y`]);
    expect(result.content).toBe(expected.join('\n'));
  });
});
