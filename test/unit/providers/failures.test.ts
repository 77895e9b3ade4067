import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProvider, type ProviderName } from '../../../src/providers/index.js';
import type { ModelRequest, StreamEvent } from '../../../src/providers/types.js';
import { collect, ScriptedServer } from '../../support/scripted-server/index.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterEach(() => server.reset());
afterAll(() => server.close());

const request: ModelRequest = {
  model: 'deepseek-v4-flash',
  system: 'sys',
  messages: [{ role: 'user', content: 'hello' }],
  tools: [],
};

interface Harness {
  sleeps: number[];
  events(signal?: AbortSignal): AsyncIterable<StreamEvent>;
  stream(signal?: AbortSignal): Promise<StreamEvent[]>;
}

/** A provider pointed at the scripted server, recording the retry waits instead of sleeping. */
function harness(provider: ProviderName, extra: { idleTimeoutMs?: number; maxAttempts?: number; baseUrl?: string } = {}): Harness {
  const sleeps: number[] = [];
  const p = createProvider({
    provider,
    apiKey: 'k',
    baseUrl: extra.baseUrl ?? (provider === 'anthropic' ? server.anthropicBaseUrl : server.url),
    ...(extra.idleTimeoutMs !== undefined ? { idleTimeoutMs: extra.idleTimeoutMs } : {}),
    retry: {
      maxAttempts: extra.maxAttempts ?? 4,
      baseDelayMs: 100,
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
  });
  const model = provider === 'anthropic' ? 'claude-haiku-4-5' : request.model;
  const events = (signal?: AbortSignal) => p.stream({ ...request, model }, signal);
  return { sleeps, events, stream: (signal) => collect(events(signal)) };
}

const last = (events: StreamEvent[]): StreamEvent => events.at(-1)!;

describe.each(['deepseek', 'anthropic'] as const)('failure handling over the %s wire', (provider) => {
  it('retries a 429 after the retry-after delay, then succeeds', async () => {
    server.enqueue({ httpError: { status: 429, message: 'slow down', retryAfterSeconds: 2 } }, { text: 'hi' });
    const h = harness(provider);
    const events = await h.stream();
    expect(h.sleeps).toEqual([2000]);
    const retry = events.find((e) => e.type === 'retry');
    expect(retry).toMatchObject({ attempt: 1, maxAttempts: 4, delayMs: 2000, error: { kind: 'rate_limit', status: 429, retryAfterMs: 2000 } });
    expect(last(events)).toMatchObject({ type: 'done', message: { content: 'hi' } });
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after the last attempt with one clear error event', async () => {
    server.setFallback({ httpError: { status: 500, message: 'boom' } });
    const h = harness(provider);
    const events = await h.stream();
    server.setFallback(undefined);
    expect(server.requests).toHaveLength(4);
    expect(h.sleeps).toEqual([50, 100, 200]);
    expect(events.map((e) => e.type)).toEqual(['retry', 'retry', 'retry', 'error']);
    const failure = last(events);
    const label = provider === 'anthropic' ? 'Anthropic API' : 'DeepSeek API';
    expect(failure).toMatchObject({
      type: 'error',
      error: { kind: 'server', status: 500, retryable: true, attempts: 4, message: `${label} returned HTTP 500 (internal server error) after 4 attempts: boom` },
      message: { stopReason: 'error', errorMessage: `${label} returned HTTP 500 (internal server error) after 4 attempts: boom` },
    });
  });

  it('retries a stream cut after deltas were emitted', async () => {
    server.enqueue({ text: 'partial answer that will be cut', cutAfterChunks: 4 }, { text: 'complete' });
    const events = await harness(provider).stream();
    const retryAt = events.findIndex((e) => e.type === 'retry');
    expect(events.slice(0, retryAt).some((e) => e.type === 'text_delta')).toBe(true);
    expect(events[retryAt]).toMatchObject({ error: { kind: 'stream_cut', retryable: true } });
    expect(last(events)).toMatchObject({ type: 'done', message: { content: 'complete' } });
  });

  it('times out a hanging stream and retries', async () => {
    server.enqueue({ hang: true }, { text: 'awake' });
    const started = performance.now();
    const events = await harness(provider, { idleTimeoutMs: 150 }).stream();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ error: { kind: 'timeout', retryable: true } });
    expect(last(events)).toMatchObject({ type: 'done', message: { content: 'awake' } });
  });

  it('stops at once on abort, with the partial message and no retry', async () => {
    server.enqueue({ text: 'one two three four five six', chunkDelayMs: 80 });
    const controller = new AbortController();
    const h = harness(provider);
    const events: StreamEvent[] = [];
    let abortedAt = 0;
    for await (const event of h.events(controller.signal)) {
      events.push(event);
      if (event.type === 'text_delta' && abortedAt === 0) {
        abortedAt = performance.now();
        controller.abort();
      }
    }
    expect(performance.now() - abortedAt).toBeLessThan(60);
    expect(events.some((e) => e.type === 'retry')).toBe(false);
    expect(last(events)).toMatchObject({
      type: 'error',
      error: { kind: 'aborted', retryable: false },
      message: { stopReason: 'aborted', content: expect.stringMatching(/^one/) },
    });
    expect(h.sleeps).toEqual([]);
  });

  it('does not retry an authentication failure', async () => {
    server.enqueue({ httpError: { status: 401, message: 'invalid api key' } });
    const events = await harness(provider).stream();
    expect(events).toHaveLength(1);
    expect(last(events)).toMatchObject({ error: { kind: 'auth', status: 401, message: expect.stringMatching(/HTTP 401 \(authentication failed\): invalid api key\. The key in use comes from /) } });
  });

  it('recognises context overflow and does not retry it', async () => {
    const message =
      provider === 'anthropic'
        ? 'prompt is too long: 210000 tokens > 200000 maximum'
        : "This model's maximum context length is 131072 tokens. However, you requested 140000 tokens.";
    server.enqueue({ httpError: { status: 400, message } });
    const events = await harness(provider).stream();
    expect(events).toHaveLength(1);
    expect(last(events)).toMatchObject({ error: { kind: 'context_overflow', retryable: false, status: 400 } });
  });

  it('gives up at once when retry-after exceeds 60 s', async () => {
    server.enqueue({ httpError: { status: 429, message: 'quota', retryAfterSeconds: 120 } });
    const h = harness(provider);
    const events = await h.stream();
    expect(h.sleeps).toEqual([]);
    expect(last(events)).toMatchObject({
      error: { kind: 'rate_limit', message: expect.stringMatching(/HTTP 429 \(rate limited\) and asked to wait 120 s before retrying, longer than the 60 s limit; giving up: quota$/) },
    });
  });
});

describe('other failures', () => {
  it('reports a refused connection as a retryable network error naming the address', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const events = await harness('deepseek', { baseUrl, maxAttempts: 2 }).stream();
    expect(events.map((e) => e.type)).toEqual(['retry', 'error']);
    expect(last(events)).toMatchObject({
      error: { kind: 'network', retryable: true, attempts: 2, message: expect.stringContaining(`Could not reach DeepSeek API at ${baseUrl} after 2 attempts`) },
    });
  });

  it('takes the idle timeout from SEEK_STREAM_IDLE_TIMEOUT_MS', async () => {
    const saved = process.env['SEEK_STREAM_IDLE_TIMEOUT_MS'];
    process.env['SEEK_STREAM_IDLE_TIMEOUT_MS'] = '100';
    try {
      server.enqueue({ text: 'late', delayMs: 2_000 }, { text: 'on time' });
      const events = await harness('deepseek').stream();
      expect(events.find((e) => e.type === 'retry')).toMatchObject({
        error: { kind: 'timeout', message: 'DeepSeek API sent no data for 100 ms (idle timeout)' },
      });
      expect(last(events)).toMatchObject({ type: 'done', message: { content: 'on time' } });
    } finally {
      if (saved === undefined) delete process.env['SEEK_STREAM_IDLE_TIMEOUT_MS'];
      else process.env['SEEK_STREAM_IDLE_TIMEOUT_MS'] = saved;
    }
  });

  it('answers an OpenAI-compatible provider without a base URL with a clear error', async () => {
    const events = await collect(createProvider({ provider: 'openai-compatible', apiKey: '' }).stream(request));
    expect(events).toEqual([expect.objectContaining({ type: 'error', error: expect.objectContaining({ kind: 'bad_request', message: expect.stringContaining('OPENAI_BASE_URL') }) })]);
  });
});
