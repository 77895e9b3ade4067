import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider, type ProviderName } from '../../../src/providers/index.js';
import type { StreamEvent } from '../../../src/providers/types.js';
import { collect } from '../../support/scripted-server/index.js';
import { anthropicAnswer, keepAlive, openAIAnswer, SSE_HEADERS, WireLoopback } from './wire-loopback.js';

let server: WireLoopback;
beforeAll(async () => {
  server = await WireLoopback.start();
});
afterAll(() => server.close());

const WIRES = [
  { provider: 'deepseek', wire: 'openai', model: 'deepseek-v4-flash', answer: openAIAnswer },
  { provider: 'anthropic', wire: 'anthropic', model: 'claude-haiku-4-5', answer: anthropicAnswer },
] as const;

function stream(provider: ProviderName, model: string, idleTimeoutMs: number, maxAttempts: number): Promise<StreamEvent[]> {
  const baseUrl = provider === 'anthropic' ? server.url : `${server.url}/v1`;
  const p = createProvider({ provider, apiKey: 'k', baseUrl, idleTimeoutMs, retry: { maxAttempts, baseDelayMs: 1, sleep: async () => {} } });
  return collect(p.stream({ model, system: 's', messages: [{ role: 'user', content: 'hi' }], tools: [] }));
}

/** Writes `beat` every `everyMs` until `forMs` have passed by the server's clock, then calls `then`. */
function keepAliveFor(res: ServerResponse, beat: string, everyMs: number, forMs: number, then: () => void): void {
  const started = performance.now();
  const timer = setInterval(() => {
    if (res.destroyed) clearInterval(timer);
    else if (performance.now() - started < forMs) res.write(beat);
    else {
      clearInterval(timer);
      then();
    }
  }, everyMs);
}

describe.each(WIRES)('the idle watchdog on the $provider wire', ({ provider, wire, model, answer }) => {
  it('counts keep-alives as activity: a request kept alive past the idle timeout succeeds without retry', async () => {
    const idleTimeoutMs = 600;
    server.serve((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      keepAliveFor(res, keepAlive(wire), 40, idleTimeoutMs * 2.5, () => res.end(answer('finally here', model)));
    });
    const events = await stream(provider, model, idleTimeoutMs, 4);
    expect(events.filter((e) => e.type === 'retry')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'done', message: { content: 'finally here' } });
    expect(server.requests).toHaveLength(1);
  });

  it('says the server sent no data when nothing at all came back', async () => {
    server.serve(() => {
      // Never answers: not even the status line.
    });
    const events = await stream(provider, model, 200, 1);
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      error: { kind: 'timeout', retryable: true, message: expect.stringMatching(/sent no data for 200 ms \(idle timeout\)$/) },
    });
  });

  it('says keep-alives arrived but no content when the server falls silent after them', async () => {
    const beat = keepAlive(wire);
    server.serve((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(beat);
      res.write(beat);
    });
    const events = await stream(provider, model, 200, 1);
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      error: {
        kind: 'timeout',
        message: expect.stringContaining(`sent ${Buffer.byteLength(beat) * 2} bytes of keep-alives but no content, then nothing for 200 ms`),
      },
    });
  });

  it('says the response stalled partway when content came and then nothing', async () => {
    const full = answer('never finished', model);
    server.serve((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(full.slice(0, full.indexOf('\n\n') + 2));
    });
    const events = await stream(provider, model, 200, 1);
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      error: { kind: 'timeout', message: expect.stringContaining('stopped sending in the middle of the response: nothing for 200 ms') },
    });
  });
});
