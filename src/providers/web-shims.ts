/**
 * Headers and Response for seek's own HTTP transport, without undici.
 *
 * Node's global Headers, Response and FormData are undici's: touching any of them the first time
 * loads and compiles undici's whole JavaScript bundle, about 35 ms of a start-up on this project's
 * 2-core machine, for a say-hello that needs none of it (bench/say-hello). The transport
 * (http-transport.ts) answers with a TransportResponse, and the build (scripts/build.mjs) points
 * the provider SDKs' own uses of `Headers`, `FormData` and `globalThis.ReadableStream` here, so a
 * model request never loads undici (nor web streams, unless a response body is read as one). Anything outside that path (MCP's HTTP transports, OAuth) keeps the platform's classes.
 *
 * Contract: the subset of the Fetch standard the SDKs and seek use, with the standard's behaviour
 * (test/unit/providers/web-shims.test.ts checks it against Node's own classes): header names are
 * case-insensitive and iterate sorted in lower case, values are trimmed, repeated values join with
 * ", " except set-cookie; a body is read once (`bodyUsed`), `clone()` tees it.
 */

type HeaderSource = Iterable<readonly [string, string]> | Record<string, string | readonly string[] | undefined> | { forEach(callback: (value: string, name: string) => void): void };

export class LightHeaders {
  /** Lower-case name -> values in order (set-cookie keeps each; others join on read). */
  readonly #values = new Map<string, string[]>();
  /** The sorted pairs, kept until the next change: the SDKs iterate one request's headers several
   * times (merging, logging, sending). A change makes a new array, so an iteration under way keeps
   * the pairs it started with. */
  #sorted: [string, string][] | undefined;

  /** True for these and for the platform's Headers, without loading the platform's class. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object Headers]';
  }

  constructor(init?: HeaderSource | null) {
    if (init === undefined || init === null) return;
    if (#values in init) {
      // One of these (the SDKs build their requests' headers with this class): already checked.
      for (const [name, values] of init.#values) this.#values.set(name, [...values]);
      return;
    }
    if (typeof (init as { forEach?: unknown }).forEach === 'function' && !Array.isArray(init) && !(Symbol.iterator in init)) {
      (init as { forEach(callback: (value: string, name: string) => void): void }).forEach((value, name) => this.append(name, value));
    } else if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly [string, string]>) {
        if (pair.length !== 2) throw new TypeError('Headers: each header must be a [name, value] pair');
        this.append(pair[0], pair[1]);
      }
    } else {
      for (const [name, value] of Object.entries(init as Record<string, string | readonly string[] | undefined>)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) for (const each of value as readonly string[]) this.append(name, each);
        else this.append(name, String(value));
      }
    }
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }

  append(name: string, value: string): void {
    const key = headerName(name);
    this.#sorted = undefined;
    const list = this.#values.get(key);
    if (list) list.push(headerValue(value));
    else this.#values.set(key, [headerValue(value)]);
  }

  set(name: string, value: string): void {
    this.#sorted = undefined;
    this.#values.set(headerName(name), [headerValue(value)]);
  }

  delete(name: string): void {
    this.#sorted = undefined;
    this.#values.delete(headerName(name));
  }

  has(name: string): boolean {
    return this.#values.has(headerName(name));
  }

  get(name: string): string | null {
    const list = this.#values.get(headerName(name));
    return list ? list.join(', ') : null;
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])];
  }

  /** Name -> value (several joined), unsorted: what node:http takes as a request's headers. */
  toRecord(): Record<string, string> {
    const record: Record<string, string> = {};
    for (const [name, list] of this.#values) record[name] = list.length === 1 ? list[0]! : list.join(', ');
    return record;
  }

  forEach(callback: (value: string, name: string, headers: LightHeaders) => void, thisArg?: unknown): void {
    // A plain loop, not entries(): the SDKs and the transport call this for every request.
    for (const [name, value] of this.#pairs()) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    // Fresh pairs: a caller may change the arrays it is given; the kept ones must not change.
    for (const [name, value] of this.#pairs()) yield [name, value];
  }

  /** Sorted by name, as the standard's iteration is; set-cookie values apart, others joined. */
  #pairs(): [string, string][] {
    if (this.#sorted) return this.#sorted;
    const pairs: [string, string][] = [];
    for (const name of [...this.#values.keys()].sort()) {
      const list = this.#values.get(name)!;
      if (name === 'set-cookie') for (const cookie of list) pairs.push([name, cookie]);
      else pairs.push([name, list.length === 1 ? list[0]! : list.join(', ')]);
    }
    this.#sorted = pairs;
    return pairs;
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** The standard's token characters for a header name. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Names already checked, and their lower case: a request's dozen names recur in every request. */
const checkedNames = new Map<string, string>();
const CHECKED_NAMES_KEPT = 256;

function headerName(name: string): string {
  const text = String(name);
  const known = checkedNames.get(text);
  if (known !== undefined) return known;
  if (!HEADER_NAME.test(text)) throw new TypeError(`Headers: invalid header name "${text}"`);
  const lower = text.toLowerCase();
  if (checkedNames.size < CHECKED_NAMES_KEPT) checkedNames.set(text, lower);
  return lower;
}

/** Leading or trailing whitespace to trim, or a character no header value may hold. */
const VALUE_NEEDS_WORK = /^[\t\n\r ]|[\t\n\r ]$|[\0\r\n]/;

function headerValue(value: string): string {
  const text = String(value);
  if (!VALUE_NEEDS_WORK.test(text)) return text;
  const trimmed = text.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (/[\0\r\n]/.test(trimmed)) throw new TypeError('Headers: invalid header value');
  return trimmed;
}

/** `instanceof FormData` without loading undici: only an object that calls itself FormData is
 * checked against the platform's class. */
export class LazyFormData {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object FormData]' && value instanceof globalThis.FormData;
  }
}

/** The global ReadableStream for the SDKs' checks of a request body, without loading Node's web
 * streams (about 1 ms at a start that sends a string): only an object that calls itself a
 * ReadableStream (one that exists, so web streams are loaded) is checked against the platform's
 * class, and `new` makes the platform's. */
export class LazyReadableStream {
  constructor(...args: unknown[]) {
    const Platform = globalThis.ReadableStream as new (...args: unknown[]) => ReadableStream;
    return new Platform(...args) as unknown as LazyReadableStream;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object ReadableStream]' && value instanceof globalThis.ReadableStream;
  }
}

export interface TransportResponseInit {
  status: number;
  statusText?: string;
  headers?: HeaderSource;
  url?: string;
}

/** A fetch Response over a web ReadableStream body (or none). */
export class TransportResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LightHeaders;
  readonly url: string;
  readonly redirected = false;
  readonly type = 'basic';
  #body: ReadableStream<Uint8Array> | null;
  #used = false;

  constructor(body: ReadableStream<Uint8Array> | null, init: TransportResponseInit) {
    this.#body = body;
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.headers = new LightHeaders(init.headers);
    this.url = init.url ?? '';
  }

  get [Symbol.toStringTag](): string {
    return 'Response';
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#body;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  async bytes(): Promise<Uint8Array> {
    if (this.#used) throw new TypeError('Response body is already used');
    this.#used = true;
    if (!this.#body) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.#body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get('content-type') ?? '' });
  }

  clone(): TransportResponse {
    if (this.#used) throw new TypeError('Response body is already used');
    let copy: ReadableStream<Uint8Array> | null = null;
    if (this.#body) [this.#body, copy] = this.#body.tee();
    return new TransportResponse(copy, { status: this.status, statusText: this.statusText, headers: this.headers, url: this.url });
  }
}
