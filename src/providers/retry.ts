/**
 * Retries around a StreamFn: exponential backoff with full jitter, honouring the server's
 * retry-after. The providers never retry on their own (their SDKs run with maxRetries 0).
 */
import type { AssistantMessage, ModelRequest, ProviderError, StreamEvent, StreamFn } from './types.js';

export interface RetryOptions {
  /** Attempts in all, the first included. Default 4, or env `SEEK_MAX_RETRIES` + 1. */
  maxAttempts?: number;
  /** Backoff base. Default 500 ms, or env `SEEK_RETRY_BASE_MS`. */
  baseDelayMs?: number;
  /** Longest wait between attempts. Default 30 s. */
  maxDelayMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** In [0, 1); the jitter source. */
  random?: () => number;
}

/** A server asking us to wait longer than this is not worth waiting for inside one turn. */
export const MAX_RETRY_AFTER_MS = 60_000;

const DEFAULT_MAX_ATTEMPTS = 4;
const DEFAULT_BASE_DELAY_MS = 500;
const DEFAULT_MAX_DELAY_MS = 30_000;

/**
 * Wraps `inner` so that retryable failures (429, 5xx, network, a stream cut before `done`, idle
 * timeout) are tried again, even after deltas went out: a `retry` event tells consumers to drop
 * the partial response. The final failure is one `error` event saying what happened and how many
 * attempts were made. Aborts end at once, without retry.
 */
export function withRetries(inner: StreamFn, options: RetryOptions = {}): StreamFn {
  const maxAttempts = Math.max(1, options.maxAttempts ?? envCount('SEEK_MAX_RETRIES', 1) ?? DEFAULT_MAX_ATTEMPTS);
  const baseDelayMs = options.baseDelayMs ?? envCount('SEEK_RETRY_BASE_MS', 0) ?? DEFAULT_BASE_DELAY_MS;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const sleep = options.sleep ?? sleepUnlessAborted;
  const random = options.random ?? Math.random;

  return async function* retrying(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    for (let attempt = 1; ; attempt++) {
      let failure: Extract<StreamEvent, { type: 'error' }> | undefined;
      try {
        for await (const event of inner(request, signal)) {
          if (event.type === 'error') {
            failure = event;
            break;
          }
          yield event;
          if (event.type === 'done') return;
        }
      } catch (thrown) {
        failure = brokenContract(`the provider threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`, request);
      }
      failure ??= brokenContract('the provider stream ended without done or error', request);

      const { error } = failure;
      if (error.kind === 'aborted' || signal?.aborted) {
        yield signal?.aborted && error.kind !== 'aborted' ? abortedFailure(request) : failure;
        return;
      }
      if (!error.retryable || attempt >= maxAttempts) {
        yield finalFailure(failure, attempt, attemptsText(attempt));
        return;
      }
      if (error.retryAfterMs !== undefined && error.retryAfterMs > MAX_RETRY_AFTER_MS) {
        const after = attempt > 1 ? ` ${attemptsText(attempt)}` : '';
        const wait = `and asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s before retrying, longer than the ${MAX_RETRY_AFTER_MS / 1000} s limit; giving up${after}`;
        yield finalFailure(failure, attempt, wait);
        return;
      }
      const delayMs =
        error.retryAfterMs !== undefined
          ? Math.min(error.retryAfterMs, maxDelayMs)
          : Math.round(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)));
      yield { type: 'retry', attempt, maxAttempts, delayMs, error };
      await sleep(delayMs, signal).catch(() => undefined);
      if (signal?.aborted) {
        yield abortedFailure(request);
        return;
      }
    }
  };
}

function attemptsText(attempts: number): string {
  return attempts === 1 ? '' : `after ${attempts} attempts`;
}

/** "DeepSeek API returned HTTP 429 (rate limited) after 4 attempts: slow down". */
function finalFailure(
  failure: Extract<StreamEvent, { type: 'error' }>,
  attempts: number,
  circumstances: string,
): StreamEvent {
  const { error } = failure;
  const summary = error.summary ?? error.message;
  const head = circumstances ? `${summary} ${circumstances}` : summary;
  const message = error.summary !== undefined && error.detail ? `${head}: ${error.detail}` : head;
  const final: ProviderError = { ...error, message, attempts };
  return { type: 'error', error: final, message: { ...failure.message, errorMessage: message } };
}

function abortedFailure(request: ModelRequest): StreamEvent {
  const error: ProviderError = { kind: 'aborted', message: 'Request cancelled', retryable: false, summary: 'Request cancelled' };
  return { type: 'error', error, message: emptyMessage(request, 'aborted', error.message) };
}

function brokenContract(detail: string, request: ModelRequest): Extract<StreamEvent, { type: 'error' }> {
  const error: ProviderError = { kind: 'stream_cut', message: `Stream failed: ${detail}`, retryable: true, summary: 'Stream failed', detail };
  return { type: 'error', error, message: emptyMessage(request, 'error', error.message) };
}

function emptyMessage(request: ModelRequest, stopReason: 'error' | 'aborted', errorMessage: string): AssistantMessage {
  return { role: 'assistant', content: '', toolCalls: [], stopReason, model: request.model, errorMessage };
}

/** A non-negative integer from the environment, plus `offset`; undefined when unset or invalid. */
function envCount(name: string, offset: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
  return Number.parseInt(raw, 10) + offset;
}

function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
