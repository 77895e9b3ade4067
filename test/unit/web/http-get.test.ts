/**
 * The guarded GET (src/web/http-get.ts) judges every address a name resolves to and connects to the
 * address it judged: DNS is replaced here by a spy, so `rebind.test` resolves to what a test says,
 * and a server on 127.0.0.1 shows where the connection went.
 */
import dns from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BlockedAddressError, guardedGet, type GuardedGetOptions } from '../../../src/web/http-get.js';

let server: Server;
let port = 0;
const hosts: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    if (req.url === '/broken-gzip') {
      // Half of a gzip body, then the connection breaks.
      const whole = gzipSync(Buffer.alloc(64 * 1024, 'a'));
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': String(whole.length) });
      res.write(whole.subarray(0, whole.length >> 1), () => res.socket?.destroy());
      return;
    }
    if (req.url === '/hop') {
      res.writeHead(301, { location: '/end' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => vi.restoreAllMocks());

/** Makes every name resolve to `answers` (Node's callback shape for `all: true`). */
function resolveTo(answers: Array<{ address: string; family: number }>): void {
  vi.spyOn(dns, 'lookup').mockImplementation(((_host: string, _options: unknown, callback: (error: null, addresses: typeof answers) => void) =>
    callback(null, answers)) as unknown as typeof dns.lookup);
}

const options = (mayReachPrivate: (host: string) => boolean): GuardedGetOptions => ({
  signal: new AbortController().signal,
  maxBytes: 1024,
  timeoutMs: 10_000,
  userAgent: 'test',
  mayReachPrivate,
});

describe('guardedGet', () => {
  it('refuses a name that resolves to loopback, and one whose answers mix a public and a private address', async () => {
    resolveTo([{ address: '127.0.0.1', family: 4 }]);
    await expect(guardedGet(`http://rebind.test:${port}/`, options(() => false))).rejects.toThrow(/rebind\.test is at 127\.0\.0\.1, a loopback address/);
    resolveTo([
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.8', family: 4 },
    ]);
    await expect(guardedGet(`http://rebind.test:${port}/`, options(() => false))).rejects.toBeInstanceOf(BlockedAddressError);
    expect(hosts).toEqual([]);
  });

  it('connects to the address it judged, at every hop, when a rule names the host', async () => {
    resolveTo([{ address: '127.0.0.1', family: 4 }]);
    const asked: string[] = [];
    const got = await guardedGet(`http://rebind.test:${port}/hop`, options((host) => (asked.push(host), host === 'rebind.test')));
    expect(got.body.toString()).toBe('reached');
    expect(got.url).toBe(`http://rebind.test:${port}/end`);
    expect(hosts).toEqual([`rebind.test:${port}`, `rebind.test:${port}`]);
    expect(asked).toEqual(['rebind.test', 'rebind.test']); // judged again on the redirect hop
    expect(vi.mocked(dns.lookup)).toHaveBeenCalledTimes(2);
  });

  it('a compressed body whose connection breaks midway fails the fetch instead of hanging it', async () => {
    await expect(guardedGet(`http://127.0.0.1:${port}/broken-gzip`, { ...options(() => true), maxBytes: 1024 * 1024 })).rejects.toThrow(/aborted|premature/i);
  });

  it('cuts a body at maxBytes and says so', async () => {
    resolveTo([{ address: '127.0.0.1', family: 4 }]);
    const got = await guardedGet(`http://rebind.test:${port}/`, { ...options(() => true), maxBytes: 3 });
    expect(got.body.toString()).toBe('rea');
    expect(got.truncated).toBe(true);
  });
});
