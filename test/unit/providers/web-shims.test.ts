import { describe, expect, it } from 'vitest';
import { LazyFormData, LazyReadableStream, LightHeaders, TransportResponse } from '../../../src/providers/web-shims.js';

// Node's own Headers and Response (undici) are the oracle: the shims must behave the same on the
// subset the SDKs use.

type Init = ConstructorParameters<typeof LightHeaders>[0];

const INITS: { label: string; init: Init }[] = [
  { label: 'a record', init: { 'Content-Type': 'application/json', 'X-Stainless-Retry-Count': '0', authorization: '  Bearer k  ' } },
  { label: 'pairs with repeats', init: [['Accept', 'a'], ['accept', 'b'], ['Set-Cookie', 'x=1'], ['set-cookie', 'y=2'], ['Zed', 'last']] },
  { label: 'a platform Headers', init: new Headers([['B', '2'], ['a', '1'], ['set-cookie', 'k=v']]) as unknown as Init },
  { label: 'empty', init: {} },
  { label: 'one of its own kind', init: new LightHeaders([['B', '2'], ['a', ' 1 '], ['set-cookie', 'k=v'], ['Set-Cookie', 'l=w']]) },
];

/** The platform's Headers, typed as what it is at run time (the project's TS lib lacks its iterators). */
type HeadersLike = Pick<LightHeaders, 'entries' | 'keys' | 'values' | 'get' | 'has' | 'getSetCookie' | 'set' | 'append' | 'delete'>;

function snapshot(headers: HeadersLike) {
  return {
    entries: [...headers.entries()],
    get: ['content-type', 'ACCEPT', 'set-cookie', 'missing'].map((name) => headers.get(name)),
    has: ['Accept', 'zed', 'nope'].map((name) => headers.has(name)),
    cookies: headers.getSetCookie(),
  };
}

describe('LightHeaders', () => {
  for (const { label, init } of INITS) {
    it(`matches the platform's Headers built from ${label}`, () => {
      const ours = new LightHeaders(init);
      const theirs = new Headers(init as HeadersInit) as unknown as HeadersLike;
      expect(snapshot(ours)).toEqual(snapshot(theirs));
      ours.set('Accept', 'z');
      theirs.set('Accept', 'z');
      ours.append('X-New', ' v ');
      theirs.append('X-New', ' v ');
      ours.delete('zed');
      theirs.delete('zed');
      expect(snapshot(ours)).toEqual(snapshot(theirs));
      expect([...ours.keys()]).toEqual([...theirs.keys()]);
      expect([...ours.values()]).toEqual([...theirs.values()]);
    });
  }

  it('rejects what the platform rejects: a bad name, a value with a line break', () => {
    expect(() => new Headers({ 'bad name': 'x' })).toThrow(TypeError);
    expect(() => new LightHeaders({ 'bad name': 'x' })).toThrow(TypeError);
    expect(() => new Headers({ ok: 'a\r\nb' })).toThrow(TypeError);
    expect(() => new LightHeaders({ ok: 'a\r\nb' })).toThrow(TypeError);
  });

  it('copies one of its own kind: changing the copy leaves the original as it was', () => {
    const original = new LightHeaders({ accept: 'a', 'x-one': '1' });
    const copy = new LightHeaders(original);
    copy.append('accept', 'b');
    copy.delete('x-one');
    expect([...original.entries()]).toEqual([['accept', 'a'], ['x-one', '1']]);
    expect([...copy.entries()]).toEqual([['accept', 'a, b']]);
  });

  it('gives node:http a record of joined values, names in lower case', () => {
    expect(new LightHeaders([['Accept', 'a'], ['accept', 'b'], ['X-Key', ' k ']]).toRecord()).toEqual({ accept: 'a, b', 'x-key': 'k' });
  });

  it('answers instanceof for its own and the platform instances, not for plain objects', () => {
    expect(new LightHeaders() instanceof LightHeaders).toBe(true);
    expect(new Headers() instanceof LightHeaders).toBe(true);
    expect({ get: () => null } instanceof LightHeaders).toBe(false);
    expect(Object.prototype.toString.call(new LightHeaders())).toBe('[object Headers]');
  });
});

describe('LazyFormData', () => {
  it('recognises the platform FormData only', () => {
    expect(new FormData() instanceof LazyFormData).toBe(true);
    expect({} instanceof LazyFormData).toBe(false);
    expect({ [Symbol.toStringTag]: 'FormData' } instanceof LazyFormData).toBe(false);
    expect((Object('text') as object) instanceof LazyFormData).toBe(false);
  });
});

describe('LazyReadableStream', () => {
  it('recognises the platform ReadableStream only, and makes one with new', async () => {
    expect(new ReadableStream() instanceof LazyReadableStream).toBe(true);
    for (const other of [{}, 'text', Buffer.from('x'), { [Symbol.toStringTag]: 'ReadableStream' }, null]) expect(other instanceof LazyReadableStream).toBe(false);
    const made = new LazyReadableStream({ start: (controller: ReadableStreamDefaultController<string>) => (controller.enqueue('a'), controller.close()) }) as unknown as ReadableStream<string>;
    expect(made).toBeInstanceOf(ReadableStream);
    const read = await made.getReader().read();
    expect(read).toEqual({ done: false, value: 'a' });
  });
});

function streamOf(...parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });
}

describe('TransportResponse', () => {
  it('reads like the platform Response: status, ok, headers, text, json, bytes', async () => {
    const init = { status: 201, statusText: 'Created', headers: [['Content-Type', 'application/json'], ['x-request-id', 'r1']] as [string, string][] };
    const ours = new TransportResponse(streamOf('{"a":', '[1,2]}'), { ...init, url: 'http://127.0.0.1/v1' });
    const theirs = new Response(streamOf('{"a":', '[1,2]}'), init);
    expect([ours.status, ours.statusText, ours.ok, ours.bodyUsed]).toEqual([theirs.status, theirs.statusText, theirs.ok, theirs.bodyUsed]);
    expect([...ours.headers.entries()]).toEqual([...(theirs.headers as unknown as HeadersLike).entries()]);
    expect(ours.url).toBe('http://127.0.0.1/v1');
    expect(await ours.json()).toEqual(await theirs.json());
    expect([ours.bodyUsed, theirs.bodyUsed]).toEqual([true, true]);
    await expect(ours.text()).rejects.toThrow(TypeError);
    await expect(theirs.text()).rejects.toThrow(TypeError);
    expect(new TransportResponse(null, { status: 404 }).ok).toBe(new Response(null, { status: 404 }).ok);
  });

  it('clone() gives two readers of the same body', async () => {
    const ours = new TransportResponse(streamOf('one ', 'two'), { status: 200, headers: { 'content-type': 'text/plain' } });
    const copy = ours.clone();
    expect(await copy.text()).toBe('one two');
    expect(await ours.text()).toBe('one two');
    expect(copy.headers.get('content-type')).toBe('text/plain');
    expect(() => ours.clone()).toThrow(TypeError);
  });

  it('keeps binary bodies byte for byte and reads an empty one', async () => {
    const bytes = Uint8Array.from([0, 255, 128, 10]);
    const ours = new TransportResponse(new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) }), { status: 200 });
    expect(new Uint8Array(await ours.arrayBuffer())).toEqual(bytes);
    expect(await new TransportResponse(null, { status: 204 }).text()).toBe('');
  });
});
