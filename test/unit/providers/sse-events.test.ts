import { describe, expect, it } from 'vitest';
import { serverSentEvents, type ServerSentEvent } from '../../../src/providers/sse-events.js';

async function* chunksOf(parts: (string | Uint8Array)[], log: string[] = []): AsyncGenerator<Uint8Array> {
  try {
    for (const part of parts) yield typeof part === 'string' ? new TextEncoder().encode(part) : part;
    log.push('ended');
  } finally {
    log.push('closed');
  }
}

async function collect(parts: (string | Uint8Array)[]): Promise<ServerSentEvent[][]> {
  const batches: ServerSentEvent[][] = [];
  for await (const batch of serverSentEvents(chunksOf(parts))) batches.push(batch);
  return batches;
}

describe('serverSentEvents', () => {
  it('hands on the events each chunk completes, together, in order', async () => {
    const batches = await collect(['data: {"a":1}\n\ndata: {"a":2}\n\nda', 'ta: {"a":3}\n', '\n', 'data: [DONE]\n\n']);
    expect(batches.map((batch) => batch.map((event) => event.data))).toEqual([['{"a":1}', '{"a":2}'], ['{"a":3}'], ['[DONE]']]);
  });

  it('keeps event names, joins multi-line data, and reads CRLF line ends and comments', async () => {
    const [batch] = await collect([': keep-alive\r\nevent: error\r\ndata: line one\r\ndata: line two\r\n\r\n']);
    expect(batch).toEqual([{ event: 'error', id: undefined, data: 'line one\nline two' }]);
  });

  it('decodes a character split between chunks', async () => {
    const bytes = new TextEncoder().encode('data: {"text":"naïve ✓"}\n\n');
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of ✓
    const [batch] = await collect([bytes.subarray(0, cut), bytes.subarray(cut)]);
    expect(JSON.parse(batch![0]!.data)).toEqual({ text: 'naïve ✓' });
  });

  it('drops a leading byte order mark, even split over chunks, and no later one', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const batches = await collect([bom.subarray(0, 1), bom.subarray(1), 'data: first\n\n', 'data: \ufeffsecond\n\n']);
    expect(batches.flat().map((event) => event.data)).toEqual(['first', '\ufeffsecond']);
  });

  it('turns a broken character into U+FFFD', async () => {
    const bytes = new TextEncoder().encode('data: ✓\n\n');
    const batches = await collect(['data: a\n\n', bytes.subarray(0, 7), '\n\n']);
    expect(batches.flat().map((event) => event.data)).toEqual(['a', '\ufffd']);
  });

  it('drops an event the body ends before closing, as the SSE standard says', async () => {
    expect(await collect(['data: {"a":1}\n\ndata: {"cut'])).toEqual([[{ event: undefined, id: undefined, data: '{"a":1}' }]]);
  });

  it('ends the body when the reader stops early', async () => {
    const log: string[] = [];
    for await (const batch of serverSentEvents(chunksOf(['data: 1\n\n', 'data: 2\n\n'], log))) {
      expect(batch[0]!.data).toBe('1');
      break;
    }
    expect(log).toEqual(['closed']);
  });
});
