/**
 * A Redis outage as a fleet process (worker or coordinator) reports it: one line when the
 * connection is lost and one when it is back, whatever number of clients the process holds and
 * however many times ioredis retries meanwhile (it reconnects by itself, retrying without end).
 * BullMQ's and ioredis's own error events are routed here: connection errors are silent (the two
 * lines say it), any other error is logged as one line, never as a stack trace.
 *
 * Also bounded waits, so a process stops in time while Redis does not answer (`within`).
 */
import type { Redis } from 'ioredis';
import { redact } from './connection.js';

/** Error codes and messages of a connection that is down or going down (ioredis, BullMQ). */
const CONNECTION_ERROR = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|Connection is closed|Stream isn't writeable|connect ETIMEDOUT|socket hang up|LOADING/i;

export function isConnectionError(error: unknown): boolean {
  const text = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}` : String(error);
  return CONNECTION_ERROR.test(text);
}

export class ConnectionWatch {
  private down = false;
  private readonly seen = new Set<string>();

  constructor(
    private readonly url: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Whether the watched connection is down now. */
  get lost(): boolean {
    return this.down;
  }

  /**
   * Watches `client`, already connected (its `close` and `ready` events decide the two lines: the
   * server going away closes every connection of the process at once, so one client tells for all).
   * Its error events are silenced (ioredis would print each reconnect failure with its stack).
   */
  watch(client: Redis): void {
    client.on('error', this.onError);
    client.on('close', () => {
      if (this.down) return;
      this.down = true;
      this.log(`lost the connection to Redis at ${redact(this.url)}; reconnecting by itself (work waits, nothing is lost)`);
    });
    client.on('ready', () => {
      if (!this.down) return;
      this.down = false;
      this.log(`the connection to Redis at ${redact(this.url)} is back`);
    });
  }

  /** An `error` listener for BullMQ's queues, workers, flow producers and extra ioredis clients:
   * connection errors are silent; another error is logged once per message (a failure repeated
   * every few seconds is not a new fact). */
  readonly onError = (error: unknown): void => {
    if (isConnectionError(error)) return;
    const message = error instanceof Error ? error.message : String(error);
    if (this.seen.has(message)) return;
    this.seen.add(message);
    this.log(`queue error: ${message}`);
  };
}

/** Whether `work` settled within `ms` (it goes on, unwatched, when it did not). Never throws. */
export async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true as const, () => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `work`'s value, or `fallback` when it did not settle within `ms` or failed. */
export async function valueWithin<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let value = fallback;
  await within(
    work.then((result) => void (value = result)),
    ms,
  );
  return value;
}

/** The last resort of a stopping process: exits it (status 1) after `ms` unless cleared first, so
 * a stop bounded step by step is bounded as a whole too. The timer does not keep it alive. */
export function exitAfter(ms: number, log: (line: string) => void): NodeJS.Timeout {
  const timer = setTimeout(() => {
    log(`still stopping after ${ms / 1000} s; exiting now`);
    process.exit(1);
  }, ms);
  timer.unref();
  return timer;
}
