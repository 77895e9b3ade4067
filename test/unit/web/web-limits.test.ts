/**
 * Limits of the web tools against a local server that misbehaves: web_fetch has a deadline for the
 * whole fetch (a server trickling a byte now and then never trips the idle timeout), and web_search
 * reads at most SEARCH_MAX_RESPONSE_BYTES of a backend's answer.
 */
import { getEventListeners } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../src/agent/types.js';
import { createWebFetchTool } from '../../../src/tools/web-fetch.js';
import { FetchDeadlineError, guardedGet } from '../../../src/web/http-get.js';
import { search, SEARCH_MAX_RESPONSE_BYTES } from '../../../src/web/search.js';

let server: Server;
let base = '';
const trickling = new Set<ServerResponse>();
let largeBodiesSent = 0;
let bytesWritten = 0;

/** One byte every 100 ms, for as long as the client listens. */
function trickle(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/plain' });
  trickling.add(res);
  const timer = setInterval(() => res.write('.'), 100);
  res.on('close', () => {
    clearInterval(timer);
    trickling.delete(res);
  });
}

/** A valid JSON search answer of `size` bytes, written in 64 KiB pieces, with no content-length. */
function hugeResults(res: ServerResponse, size: number): void {
  largeBodiesSent++;
  res.writeHead(200, { 'content-type': 'application/json' });
  const head = '{"results":[{"title":"t","url":"https://example.com/","content":"s"}],"pad":"';
  res.write(head);
  bytesWritten += head.length;
  const piece = 'x'.repeat(64 * 1024);
  const write = (): void => {
    while (bytesWritten < size && !res.destroyed) {
      bytesWritten += piece.length;
      if (!res.write(piece)) return void res.once('drain', write);
    }
    if (!res.destroyed) res.end('"}');
  };
  write();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/trickle') return trickle(res);
    if (req.url?.startsWith('/search')) return hugeResults(res, SEARCH_MAX_RESPONSE_BYTES * 4);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of trickling) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('web_fetch: a deadline for the whole fetch', () => {
  it('a server trickling a byte every 100 ms is cut off at the deadline, and leaves no listener on the caller\'s signal', { timeout: 60_000 }, async () => {
    const session = new AbortController();
    const options = { signal: session.signal, maxBytes: 1024 * 1024, timeoutMs: 30_000, deadlineMs: 1500, userAgent: 'test', mayReachPrivate: () => true };
    await expect(guardedGet(`${base}/trickle`, options)).rejects.toBeInstanceOf(FetchDeadlineError);
    await expect(guardedGet(`${base}/trickle`, options)).rejects.toThrow(/did not finish in 2 s/);
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
    // The server saw the connections go.
    await expect.poll(() => trickling.size, { timeout: 20_000 }).toBe(0);
  });

  it('the tool takes the limit from "webFetch": {"timeoutSeconds"} and says how to change it; a bad value is a clear error', { timeout: 60_000 }, async () => {
    let setting: unknown = { timeoutSeconds: 1 };
    const tool = createWebFetchTool({ mayReachPrivate: () => true, setting: () => setting, configFile: '/home/u/.seek/config.json' });
    const ctx = { signal: new AbortController().signal } as unknown as ToolContext;
    const result = await tool.execute({ url: `${base}/trickle` }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toBe(`web_fetch stopped: ${base}/trickle did not finish in 1 s (the time limit for the whole fetch). "webFetch": {"timeoutSeconds": N} in /home/u/.seek/config.json changes the limit.`);
    setting = { timeoutSeconds: 'soon' };
    const bad = await tool.execute({ url: `${base}/trickle` }, ctx);
    expect(bad).toEqual({ isError: true, content: '"webFetch" in /home/u/.seek/config.json must be {"timeoutSeconds": N} with N seconds from 1 to 3600 (default 120), not {"timeoutSeconds":"soon"}.' });
  });
});

describe('web_search: a size cap on the backend\'s answer', () => {
  it('an answer larger than the cap fails the search with its size, and the rest is not read', { timeout: 60_000 }, async () => {
    bytesWritten = 0;
    const settings = { provider: 'searxng' as const, baseUrl: base };
    await expect(search(settings, 'q', 5, new AbortController().signal)).rejects.toThrow('searxng answered more than 4 MiB; web_search reads at most that much');
    expect(largeBodiesSent).toBe(1);
    // The server stopped well short of the 16 MiB it would have sent.
    await expect.poll(() => bytesWritten, { timeout: 20_000 }).toBeLessThan(SEARCH_MAX_RESPONSE_BYTES * 4);
  });
});
