/**
 * A response body over a Node stream, for http-transport.ts.
 *
 * The SDKs read a body with `for await` when it is async iterable (their ReadableStreamToAsyncIterable
 * returns it as is), so the body is an async iterable of the stream's chunks in the first place,
 * with no web stream between the socket and the SDK. Why: Node 20's web streams are slow, and the
 * first reader they release builds an error through a fresh V8 context (`lazyReadableReleasedError`),
 * which cost about 8 ms at the end of every process's first response (measured on this project's
 * 2-core machine; that is most of "exit after the last byte").
 *
 * Contract (the same as the web stream it replaces; tests in test/unit/providers/ hold it):
 * - chunks come as they arrive; the socket pauses while more than HIGH_WATER chunks wait;
 * - `fail(reason)` (an abort) makes the pending and every later read reject with `reason`;
 *   a socket error or a close before the end rejects with undici's `TypeError('terminated')`;
 * - ending the iteration early (`return()`, the SDKs' cancel) destroys the request;
 * - `finished` settles once the body has ended, failed or been cancelled;
 * - anything that asks for the web stream API (`getReader`, `pipeThrough`, `tee`, `cancel`,
 *   `locked`) gets a web ReadableStream over the same iteration, made on first use. One body has
 *   one reader: reading it both ways is refused, as a locked web stream would refuse it.
 */
import type { Readable } from 'node:stream';

/** Chunks buffered before the socket is paused (what the web stream's high-water mark was). */
const HIGH_WATER = 16;

export interface ResponseBody {
  /** Typed as the web stream the fetch signature promises; async iterable first (see above). */
  body: ReadableStream<Uint8Array>;
  /** Errors the body (an abort reason, a socket failure) unless it has ended. */
  fail(reason: unknown): void;
  /** Settles when the body has ended, failed or been cancelled. */
  finished: Promise<void>;
}

export function responseBody(source: Readable, onChunk: ((chunk: Uint8Array) => void) | undefined, destroy: () => void): ResponseBody {
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: { reason: unknown } | undefined;
  let settledBody = false;
  let wake: (() => void) | undefined;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const settle = () => {
    if (settledBody) return;
    settledBody = true;
    finish();
  };
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const fail = (reason: unknown) => {
    if (ended || failure) return;
    failure = { reason };
    queue.length = 0; // as a web stream's error(): chunks not yet read are dropped
    settle();
    notify();
  };

  source.on('data', (chunk: Buffer) => {
    if (ended || failure) return;
    const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    onChunk?.(bytes);
    queue.push(bytes);
    if (queue.length >= HIGH_WATER) source.pause();
    notify();
  });
  source.once('end', () => {
    if (failure) return;
    ended = true;
    settle();
    notify();
  });
  source.once('error', (error) => fail(terminated(error)));
  // 'close' follows 'end' on every response: the errors (two stack captures) only for a real cut.
  source.once('close', () => {
    if (!ended && !failure) fail(terminated(new Error('the connection closed before the response ended')));
  });

  let reader: 'iterator' | 'web' | undefined;
  const claim = (by: 'iterator' | 'web') => {
    if (reader !== undefined && reader !== by) throw new TypeError('the response body is already being read');
    reader = by;
  };

  let cancelled = false;
  const next = async (): Promise<IteratorResult<Uint8Array>> => {
    for (;;) {
      if (cancelled) return { done: true, value: undefined };
      const chunk = queue.shift();
      if (chunk) {
        if (queue.length < HIGH_WATER && source.isPaused()) source.resume();
        return { done: false, value: chunk };
      }
      if (failure) throw failure.reason;
      if (ended) return { done: true, value: undefined };
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  const cancel = async (): Promise<IteratorResult<Uint8Array>> => {
    cancelled = true;
    if (!ended && !failure) {
      failure = { reason: new TypeError('the response body was cancelled') };
      settle();
      destroy();
      source.destroy();
    }
    queue.length = 0;
    notify(); // a read waiting for data ends too
    return { done: true, value: undefined };
  };

  let web: ReadableStream<Uint8Array> | undefined;
  const asWebStream = (): ReadableStream<Uint8Array> => {
    claim('web');
    web ??= new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const result = await next();
            if (result.done) controller.close();
            else controller.enqueue(result.value);
          } catch (error) {
            controller.error(error);
          }
        },
        cancel: async () => void (await cancel()),
      },
      { highWaterMark: 0 },
    );
    return web;
  };

  const body = {
    [Symbol.asyncIterator]() {
      claim('iterator');
      return { next, return: cancel, [Symbol.asyncIterator]() { return this; } };
    },
    get [Symbol.toStringTag]() {
      return 'ReadableStream';
    },
    get locked() {
      return reader !== undefined;
    },
    getReader: (...args: Parameters<ReadableStream<Uint8Array>['getReader']>) => asWebStream().getReader(...(args as [])),
    pipeThrough: <T>(...args: Parameters<ReadableStream<Uint8Array>['pipeThrough']>) => asWebStream().pipeThrough(...args) as ReadableStream<T>,
    pipeTo: (...args: Parameters<ReadableStream<Uint8Array>['pipeTo']>) => asWebStream().pipeTo(...args),
    tee: () => asWebStream().tee(),
    cancel: async () => {
      if (web) return web.cancel();
      claim('iterator');
      await cancel();
    },
  };
  return { body: body as unknown as ReadableStream<Uint8Array>, fail, finished };
}

/** A body cut short, as undici reports it: `TypeError: terminated` with the cause. */
export function terminated(cause: unknown): TypeError {
  return new TypeError('terminated', { cause });
}
