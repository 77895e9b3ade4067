import { describe, expect, it } from 'vitest';
import {
  createCompactor,
  MIN_MESSAGES_TO_COMPACT,
  SUMMARISER_SYSTEM_PROMPT,
  type CompactorOptions,
} from '../../../src/runtime/compaction.js';
import { compactionSummaryMessage } from '../../../src/session/format.js';
import { effectiveMessages } from '../../../src/session/reader.js';
import type { Message } from '../../../src/providers/types.js';
import { fakeStream, type FakeReply } from '../../support/fake-stream.js';
import { recordingHooks, sampleHistory, usage } from './helpers.js';

const signal = new AbortController().signal;

function setup(replies: FakeReply[] = [{ text: 'BRIEF: rename the heading; next: fix the failing tests.' }], overrides: Partial<CompactorOptions> = {}) {
  const stream = fakeStream(replies);
  const problems: string[] = [];
  const compactor = createCompactor({
    stream,
    model: 'test-model',
    contextWindow: 100_000,
    env: {},
    onProblem: (message) => problems.push(message),
    ...overrides,
  });
  return { stream, compactor, problems };
}

/** The summariser's one user message. */
function promptOf(stream: ReturnType<typeof fakeStream>, i = 0): string {
  const message = stream.requests[i]?.messages[0];
  return message?.role === 'user' ? message.content : '';
}

describe('compactIfNeeded: when to compact', () => {
  it('leaves the history alone below the threshold (default 0.85 of the window)', async () => {
    const { stream, compactor } = setup();
    expect(await compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(80_000, 5_000), signal })).toBeUndefined();
    expect(stream.requests).toHaveLength(0);
  });

  it('compacts when input + output exceed the threshold', async () => {
    const { stream, compactor } = setup();
    const result = await compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(85_000, 1), signal });
    expect(result?.summary).toBe('BRIEF: rename the heading; next: fix the failing tests.');
    expect(stream.requests).toHaveLength(1);
  });

  it('does nothing without usage (first request, or right after a compaction)', async () => {
    const { compactor } = setup();
    expect(await compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: undefined, signal })).toBeUndefined();
  });

  it('never compacts an empty or tiny history, however full the window', async () => {
    const { stream, compactor } = setup();
    const tiny = sampleHistory().slice(0, MIN_MESSAGES_TO_COMPACT - 1);
    expect(await compactor.compactIfNeeded({ history: tiny, lastUsage: usage(99_000, 900), signal })).toBeUndefined();
    expect(await compactor.compactIfNeeded({ history: [], lastUsage: usage(99_000, 900), signal })).toBeUndefined();
    expect(stream.requests).toHaveLength(0);
  });

  it('honours a threshold option, and SEEK_COMPACT_THRESHOLD over it', async () => {
    const byOption = setup(undefined, { threshold: 0.5 });
    expect(await byOption.compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(50_001), signal })).toBeDefined();

    const byEnv = setup(undefined, { threshold: 0.9, env: { SEEK_COMPACT_THRESHOLD: '0.5' } });
    expect(await byEnv.compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(50_000), signal })).toBeUndefined();
    expect(await byEnv.compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(50_001), signal })).toBeDefined();

    const full = setup(undefined, { env: { SEEK_COMPACT_THRESHOLD: '1' } });
    expect(await full.compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(99_999), signal })).toBeUndefined();
  });

  it('reports an invalid SEEK_COMPACT_THRESHOLD and keeps the default', async () => {
    for (const value of ['abc', '0', '1.5', '-0.2']) {
      const { compactor, problems } = setup(undefined, { env: { SEEK_COMPACT_THRESHOLD: value } });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(`SEEK_COMPACT_THRESHOLD=${value}`);
      expect(await compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(84_000), signal })).toBeUndefined();
      expect(await compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(86_000), signal })).toBeDefined();
    }
  });

  it('returns undefined and reports the problem when the summarising request fails', async () => {
    const { compactor, problems } = setup([{ error: { kind: 'server', message: 'HTTP 500 upstream exploded' } }]);
    const result = await compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(99_000), signal });
    expect(result).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/compaction failed.*HTTP 500 upstream exploded/);
  });

  it('treats an empty summary as a failure', async () => {
    const { compactor, problems } = setup([{ text: '   ' }]);
    expect(await compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(99_000), signal })).toBeUndefined();
    expect(problems[0]).toContain('empty summary');
  });

  it('stays quiet when the run was cancelled during compaction', async () => {
    const controller = new AbortController();
    controller.abort();
    const { compactor, problems } = setup();
    expect(await compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(99_000), signal: controller.signal })).toBeUndefined();
    expect(problems).toEqual([]);
  });
});

describe('compactNow', () => {
  it('returns exactly the summary message the session reader rebuilds, with the summariser bill', async () => {
    const { compactor } = setup();
    const history = sampleHistory();
    const result = await compactor.compactNow(history, signal);
    expect(result.messages).toEqual([compactionSummaryMessage(result.summary)]);
    expect(result.replacedMessages).toBe(history.length);
    expect(result.usage).toEqual({ inputTokens: 100, outputTokens: 10, cacheReadTokens: 50, cacheWriteTokens: 0 });
    expect(result.costUsd).toBe(0.001);
    expect(result.model).toBe('test-model');
    // A resumed session rebuilds the same history from the file's compaction entry.
    const rebuilt = effectiveMessages([
      ...history.map((message, index) => ({ index, entry: { type: 'message' as const, ts: '', message } })),
      { index: history.length, entry: { type: 'compaction' as const, ts: '', summary: result.summary, replaces_through: history.length - 1 } },
    ]);
    expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(result.messages));
  });

  it('sends one request with no tools, the summariser prompt and the same model', async () => {
    const { stream, compactor } = setup();
    await compactor.compactNow(sampleHistory(), signal);
    expect(stream.requests).toHaveLength(1);
    const request = stream.requests[0]!;
    expect(request.tools).toEqual([]);
    expect(request.model).toBe('test-model');
    expect(request.system).toBe(SUMMARISER_SYSTEM_PROMPT);
    expect(request.messages).toHaveLength(1);
    expect(request.messages[0]!.role).toBe('user');
  });

  it('includes the instructions given to /compact', async () => {
    const { stream, compactor } = setup();
    await compactor.compactNow(sampleHistory(), signal, '  focus on the failing tests ');
    expect(promptOf(stream)).toContain('Additional instructions from the user for this summary: focus on the failing tests');
  });

  it('compacts a short history when asked, but not an empty one', async () => {
    const { compactor } = setup();
    expect((await compactor.compactNow(sampleHistory().slice(0, 1), signal)).replacedMessages).toBe(1);
    await expect(compactor.compactNow([], signal)).rejects.toThrow(/Nothing to compact/);
  });

  it('throws a clear error when the request fails', async () => {
    const { compactor, problems } = setup([{ error: { kind: 'auth', message: 'HTTP 401 invalid key' } }]);
    await expect(compactor.compactNow(sampleHistory(), signal)).rejects.toThrow('the summarising request failed: HTTP 401 invalid key');
    expect(problems).toEqual([]); // the /compact command shows the error itself
  });

  it('throws when the stream ends without an answer or throws', async () => {
    const silent = createCompactor({ stream: async function* () {}, model: 'm', contextWindow: 1000, env: {} });
    await expect(silent.compactNow(sampleHistory(), signal)).rejects.toThrow(/without an answer/);
    const broken = createCompactor({
      stream: async function* () {
        yield* [];
        throw new Error('socket hang up');
      },
      model: 'm',
      contextWindow: 1000,
      env: {},
    });
    await expect(broken.compactNow(sampleHistory(), signal)).rejects.toThrow('socket hang up');
  });

  it('fires pre_compact before the request and post_compact after it', async () => {
    const log: string[] = [];
    const hooks = recordingHooks(log);
    const inner = fakeStream([{ text: 'the brief' }]);
    const stream: typeof inner = Object.assign((...args: Parameters<typeof inner>) => {
      log.push('request');
      return inner(...args);
    }, { requests: inner.requests, snapshots: inner.snapshots });
    const compactor = createCompactor({ stream, model: 'm', contextWindow: 100_000, env: {}, hooks });
    await compactor.compactNow(sampleHistory(), signal);
    expect(log).toEqual(['pre_compact', 'request', 'post_compact']);
    expect(hooks.calls).toEqual([
      { event: 'pre_compact', details: { reason: 'manual', messages: 5 } },
      { event: 'post_compact', details: { reason: 'manual', summary_chars: 'the brief'.length } },
    ]);

    const auto = recordingHooks();
    const autoCompactor = createCompactor({ stream: fakeStream([{ text: 'x' }]), model: 'm', contextWindow: 1_000, env: {}, hooks: auto });
    await autoCompactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(999), signal });
    expect(auto.calls.map((c) => c.details)).toEqual([{ reason: 'auto', messages: 5 }, { reason: 'auto', summary_chars: 1 }]);
  });

  it('fires no post_compact when the request fails', async () => {
    const hooks = recordingHooks();
    const { compactor } = setup([{ error: { kind: 'server', message: 'boom' } }], { hooks });
    await compactor.compactIfNeeded({ history: sampleHistory(), lastUsage: usage(99_000), signal });
    expect(hooks.calls.map((c) => c.event)).toEqual(['pre_compact']);
  });

  it('can compact a history that starts with an earlier summary', async () => {
    const { stream, compactor } = setup();
    const history: Message[] = [compactionSummaryMessage('EARLIER BRIEF'), ...sampleHistory().slice(1)];
    await compactor.compactNow(history, signal);
    expect(promptOf(stream)).toContain('EARLIER BRIEF');
  });
});
