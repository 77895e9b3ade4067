/**
 * Proxies for the node:http transport: which URLs go through which proxy (HTTPS_PROXY, HTTP_PROXY,
 * NO_PROXY), and real requests through a real local proxy: https in a CONNECT tunnel to a local
 * TLS server (a certificate made by openssl for the test), http in absolute form.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bypassesProxy, proxyFor } from '../../../src/providers/http-proxy.js';
import { createHttpFetch } from '../../../src/providers/http-transport.js';
import { tempDir } from '../../support/temp-dirs.js';

describe('which proxy a URL goes through', () => {
  const env = { HTTPS_PROXY: 'http://proxy.local:3128', http_proxy: 'proxy.plain:8080', HTTP_PROXY: 'http://ignored:1' };

  it('https URLs take HTTPS_PROXY, http URLs http_proxy before HTTP_PROXY; a bare host:port means http://', () => {
    expect(proxyFor(new URL('https://api.deepseek.com/v1'), env)?.href).toBe('http://proxy.local:3128/');
    expect(proxyFor(new URL('http://localhost:11434/v1'), env)?.href).toBe('http://proxy.plain:8080/');
    expect(proxyFor(new URL('https://api.deepseek.com'), {})).toBeUndefined();
    expect(proxyFor(new URL('https://api.deepseek.com'), { HTTPS_PROXY: 'socks5://s:1080' })).toBeUndefined();
  });

  it('NO_PROXY: *, hosts and their subdomains, leading dots and wildcards, ports, IPv6', () => {
    const url = (href: string) => new URL(href);
    expect(bypassesProxy(url('https://api.anthropic.com'), '*')).toBe(true);
    expect(bypassesProxy(url('https://api.anthropic.com'), 'localhost, anthropic.com')).toBe(true);
    expect(bypassesProxy(url('https://api.anthropic.com'), '.anthropic.com')).toBe(true);
    expect(bypassesProxy(url('https://api.anthropic.com'), '*.anthropic.com')).toBe(true);
    expect(bypassesProxy(url('https://api.anthropic.com'), 'thropic.com,deepseek.com')).toBe(false);
    expect(bypassesProxy(url('http://10.0.0.5:8000'), '10.0.0.5:8000')).toBe(true);
    expect(bypassesProxy(url('http://10.0.0.5:8001'), '10.0.0.5:8000')).toBe(false);
    expect(bypassesProxy(url('https://example.org'), 'example.org:443')).toBe(true);
    expect(bypassesProxy(url('http://[::1]:8000'), '[::1]')).toBe(true);
    expect(bypassesProxy(url('http://[::1]:8000'), '::1,[::2]:8000')).toBe(true);
    expect(bypassesProxy(url('http://[::1]:8000'), '[::1]:9000')).toBe(false);
    expect(proxyFor(url('https://api.anthropic.com'), { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'anthropic.com' })).toBeUndefined();
  });
});

describe('requests through a real local proxy', () => {
  let cert: string;
  let target: Server;
  let plainTarget: Server;
  let proxy: Server;
  let targetPort: number;
  let plainPort: number;
  let proxyUrl: string;
  /** What the proxy was asked: `CONNECT host:port` lines and absolute-form request targets, with
   * the Proxy-Authorization each carried. */
  const seen: Array<{ line: string; auth: string | undefined }> = [];
  let refuseConnect = false;
  /** Tunnel sockets leave the proxy server's bookkeeping: closed by hand at the end. */
  const tunnels: Socket[] = [];

  beforeAll(async () => {
    const dir = tempDir('seek-proxy-test-');
    const [key, certPath] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', certPath,
      '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
    cert = readFileSync(certPath, 'utf8');
    target = createHttpsServer({ key: readFileSync(key), cert }, (req, res) => res.end(`secure ${req.method} ${req.url}`));
    plainTarget = createHttpServer((req, res) => res.end(`plain ${req.url} host=${req.headers.host}`));
    proxy = createHttpServer((req, res) => {
      // Plain http through the proxy: the request target is the absolute URL.
      seen.push({ line: `${req.method} ${req.url}`, auth: req.headers['proxy-authorization'] });
      const forward = httpRequest(req.url!, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    proxy.on('connect', (req, client: Socket, head: Buffer) => {
      seen.push({ line: `CONNECT ${req.url}`, auth: req.headers['proxy-authorization'] });
      tunnels.push(client);
      if (refuseConnect) {
        client.end('HTTP/1.1 407 Proxy Authentication Required\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      const [host, port] = [req.url!.slice(0, req.url!.lastIndexOf(':')), Number(req.url!.slice(req.url!.lastIndexOf(':') + 1))];
      const upstream = connect(port, host, () => {
        tunnels.push(upstream);
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    for (const server of [target, plainTarget, proxy]) {
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
    }
    targetPort = (target.address() as AddressInfo).port;
    plainPort = (plainTarget.address() as AddressInfo).port;
    proxyUrl = `http://user:p%40ss@127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    seen.length = 0;
    refuseConnect = false;
  });
  afterAll(async () => {
    for (const socket of tunnels) socket.destroy();
    for (const server of [target, plainTarget, proxy]) {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    }
  });

  const basicAuth = `Basic ${Buffer.from('user:p@ss').toString('base64')}`;

  it('https goes through one CONNECT tunnel, kept alive for the next request, with the proxy credentials', async () => {
    const fetch = createHttpFetch({ env: { HTTPS_PROXY: proxyUrl }, ca: cert });
    const first = await fetch(`https://127.0.0.1:${targetPort}/v1/chat?x=1`, { method: 'POST', body: '{}' });
    expect(await first.text()).toBe('secure POST /v1/chat?x=1');
    expect(await (await fetch(`https://127.0.0.1:${targetPort}/again`)).text()).toBe('secure GET /again');
    expect(seen).toEqual([{ line: `CONNECT 127.0.0.1:${targetPort}`, auth: basicAuth }]);
  });

  it('plain http is sent to the proxy with its absolute URL and the target host', async () => {
    const fetch = createHttpFetch({ env: { HTTP_PROXY: proxyUrl } });
    expect(await (await fetch(`http://127.0.0.1:${plainPort}/models`)).text()).toBe(`plain /models host=127.0.0.1:${plainPort}`);
    expect(seen).toEqual([{ line: `GET http://127.0.0.1:${plainPort}/models`, auth: basicAuth }]);
  });

  it('NO_PROXY hosts connect directly', async () => {
    const fetch = createHttpFetch({ env: { HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' }, ca: cert });
    expect(await (await fetch(`https://127.0.0.1:${targetPort}/direct`)).text()).toBe('secure GET /direct');
    expect(await (await fetch(`http://127.0.0.1:${plainPort}/direct`)).text()).toBe('plain /direct host=127.0.0.1:' + plainPort);
    expect(seen).toEqual([]);
  });

  it('a refused CONNECT fails the fetch as a connection error naming the proxy answer', async () => {
    refuseConnect = true;
    const fetch = createHttpFetch({ env: { HTTPS_PROXY: proxyUrl }, ca: cert });
    const failure = await fetch(`https://127.0.0.1:${targetPort}/`).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    expect(String((failure as Error).cause)).toContain('407 Proxy Authentication Required');
  });
});
