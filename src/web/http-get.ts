import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { linkedAbort } from '../util/abort.js';
import { classifyAddress, isMetadataName, type AddressClass } from './address.js';

/**
 * One GET for web_fetch, guarded against server-side request forgery: the name is resolved here,
 * every address it resolves to is judged (address.ts), and the connection goes to the address
 * that was judged (a custom `lookup`, so a second DNS answer cannot swap in 127.0.0.1: DNS
 * rebinding). Redirects are followed within the same host only, each hop judged again; a redirect
 * to another host stops and is returned, for the caller to ask about.
 */
export interface GuardedGetOptions {
  signal: AbortSignal;
  /** Bytes of body kept (after decompression); the rest is cut and `truncated` is set. */
  maxBytes: number;
  /** Longest wait for the server to say anything (connect, headers, each piece of the body). */
  timeoutMs: number;
  /** Longest time for the whole fetch, every redirect hop and the body included: a server that
   * trickles a byte now and then keeps `timeoutMs` from firing, not this. */
  deadlineMs?: number;
  /** Whether a host may be reached at a loopback, private, link-local or metadata address: only
   * when a rule names it explicitly. */
  mayReachPrivate: (host: string) => boolean;
  userAgent: string;
}

export interface GuardedGetResult {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  truncated: boolean;
  /** Set when the server redirected to another host: not followed. */
  redirectedTo?: string;
}

export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: AddressClass,
  ) {
    super(
      `${host} is ${host === address ? 'a' : `at ${address}, a`} ${kind} address; web_fetch does not reach this machine, the local network or cloud metadata unless a rule names the host explicitly (permissions.allow: "WebFetch(domain:${host})").`,
    );
  }
}

const MAX_REDIRECTS = 10;

/** Throws BlockedAddressError when `address` may not be reached for `host`. */
function judge(host: string, address: string, options: GuardedGetOptions): void {
  const kind = isMetadataName(host) ? 'cloud metadata' : classifyAddress(address);
  if (kind !== 'public' && !options.mayReachPrivate(host)) throw new BlockedAddressError(host, address, kind);
}

/** A lookup that resolves, judges every address, and hands the connection only the judged ones. */
function guardedLookup(host: string, options: GuardedGetOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      try {
        if (addresses.length === 0) throw new Error(`${hostname} has no address`);
        for (const entry of addresses) judge(host, entry.address, options);
      } catch (failure) {
        return callback(failure as NodeJS.ErrnoException, '', 0);
      }
      if ((lookupOptions as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses.find((entry) => entry.family === 4) ?? addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** The body stream, decompressed. Through `pipeline`, not `pipe`: a connection that breaks (or
 * times out) mid-body fails the decompressor too, instead of leaving it waiting for bytes forever. */
function decoded(response: http.IncomingMessage): NodeJS.ReadableStream {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const inflate =
    encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : undefined;
  if (!inflate) return response;
  // The error reaches the reader through `inflate`, which pipeline destroys with it.
  return pipeline(response, inflate, () => {});
}

/** The body up to `maxBytes` (decompressed), then stops reading. */
async function readBody(response: http.IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const stream = decoded(response);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    response.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

function requestOnce(url: URL, options: GuardedGetOptions): Promise<http.IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) judge(url.hostname, host, options);
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      {
        lookup: guardedLookup(url.hostname, options),
        // A connection of its own: a pooled socket may have been opened by code that checked nothing.
        agent: false,
        signal: options.signal,
        timeout: options.timeoutMs,
        headers: {
          'user-agent': options.userAgent,
          accept: 'text/markdown, text/html;q=0.9, application/json;q=0.9, text/plain;q=0.8, */*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      resolve,
    );
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url.host} in ${Math.round(options.timeoutMs / 1000)} s`)));
    request.on('error', reject);
  });
}

/** The whole fetch took longer than its deadline. */
export class FetchDeadlineError extends Error {
  override readonly name = 'FetchDeadlineError';
  constructor(
    readonly url: string,
    readonly deadlineMs: number,
    /** What was under way when it passed, when not the download: "converting the page to Markdown". */
    during?: string,
  ) {
    super(`${url} did not finish in ${Math.round(deadlineMs / 1000)} s (the time limit for the whole fetch)${during ? `: it passed while ${during}` : ''}`);
  }
}

/** GETs `url`, following same-host redirects; throws on network errors and blocked addresses, and
 * FetchDeadlineError when the whole of it takes longer than `deadlineMs`. */
export async function guardedGet(start: string, options: GuardedGetOptions): Promise<GuardedGetResult> {
  const limit = linkedAbort(options.signal, options.deadlineMs);
  try {
    return await followHops(start, { ...options, signal: limit.signal });
  } catch (error) {
    if (limit.timedOut()) throw new FetchDeadlineError(start, options.deadlineMs!);
    throw error;
  } finally {
    limit.dispose();
  }
}

async function followHops(start: string, options: GuardedGetOptions): Promise<GuardedGetResult> {
  let url = new URL(start);
  for (let hop = 0; ; hop++) {
    const response = await requestOnce(url, options);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.resume();
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`${url.href} redirects to ${next.protocol} URL, which web_fetch does not follow`);
      if (next.hostname !== url.hostname) return { url: url.href, status, contentType: '', body: Buffer.alloc(0), truncated: false, redirectedTo: next.href };
      if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects from ${start}`);
      url = next;
      continue;
    }
    const contentType = String(response.headers['content-type'] ?? '');
    const { body, truncated } = await readBody(response, options.maxBytes);
    return { url: url.href, status, contentType, body, truncated };
  }
}
