/**
 * A `fetch` over node:http / node:https, handed to both SDK clients through their `fetch` option.
 *
 * Why: the global `fetch` (undici) compiles a WebAssembly HTTP parser in the background on its
 * first request, and the process cannot exit until V8 has finished it (~60 ms after the reply on
 * a small machine). node:http parses natively, so seek exits as soon as its work is done.
 *
 * What the SDKs rely on, and this keeps: a `Response` (status, headers, `url`, a body that yields
 * chunks as they arrive: async iterable first, a web ReadableStream on demand, see
 * response-body.ts; a TransportResponse, so undici is never loaded, see web-shims.ts); rejection with the signal's reason (an
 * `AbortError`) when their AbortController fires, which is how they tell a user abort or their own
 * timeout; and other failures as `TypeError('fetch failed', { cause })`, as undici reports them,
 * which they wrap in `APIConnectionError`. Bodies are decoded (gzip, deflate, br); connections are
 * kept alive; proxies come from the environment (http-proxy.ts). Redirects are not followed: the
 * APIs answer directly.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import { constants as zlib, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { createTunnelAgent, proxyAuthorization, proxyFor } from './http-proxy.js';
import { httpsModule } from '../util/builtins.js';
import { lazy } from '../util/lazy.js';
import type { WireActivity } from './watched-fetch.js';
import { responseBody, terminated } from './response-body.js';
import { LightHeaders, TransportResponse } from './web-shims.js';

export interface HttpTransportOptions {
  /** Where the proxy variables are read; process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** How long the connection (through a proxy: the tunnel) may take; undici's 10 s by default. */
  connectTimeoutMs?: number;
  /** Certificates to trust for https beyond Node's own (tests; users have NODE_EXTRA_CA_CERTS). */
  ca?: string | Buffer;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** This transport's fetch. `observed(activity)` is the same fetch (same pools) reporting each
 * response head and body chunk to `activity` straight from the socket: what watchedFetch does for
 * any fetch, without a TransformStream on every response (web streams are slow in Node 20). */
export type HttpFetch = typeof fetch & { observed(activity: WireActivity): typeof fetch };

/** A `fetch` with its own keep-alive connection pools. */
export function createHttpFetch(options: HttpTransportOptions = {}): HttpFetch {
  const env = options.env ?? process.env;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const tls = options.ca === undefined ? {} : { ca: options.ca };
  const http = new HttpAgent({ keepAlive: true });
  const https = lazy((): HttpAgent => new (httpsModule().Agent)({ keepAlive: true, ...tls })); // node:https loads at the first https URL
  const tunnels = new Map<string, HttpAgent>();
  const route = (url: URL): Route => {
    const proxy = proxyFor(url, env);
    if (!proxy) return { url, agent: url.protocol === 'https:' ? https() : http };
    if (url.protocol === 'https:') {
      let tunnel = tunnels.get(proxy.href);
      if (!tunnel) tunnels.set(proxy.href, (tunnel = createTunnelAgent(proxy, tls)));
      return { url, agent: tunnel };
    }
    return { url, agent: proxy.protocol === 'https:' ? https() : http, viaProxy: proxy };
  };
  const plain = (input: string | URL | Request, init?: RequestInit) => send(input, init, route, connectTimeoutMs);
  return Object.assign(plain, {
    observed: (activity: WireActivity) => (input: string | URL | Request, init?: RequestInit) => send(input, init, route, connectTimeoutMs, activity),
  }) as HttpFetch;
}

/** Where one request goes: straight to `url` (a tunnel agent included), or to `viaProxy` with the
 * absolute URL as its target (plain http through a proxy). */
interface Route {
  url: URL;
  agent: HttpAgent;
  viaProxy?: URL;
}

type RequestBody = string | Buffer | ReadableStream<Uint8Array> | undefined;

async function send(
  input: string | URL | Request,
  init: RequestInit | undefined,
  route: (url: URL) => Route,
  connectTimeoutMs: number,
  activity?: WireActivity,
): Promise<Response> {
  const fromRequest = typeof input === 'string' || input instanceof URL ? undefined : input;
  const url = new URL(fromRequest ? fromRequest.url : (input as string | URL));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('fetch failed', { cause: new Error(`unsupported protocol ${url.protocol}`) });
  const signal = init?.signal ?? fromRequest?.signal ?? undefined;
  if (signal?.aborted) throw abortReason(signal);
  const method = (init?.method ?? fromRequest?.method ?? 'GET').toUpperCase();
  const headers = new LightHeaders((init?.headers ?? fromRequest?.headers) as ConstructorParameters<typeof LightHeaders>[0]);
  const body = requestBody(init?.body ?? (fromRequest?.body as BodyInit | null | undefined), headers);
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate');
  return exchange({ route: route(url), method, headers, body, signal, connectTimeoutMs, activity });
}

/** The body as bytes (with its length) or a stream (chunked); sets the content type a
 * FormData, Blob or URLSearchParams body implies when none was given. */
function requestBody(body: BodyInit | null | undefined, headers: LightHeaders): RequestBody {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return body; // written as UTF-8 by node:http, without a copy
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // Everything else (streams, FormData, Blob, URLSearchParams, async iterables) the platform's
  // own Response serialises, content type included.
  const normalised = new Response(body as BodyInit);
  const type = normalised.headers.get('content-type');
  if (type && !headers.has('content-type')) headers.set('content-type', type);
  return normalised.body ?? undefined;
}

interface Exchange {
  route: Route;
  method: string;
  headers: LightHeaders;
  body: RequestBody;
  signal: AbortSignal | undefined;
  connectTimeoutMs: number;
  activity: WireActivity | undefined;
}

function exchange({ route, method, headers, body, signal, connectTimeoutMs, activity }: Exchange): Promise<Response> {
  const { url, agent, viaProxy } = route;
  const outgoing: OutgoingHttpHeaders = headers.toRecord();
  if (typeof body === 'string') outgoing['content-length'] = Buffer.byteLength(body);
  else if (Buffer.isBuffer(body)) outgoing['content-length'] = body.length;
  else if (body === undefined && (method === 'POST' || method === 'PUT' || method === 'PATCH')) outgoing['content-length'] = 0;
  const target = viaProxy ?? url;
  if (viaProxy) {
    outgoing['host'] = url.host;
    const auth = proxyAuthorization(viaProxy);
    if (auth) outgoing['proxy-authorization'] = auth;
  }
  const request = target.protocol === 'https:' ? httpsModule().request : httpRequest;

  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let stopBody: ((reason: unknown) => void) | undefined;
    const req: ClientRequest = request({
      protocol: target.protocol,
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port || undefined,
      path: viaProxy ? url.href : `${url.pathname}${url.search}`,
      method,
      headers: outgoing,
      agent,
    });
    const fail = (error: unknown) => {
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(connectTimer);
      if (settled) return stopBody?.(error);
      settled = true;
      reject(error);
    };
    const onAbort = () => {
      const reason = signal ? abortReason(signal) : new DOMException('This operation was aborted', 'AbortError');
      fail(reason);
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    const connectTimer = setTimeout(() => req.destroy(connectTimeoutError(target, connectTimeoutMs)), connectTimeoutMs);
    req.once('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => clearTimeout(connectTimer));
      else clearTimeout(connectTimer);
    });
    req.once('error', (error) => fail(settled ? terminated(error) : new TypeError('fetch failed', { cause: error })));
    req.once('response', (res) => {
      clearTimeout(connectTimer);
      const status = res.statusCode ?? 0;
      const hasBody = method !== 'HEAD' && status !== 204 && status !== 205 && status !== 304;
      let responseStream: ReadableStream<Uint8Array> | null = null;
      if (hasBody) {
        const stream = responseBody(decoded(res), activity && ((chunk) => activity.bytesReceived(chunk.byteLength, chunk)), () => {
          signal?.removeEventListener('abort', onAbort);
          req.destroy();
        });
        responseStream = stream.body;
        stopBody = stream.fail;
        void stream.finished.then(() => signal?.removeEventListener('abort', onAbort));
      } else {
        res.resume();
        res.once('end', () => signal?.removeEventListener('abort', onAbort));
      }
      let response: TransportResponse;
      try {
        response = new TransportResponse(responseStream, { status, statusText: res.statusMessage ?? '', headers: headerPairs(res.rawHeaders), url: url.href });
      } catch (error) {
        req.destroy();
        return fail(new TypeError('fetch failed', { cause: error }));
      }
      settled = true;
      // The subset of Response the SDKs use (web-shims.ts), typed as the fetch signature wants.
      activity?.responded(response as unknown as Response);
      resolve(response as unknown as Response);
    });
    writeBody(req, body);
  });
}

function writeBody(req: ClientRequest, body: RequestBody): void {
  if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) {
    req.end(body);
    return;
  }
  const reader = body.getReader();
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!req.write(value)) await new Promise((resolve) => req.once('drain', resolve));
    }
    req.end();
  })().catch((error: unknown) => req.destroy(error instanceof Error ? error : new Error(String(error))));
}

/** The response's content codings, from its raw header lines: `res.headers` would build an object
 * of every header on first read, which this needs one of. */
function contentEncoding(raw: readonly string[]): string {
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.length === 16 && raw[i]!.toLowerCase() === 'content-encoding') values.push(raw[i + 1]!);
  return values.join(',');
}

/** The response body decoded by its content-encoding (applied in reverse order; an unknown
 * coding leaves the bytes as they came, like undici). Truncated compressed data ends the body
 * instead of failing it, also like undici. */
function decoded(res: IncomingMessage): Readable {
  const codings = contentEncoding(res.rawHeaders)
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding && coding !== 'identity');
  let stream: Readable = res;
  for (const coding of codings.reverse()) {
    let decoder: NodeJS.ReadWriteStream & Readable;
    if (coding === 'gzip' || coding === 'x-gzip') decoder = createGunzip({ flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH });
    else if (coding === 'deflate') decoder = createInflate({ flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH });
    else if (coding === 'br') decoder = createBrotliDecompress({ flush: zlib.BROTLI_OPERATION_FLUSH, finishFlush: zlib.BROTLI_OPERATION_FLUSH });
    else return res;
    stream = pipeline(stream, decoder, () => {});
  }
  return stream;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function connectTimeoutError(target: URL, ms: number): Error {
  const error = new Error(`Connect Timeout Error (attempted address: ${target.host}, timeout: ${ms}ms)`);
  return Object.assign(error, { name: 'ConnectTimeoutError', code: 'UND_ERR_CONNECT_TIMEOUT' });
}

function headerPairs(raw: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

let shared: HttpFetch | undefined;

/** The process's one node:http `fetch` (one set of connection pools), made on first use. */
export function sharedHttpFetch(): HttpFetch {
  return (shared ??= createHttpFetch());
}
