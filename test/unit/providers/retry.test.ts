import { afterEach, describe, expect, it } from 'vitest';
import { withRetries } from '../../../src/providers/retry.js';
import type { ModelRequest, ProviderError, StreamEvent, StreamFn } from '../../../src/providers/types.js';
import { collect } from '../../support/scripted-server/index.js';

const request: ModelRequest = { model: 'm', system: '', messages: [{ role: 'user', content: 'x' }], tools: [] };

const failure = (error: Partial<ProviderError> = {}): StreamEvent => ({
  type: 'error',
  error: { kind: 'server', message: 'X returned HTTP 503 (service unavailable): busy', summary: 'X returned HTTP 503 (service unavailable)', detail: 'busy', retryable: true, status: 503, ...error },
  message: { role: 'assistant', content: 'part', toolCalls: [], stopReason: 'error' },
});
const done: StreamEvent = { type: 'done', message: { role: 'assistant', content: 'ok', toolCalls: [], stopReason: 'stop' } };

/** An inner stream that plays one script per attempt. */
function scripted(...attempts: StreamEvent[][]): StreamFn & { calls: number } {
  const fn = Object.assign(
    async function* () {
      const events = attempts[fn.calls++] ?? [];
      for (const event of events) yield event;
    },
    { calls: 0 },
  );
  return fn;
}

function recorder(): { sleeps: number[]; sleep: (ms: number) => Promise<void> } {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms) => void sleeps.push(ms) };
}

const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
});

describe('withRetries', () => {
  it('backs off exponentially with full jitter, capped at maxDelayMs', async () => {
    const inner = scripted([failure()], [failure()], [failure()], [failure()], [done]);
    const { sleeps, sleep } = recorder();
    const events = await collect(withRetries(inner, { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 300, random: () => 0.5, sleep })(request));
    expect(sleeps).toEqual([50, 100, 150, 150]);
    expect(events.filter((e) => e.type === 'retry').map((e) => (e.type === 'retry' ? e.attempt : 0))).toEqual([1, 2, 3, 4]);
    expect(events.at(-1)).toBe(done);
  });

  it('forwards deltas of a failed attempt, then a retry event, then the next attempt', async () => {
    const inner = scripted([{ type: 'text_delta', text: 'par' }, failure({ kind: 'stream_cut' })], [{ type: 'text_delta', text: 'ok' }, done]);
    const events = await collect(withRetries(inner, { sleep: recorder().sleep })(request));
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'retry', 'text_delta', 'done']);
  });

  it('honours retryAfterMs but caps it at maxDelayMs', async () => {
    const inner = scripted([failure({ retryAfterMs: 45_000 })], [done]);
    const { sleeps, sleep } = recorder();
    await collect(withRetries(inner, { sleep, maxDelayMs: 30_000 })(request));
    expect(sleeps).toEqual([30_000]);
  });

  it('passes a non-retryable error through untouched after one attempt', async () => {
    const auth = failure({ kind: 'auth', retryable: false, status: 401, message: 'X returned HTTP 401 (authentication failed): bad key', summary: 'X returned HTTP 401 (authentication failed)', detail: 'bad key' });
    const inner = scripted([auth]);
    const events = await collect(withRetries(inner, { sleep: recorder().sleep })(request));
    expect(inner.calls).toBe(1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ error: { message: 'X returned HTTP 401 (authentication failed): bad key', attempts: 1 } });
  });

  it('names the attempts in the final error', async () => {
    const inner = scripted([failure()], [failure()]);
    const events = await collect(withRetries(inner, { maxAttempts: 2, sleep: recorder().sleep })(request));
    expect(events.at(-1)).toMatchObject({
      error: { message: 'X returned HTTP 503 (service unavailable) after 2 attempts: busy', attempts: 2 },
      message: { content: 'part', errorMessage: 'X returned HTTP 503 (service unavailable) after 2 attempts: busy' },
    });
  });

  it('treats an inner stream that ends without done or error as a retryable cut', async () => {
    const inner = scripted([{ type: 'text_delta', text: 'x' }], [done]);
    const events = await collect(withRetries(inner, { sleep: recorder().sleep })(request));
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ error: { kind: 'stream_cut' } });
    expect(events.at(-1)).toBe(done);
  });

  it('stops without retry when the signal is aborted during the wait', async () => {
    const controller = new AbortController();
    const inner = scripted([failure()], [done]);
    const sleep = async (): Promise<void> => controller.abort();
    const events = await collect(withRetries(inner, { sleep })(request, controller.signal));
    expect(inner.calls).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'aborted' }, message: { stopReason: 'aborted' } });
  });

  it('does not retry an aborted attempt', async () => {
    const aborted = failure({ kind: 'aborted', retryable: false, message: 'Request cancelled' });
    const inner = scripted([aborted]);
    const events = await collect(withRetries(inner, { sleep: recorder().sleep })(request));
    expect(events).toEqual([aborted]);
  });

  it('reads SEEK_MAX_RETRIES and SEEK_RETRY_BASE_MS from the environment', async () => {
    process.env['SEEK_MAX_RETRIES'] = '1';
    process.env['SEEK_RETRY_BASE_MS'] = '10';
    const inner = scripted([failure()], [failure()], [done]);
    const { sleeps, sleep } = recorder();
    const events = await collect(withRetries(inner, { sleep, random: () => 0.99 })(request));
    expect(inner.calls).toBe(2);
    expect(sleeps).toEqual([10]);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { attempts: 2 } });
  });

  it('really sleeps by default, and wakes early on abort', async () => {
    const controller = new AbortController();
    const inner = scripted([failure({ retryAfterMs: 10_000 })], [done]);
    setTimeout(() => controller.abort(), 30);
    const started = performance.now();
    const events = await collect(withRetries(inner)(request, controller.signal));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(events.at(-1)).toMatchObject({ error: { kind: 'aborted' } });
  });
});
