import { describe, expect, it } from 'vitest';
import { withRequestGate } from '../../../src/providers/gated.js';
import { withRetries } from '../../../src/providers/retry.js';
import type { ModelRequest, ProviderError, RequestGate, StreamEvent, StreamFn } from '../../../src/providers/types.js';

const request: ModelRequest = { model: 'm', system: 's', messages: [{ role: 'user', content: 'hi' }], tools: [] };

/** A gate that records how each attempt ended; `hold` keeps attempts waiting until released. */
function recordingGate(hold?: Promise<void>): RequestGate & { ended: Array<ProviderError | undefined>; acquired: number } {
  const gate = {
    ended: [] as Array<ProviderError | undefined>,
    acquired: 0,
    async acquire(signal?: AbortSignal) {
      if (hold) {
        await Promise.race([hold, new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))]);
      }
      gate.acquired++;
      return (failure?: ProviderError) => void gate.ended.push(failure);
    },
  };
  return gate;
}

async function drain(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('withRequestGate', () => {
  it('passes every attempt, retries included, and tells the gate how each ended', async () => {
    let calls = 0;
    const inner: StreamFn = async function* () {
      calls++;
      if (calls === 1) {
        yield { type: 'error', error: { kind: 'rate_limit', message: '429', retryable: true, retryAfterMs: 1 }, message: { role: 'assistant', content: '', toolCalls: [], stopReason: 'error' } };
        return;
      }
      yield { type: 'done', message: { role: 'assistant', content: 'ok', toolCalls: [], stopReason: 'stop' } };
    };
    const gate = recordingGate();
    const events = await drain(withRetries(withRequestGate(inner, gate), { sleep: async () => undefined })(request));
    expect(events.map((event) => event.type)).toEqual(['retry', 'done']);
    expect(gate.acquired).toBe(2);
    expect(gate.ended.map((failure) => failure?.kind)).toEqual(['rate_limit', undefined]);
  });

  it('ends with an aborted error, sending nothing, when cancelled while waiting for the gate', async () => {
    let sent = 0;
    const inner: StreamFn = async function* () {
      sent++;
      yield { type: 'done', message: { role: 'assistant', content: 'ok', toolCalls: [], stopReason: 'stop' } };
    };
    const controller = new AbortController();
    const gate = recordingGate(new Promise(() => undefined));
    const pending = drain(withRequestGate(inner, gate)(request, controller.signal));
    controller.abort();
    const events = await pending;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', error: { kind: 'aborted' } });
    expect(sent).toBe(0);
    expect(gate.ended).toEqual([]);
  });
});
