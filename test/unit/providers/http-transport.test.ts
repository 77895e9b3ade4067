/**
 * The node:http transport (src/providers/http-transport.ts) against real loopback servers: bodies
 * stream chunk by chunk, aborts reach the socket, connections are reused, compressed bodies are
 * decoded, and failures look to both SDKs the way undici's do.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, createGzip, deflateSync } from 'node:zlib';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpFetch } from '../../../src/providers/http-transport.js';
import { createProvider } from '../../../src/providers/index.js';
import { collect } from '../../support/scripted-server/index.js';
import { openAIAnswer, SSE_HEADERS } from './wire-loopback.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

let server: Server;
let base: string;
let handler: Handler;
/** Remote ports of the connections each request arrived on, in order. */
const ports: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      ports.push(req.socket.remotePort ?? 0);
      handler(req, res, Buffer.concat(chunks));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  ports.length = 0;
  server.closeAllConnections();
});
afterAll(async () => {
  server.close();
  await once(server, 'close');
});

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const text = (chunk: Uint8Array | undefined) => Buffer.from(chunk ?? new Uint8Array()).toString();

/** Sends `data: one`, then `data: two` and the end once `firstRead` settles. */
const oneThenTwo =
  (firstRead: Promise<void>): Handler =>
  (_req, res) => {
    res.writeHead(200, SSE_HEADERS);
    res.write('data: one\n\n');
    void firstRead.then(() => res.end('data: two\n\n'));
  };

/** Sends `data: one` and keeps the response open; tells `onSocket` the server's side of it. */
const oneChunkThenWait =
  (onSocket: (socket: Socket) => void): Handler =>
  (req, res) => {
    onSocket(req.socket);
    res.writeHead(200, SSE_HEADERS);
    res.write('data: one\n\n');
  };

/** Sends `data: one`, then destroys the connection mid-body. */
const cutAfterOne: Handler = (_req, res) => {
  res.writeHead(200, SSE_HEADERS);
  res.write('data: one\n\n', () => res.socket?.destroy());
};

describe('the node:http fetch', () => {
  it('hands over each body chunk as it arrives: the second is only sent after the first was read', async () => {
    const firstRead = gate();
    handler = oneThenTwo(firstRead.opened);
    const response = await createHttpFetch()(`${base}/stream`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.url).toBe(`${base}/stream`);
    const reader = response.body!.getReader();
    expect(text((await reader.read()).value)).toBe('data: one\n\n');
    firstRead.open();
    expect(text((await reader.read()).value)).toBe('data: two\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('sends the request body with its headers', async () => {
    let seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    handler = (req, res, body) => {
      seen = { method: req.method, headers: req.headers, body: body.toString() };
      res.end('{}');
    };
    const fetch = createHttpFetch();
    await fetch(`${base}/v1/x?q=1`, { method: 'post', headers: { 'content-type': 'application/json', 'x-a': 'b' }, body: '{"hello":"wörld"}' });
    expect(seen.method).toBe('POST');
    expect(seen.body).toBe('{"hello":"wörld"}');
    expect(seen.headers).toMatchObject({ 'content-type': 'application/json', 'x-a': 'b', 'content-length': String(Buffer.byteLength('{"hello":"wörld"}')) });
    expect(seen.headers?.['accept-encoding']).toBe('gzip, deflate');

    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('part one, '));
        controller.enqueue(new TextEncoder().encode('part two'));
        controller.close();
      },
    });
    await fetch(`${base}/upload`, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
    expect(seen).toMatchObject({ method: 'PUT', body: 'part one, part two', headers: { 'transfer-encoding': 'chunked' } });
  });

  it('reuses one kept-alive connection for requests one after another', async () => {
    handler = (_req, res) => res.end('ok');
    const fetch = createHttpFetch();
    for (let i = 0; i < 3; i++) expect(await (await fetch(`${base}/again`)).text()).toBe('ok');
    expect(ports).toHaveLength(3);
    expect(new Set(ports).size).toBe(1);
  });

  it('decodes gzip as it streams, and deflate and brotli bodies', async () => {
    const firstRead = gate();
    handler = (req, res) => {
      if (req.url === '/gzip') {
        res.writeHead(200, { ...SSE_HEADERS, 'content-encoding': 'gzip' });
        const gzip = createGzip();
        gzip.pipe(res);
        gzip.write('data: compressed one\n\n');
        gzip.flush();
        void firstRead.opened.then(() => gzip.end('data: compressed two\n\n'));
      } else if (req.url === '/deflate') {
        res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync('deflated'));
      } else {
        res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync('brotli'));
      }
    };
    const fetch = createHttpFetch();
    const reader = (await fetch(`${base}/gzip`)).body!.getReader();
    expect(text((await reader.read()).value)).toBe('data: compressed one\n\n');
    firstRead.open();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += text(chunk.value);
    expect(rest).toBe('data: compressed two\n\n');
    expect(await (await fetch(`${base}/deflate`)).text()).toBe('deflated');
    expect(await (await fetch(`${base}/br`)).text()).toBe('brotli');
  });

  it('aborted in the middle of the body: the read rejects with an AbortError and the connection closes', async () => {
    let serverSide: Socket | undefined;
    handler = oneChunkThenWait((socket) => (serverSide = socket));
    const controller = new AbortController();
    const response = await createHttpFetch()(`${base}/slow`, { signal: controller.signal });
    const reader = response.body!.getReader();
    expect(text((await reader.read()).value)).toBe('data: one\n\n');
    const closed = once(serverSide!, 'close');
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await closed;
  });

  it('aborted before the answer: the fetch rejects with an AbortError; already aborted: nothing is sent', async () => {
    const arrived = gate();
    handler = () => arrived.open();
    const controller = new AbortController();
    const fetch = createHttpFetch();
    const pending = fetch(`${base}/never`, { signal: controller.signal });
    await arrived.opened;
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(ports).toHaveLength(1);
    await expect(fetch(`${base}/never`, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(ports).toHaveLength(1);
  });

  it('a body cut by the server fails the read as undici does (TypeError: terminated)', async () => {
    handler = cutAfterOne;
    const reader = (await createHttpFetch()(`${base}/cut`)).body!.getReader();
    expect(text((await reader.read()).value)).toBe('data: one\n\n');
    await expect(reader.read()).rejects.toMatchObject({ name: 'TypeError', message: 'terminated' });
  });

  it('a refused connection rejects with TypeError("fetch failed") caused by ECONNREFUSED', async () => {
    const closedPort = await unusedPort();
    const failure = await createHttpFetch()(`http://127.0.0.1:${closedPort}/`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });
});

describe('the SDKs on the node:http fetch', () => {
  it('OpenAI: a refused connection is an APIConnectionError, its own timeout an APIConnectionTimeoutError, an abort an APIUserAbortError', async () => {
    const closedPort = await unusedPort();
    const refused = new OpenAI({ apiKey: 'k', baseURL: `http://127.0.0.1:${closedPort}`, maxRetries: 0, fetch: createHttpFetch() });
    const refusal = await refused.models.list().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(refusal).not.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);

    handler = () => {}; // never answers
    const silent = new OpenAI({ apiKey: 'k', baseURL: base, maxRetries: 0, timeout: 50, fetch: createHttpFetch() });
    await expect(silent.models.list()).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    const controller = new AbortController();
    const pending = silent.models.list({ signal: controller.signal, timeout: 60_000 });
    await until(() => ports.length === 2);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
  });

  it('Anthropic: an HTTP error keeps its status and headers; a refused connection is an APIConnectionError', async () => {
    handler = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }));
    };
    const client = new Anthropic({ apiKey: 'k', baseURL: base, maxRetries: 0, fetch: createHttpFetch() });
    const limited = await client.models.list().catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect((limited as InstanceType<typeof Anthropic.APIError>).headers?.get('retry-after')).toBe('3');
    const closedPort = await unusedPort();
    const refused = new Anthropic({ apiKey: 'k', baseURL: `http://127.0.0.1:${closedPort}`, maxRetries: 0, fetch: createHttpFetch() });
    await expect(refused.models.list()).rejects.toBeInstanceOf(Anthropic.APIConnectionError);
  });

  it("seek's provider (default transport) streams an answer, and retries a refused connection as a network error", async () => {
    handler = (_req, res) => res.writeHead(200, SSE_HEADERS).end(openAIAnswer('hello there'));
    const request = { model: 'deepseek-v4-flash', system: 's', messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
    const ok = await collect(createProvider({ provider: 'deepseek', apiKey: 'k', baseUrl: base }).stream(request));
    expect(ok.at(-1)).toMatchObject({ type: 'done', message: { content: 'hello there' } });

    const closedPort = await unusedPort();
    const sleeps: number[] = [];
    const refused = createProvider({
      provider: 'deepseek',
      apiKey: 'k',
      baseUrl: `http://127.0.0.1:${closedPort}`,
      retry: { maxAttempts: 2, baseDelayMs: 1, random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) },
    });
    const events = await collect(refused.stream(request));
    expect(events.find((event) => event.type === 'retry')).toMatchObject({ error: { kind: 'network', retryable: true } });
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'network' } });
    expect((events.at(-1) as { error: { message: string } }).error.message).toContain('ECONNREFUSED');
    expect(sleeps).toHaveLength(1);
  });
});

/** A port nothing listens on: bound, then released. */
async function unusedPort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = (probe.address() as AddressInfo).port;
  probe.close();
  await once(probe, 'close');
  return port;
}

/** Waits for `condition`, checking on every turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** The body as the SDKs read it: `for await` over the body itself (response-body.ts), no web stream. */
function iterate(response: Response): AsyncIterator<Uint8Array> {
  return (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
}

describe('the node:http fetch body, read as an async iterable (the SDKs\' way)', () => {
  it('yields each chunk as it arrives and ends; a second way of reading it is refused', async () => {
    const firstRead = gate();
    handler = oneThenTwo(firstRead.opened);
    const response = await createHttpFetch()(`${base}/stream`);
    const chunks = iterate(response);
    expect(text((await chunks.next()).value)).toBe('data: one\n\n');
    expect(() => response.body!.getReader()).toThrow(TypeError);
    firstRead.open();
    expect(text((await chunks.next()).value)).toBe('data: two\n\n');
    expect((await chunks.next()).done).toBe(true);
    expect(response.body!.locked).toBe(true);
  });

  it('aborted in the middle: the pending read rejects with an AbortError and the connection closes', async () => {
    let serverSide: Socket | undefined;
    handler = oneChunkThenWait((socket) => (serverSide = socket));
    const controller = new AbortController();
    const chunks = iterate(await createHttpFetch()(`${base}/slow`, { signal: controller.signal }));
    expect(text((await chunks.next()).value)).toBe('data: one\n\n');
    const closed = once(serverSide!, 'close');
    const pending = chunks.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(chunks.next()).rejects.toMatchObject({ name: 'AbortError' });
    await closed;
  });

  it('cut by the server: the read rejects with TypeError: terminated', async () => {
    handler = cutAfterOne;
    const chunks = iterate(await createHttpFetch()(`${base}/cut`));
    expect(text((await chunks.next()).value)).toBe('data: one\n\n');
    await expect(chunks.next()).rejects.toMatchObject({ name: 'TypeError', message: 'terminated' });
  });

  it('left early (the SDKs cancel a body they do not need): the connection is closed', async () => {
    let serverSide: Socket | undefined;
    handler = oneChunkThenWait((socket) => (serverSide = socket));
    const chunks = iterate(await createHttpFetch()(`${base}/left`));
    expect(text((await chunks.next()).value)).toBe('data: one\n\n');
    const closed = once(serverSide!, 'close');
    expect(await chunks.return!()).toEqual({ done: true, value: undefined });
    await closed;
    expect((await chunks.next()).done).toBe(true);
  });

  it('keeps every byte of a large body that arrives faster than it is read', async () => {
    const payload = Buffer.alloc(4 * 1024 * 1024, 'x');
    for (let i = 0; i < payload.length; i += 4096) payload[i] = 48 + ((i / 4096) % 10);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(payload);
    };
    const response = await createHttpFetch()(`${base}/large`);
    const received: Buffer[] = [];
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      received.push(Buffer.from(chunk));
      await new Promise((resolve) => setImmediate(resolve)); // a slow reader: the socket must pause
    }
    expect(Buffer.concat(received).equals(payload)).toBe(true);
  });
});
