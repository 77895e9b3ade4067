import { describe, expect, it } from 'vitest';
import { activityOptions, attemptRoutedFetch, type WireActivity } from '../../../src/providers/watched-fetch.js';

/** A fetch answering with a body of two chunks, without a network. */
const fakeFetch = (async () =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\n'));
        controller.enqueue(new TextEncoder().encode(': keep-alive\n\n'));
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  )) as typeof fetch;

function recorder(): WireActivity & { log: string[] } {
  const log: string[] = [];
  return { log, responded: (response) => log.push(`responded ${response.status}`), bytesReceived: (count) => log.push(`bytes ${count}`) };
}

describe('attemptRoutedFetch', () => {
  it('reports each request to the attempt it carries, through the spreads an SDK makes of its options', async () => {
    const fetch = attemptRoutedFetch(fakeFetch);
    const [first, second] = [recorder(), recorder()];
    // As the SDKs build a request: { ...defaults, ...fetchOptions }, then { signal, ...options }.
    const init = { signal: new AbortController().signal, ...{ method: 'POST', ...activityOptions(first) } };
    const response = await fetch('http://127.0.0.1:1/x', { ...init });
    for await (const _chunk of response.body as unknown as AsyncIterable<Uint8Array>) void _chunk;
    await fetch('http://127.0.0.1:1/x', { ...activityOptions(second) });
    expect(first.log).toEqual(['responded 200', 'bytes 9', 'bytes 14']);
    expect(second.log).toEqual(['responded 200']);
  });

  it('refuses a request that carries no attempt, rather than leave a watchdog deaf', async () => {
    await expect(attemptRoutedFetch(fakeFetch)('http://127.0.0.1:1/x', { method: 'POST' })).rejects.toThrow(/carries no attempt/);
  });
});
