import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../../src/providers/index.js';
import type { StreamEvent } from '../../../src/providers/types.js';
import { collect } from '../../support/scripted-server/index.js';
import { SSE_HEADERS, WireLoopback } from './wire-loopback.js';

/**
 * A stream whose only sign of a normal end is `data: [DONE]` (no finish_reason, no usage chunk):
 * read as an event, or, left without its closing blank line, seen at the very end of the wire by
 * the attempt's watched fetch. Without the marker the same stream is a cut one and is retried.
 */
let server: WireLoopback;
beforeAll(async () => {
  server = await WireLoopback.start();
});
afterAll(() => server.close());

const CONTENT = ['data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}\n\n', 'data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"lo"}}]}\n\n'];

function stream(): Promise<StreamEvent[]> {
  const provider = createProvider({ provider: 'deepseek', apiKey: 'k', baseUrl: `${server.url}/v1`, retry: { maxAttempts: 2, baseDelayMs: 1, sleep: async () => {} } });
  return collect(provider.stream({ model: 'deepseek-v4-flash', system: 's', messages: [{ role: 'user', content: 'hi' }], tools: [] }));
}

/** One request, ended by `done`, with no retry on the way. */
function expectEndedNormally(events: StreamEvent[]): void {
  expect(events.at(-1)!.type).toBe('done');
  expect(events.some((event) => event.type === 'retry')).toBe(false);
  expect(server.requests).toHaveLength(1);
}

describe('[DONE] on the wire ends a stream normally', () => {
  it('accepts a stream with neither finish_reason nor usage when [DONE] arrives, even split across packets', async () => {
    server.serve((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (const chunk of CONTENT) res.write(chunk);
      res.write('data: [DO'); // the marker straddles two writes
      setImmediate(() => res.end('NE]\n\n'));
    });
    const events = await stream();
    expectEndedNormally(events);
    const last = events.at(-1)!;
    if (last.type !== 'done') return;
    expect(last.message.content).toBe('Hello');
    expect(last.message.stopReason).toBe('stop');
  });

  it('accepts [DONE] the server did not close with a blank line, at the very end of the wire', async () => {
    server.serve((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (const chunk of CONTENT) res.write(chunk);
      res.end('data: [DONE]\n');
    });
    expectEndedNormally(await stream());
  });

  it('finds the unclosed [DONE] when it comes a few bytes at a time', async () => {
    server.serve((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (const chunk of CONTENT) res.write(chunk);
      const pieces = ['da', 'ta', ': ', '[D', 'ON', 'E]', '\n'];
      const next = (): void => {
        const piece = pieces.shift()!;
        if (pieces.length === 0) res.end(piece);
        else res.write(piece, () => setImmediate(next));
      };
      next();
    });
    expectEndedNormally(await stream());
  });

  it('retries the same stream cut before [DONE]', async () => {
    let served = 0;
    server.serve((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (const chunk of CONTENT) res.write(chunk);
      res.end(served++ === 0 ? '' : 'data: [DONE]\n\n');
    });
    const events = await stream();
    expect(events.some((event) => event.type === 'retry')).toBe(true);
    expect(events.at(-1)!.type).toBe('done');
    expect(server.requests).toHaveLength(2);
  });
});

describe('events that carry nothing', () => {
  it('skips empty `data:` events and comments sent to keep the stream alive, without a retry', async () => {
    server.serve((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(': keep-alive\n\ndata:\n\n');
      res.write(CONTENT[0]);
      res.write('data:\n\n');
      res.end(`${CONTENT[1]}data: [DONE]\n\n`);
    });
    const events = await stream();
    const last = events.at(-1)!;
    expect(last.type).toBe('done');
    if (last.type !== 'done') return;
    expect(last.message.content).toBe('Hello');
    expect(events.some((event) => event.type === 'retry')).toBe(false);
    expect(server.requests).toHaveLength(1);
  });
});
