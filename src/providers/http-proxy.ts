/**
 * Proxies for the node:http transport, from the environment as curl reads it: `https_proxy` /
 * `HTTPS_PROXY` for https URLs, `http_proxy` / `HTTP_PROXY` for http URLs (lower case first),
 * `no_proxy` / `NO_PROXY` for the hosts that bypass them. An https URL goes through an http(s)
 * proxy in a CONNECT tunnel (TunnelAgent); an http URL is sent to the proxy with its absolute URL
 * as the request target.
 */
import type { Agent as HttpAgent } from 'node:http';
import type { AgentOptions, RequestOptions } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { httpsModule, tlsModule } from '../util/builtins.js';
import { lazy } from '../util/lazy.js';

/** The proxy `url` should go through under `env`, or undefined for a direct connection. */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): URL | undefined {
  const secure = url.protocol === 'https:';
  const configured = (secure ? (env['https_proxy'] ?? env['HTTPS_PROXY']) : (env['http_proxy'] ?? env['HTTP_PROXY']))?.trim();
  if (!configured || bypassesProxy(url, env['no_proxy'] ?? env['NO_PROXY'] ?? '')) return undefined;
  try {
    const proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(configured) ? configured : `http://${configured}`);
    return proxy.protocol === 'http:' || proxy.protocol === 'https:' ? proxy : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `url` is exempted by a NO_PROXY list: `*`, or entries (comma or space separated) that
 * match the host or a parent domain (`example.com`, `.example.com`, `*.example.com`), optionally
 * with a port. */
export function bypassesProxy(url: URL, noProxy: string): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    // `[v6]:port`, `host:port`, or a bare name / address (an IPv6 one has more than one colon).
    const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? /^([^:]+)(?::(\d+))?$/.exec(entry);
    const name = (match?.[1] ?? entry).replace(/^\*?\./, '');
    if (match?.[2] && match[2] !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** `Proxy-Authorization` for a proxy URL with credentials (`http://user:pass@proxy:3128`). */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

/** The most bytes a proxy's answer to CONNECT may take before its blank line. */
const MAX_CONNECT_HEAD = 16 * 1024;

/**
 * An https Agent whose connections are CONNECT tunnels through `proxy`, TLS to the target inside.
 * Tunnels are pooled and kept alive per target like direct connections. (The class is made at the
 * first tunnel: it extends node:https's Agent, which loads at first use.)
 */
export function createTunnelAgent(proxy: URL, options: AgentOptions = {}): HttpAgent {
  return new (tunnelAgentClass())(proxy, options);
}

const tunnelAgentClass = lazy(
  () =>
    class TunnelAgent extends httpsModule().Agent {
      constructor(
        private readonly proxy: URL,
        /** TLS options for the connection to the target (e.g. `ca`). */
        options: AgentOptions,
      ) {
        super({ ...options, keepAlive: true });
      }

      override createConnection(options: RequestOptions, callback?: (error: Error | null, stream: Duplex) => void): Duplex | null | undefined {
        const host = options.host ?? 'localhost';
        const port = Number(options.port ?? 443);
        openTunnel(this.proxy, host, port).then(
          (socket) => {
            const secure = tlsModule().connect({ ...(options as object), socket, servername: options.servername ?? host, host, port });
            callback?.(null, secure);
          },
          (error: Error) => callback?.(error, undefined as unknown as Duplex),
        );
        return undefined;
      }
    },
);

/** A socket to `host:port` through `proxy`'s CONNECT, once the proxy answered 2xx. */
function openTunnel(proxy: URL, host: string, port: number): Promise<Socket> {
  const proxyPort = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
  const proxyHost = proxy.hostname.replace(/^\[|\]$/g, '');
  const socket: Socket =
    proxy.protocol === 'https:' ? tlsModule().connect({ host: proxyHost, port: proxyPort, servername: proxyHost }) : netConnect({ host: proxyHost, port: proxyPort });
  const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const auth = proxyAuthorization(proxy);
  return new Promise<Socket>((resolve, reject) => {
    let head = Buffer.alloc(0);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_CONNECT_HEAD) fail(new Error(`proxy ${proxy.host} sent an over-long answer to CONNECT ${target}`));
        return;
      }
      socket.off('data', onData);
      socket.off('error', fail);
      socket.off('end', onEnd);
      const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const status = Number(/^HTTP\/\d(?:\.\d)? (\d{3})/.exec(statusLine)?.[1] ?? 0);
      if (status < 200 || status > 299) {
        fail(Object.assign(new Error(`proxy ${proxy.host} refused CONNECT ${target}: ${statusLine || 'no status line'}`), { code: 'ERR_PROXY_CONNECT' }));
        return;
      }
      const rest = head.subarray(end + 4);
      if (rest.length) socket.unshift(rest);
      resolve(socket);
    };
    const onEnd = () => fail(new Error(`proxy ${proxy.host} closed the connection before answering CONNECT ${target}`));
    socket.on('data', onData);
    socket.once('error', fail);
    socket.once('end', onEnd);
    const request = [`CONNECT ${target} HTTP/1.1`, `Host: ${target}`, ...(auth ? [`Proxy-Authorization: ${auth}`] : []), '', ''].join('\r\n');
    socket.write(request);
  });
}
