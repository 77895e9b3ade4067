/**
 * Turning whatever went wrong in an SDK call into a `ProviderError`: a kind, whether another attempt
 * could help, the server-requested delay, and a message a user can act on.
 */
import type { ProviderError, ProviderErrorKind } from './types.js';

/** The SDK error classes both official SDKs export under these names; matched with `instanceof`. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

export interface ErrorContext {
  /** Who we were talking to, as a user names it: "DeepSeek API", "Anthropic API". */
  label: string;
  baseUrl: string;
  /** Whether the response had started streaming: connection failures then mean a cut stream. */
  streaming: boolean;
}

/** Messages by which providers report a prompt longer than the model's window. */
const CONTEXT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /maximum context length/i, // OpenAI, DeepSeek, vLLM
  /context[_ ]length[_ ]exceeded/i, // OpenAI error code
  /prompt is too long/i, // Anthropic
  /input is too long/i, // Bedrock-style gateways
  /exceeds? (?:the )?(?:model'?s? )?(?:maximum )?context (?:window|length|size)/i,
  /exceeds the available context size/i, // llama.cpp
  /reduce the length of the messages/i,
  /too many tokens in (?:the )?(?:prompt|request)/i,
];

const STATUS_PHRASES: Record<number, string> = {
  400: 'bad request',
  401: 'authentication failed',
  402: 'payment required',
  403: 'permission denied',
  404: 'not found',
  408: 'request timeout',
  409: 'conflict',
  413: 'request too large',
  422: 'unprocessable request',
  429: 'rate limited',
  500: 'internal server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
  529: 'overloaded',
};

export function isContextOverflow(text: string): boolean {
  return CONTEXT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(text));
}

/** Builds a ProviderError whose message is `summary: detail`. */
export function providerError(
  kind: ProviderErrorKind,
  summary: string,
  detail: string | undefined,
  extra: { retryable: boolean; status?: number; retryAfterMs?: number },
): ProviderError {
  const error: ProviderError = {
    kind,
    message: detail ? `${summary}: ${detail}` : summary,
    retryable: extra.retryable,
    summary,
  };
  if (detail) error.detail = detail;
  if (extra.status !== undefined) error.status = extra.status;
  if (extra.retryAfterMs !== undefined) error.retryAfterMs = extra.retryAfterMs;
  return error;
}

export function abortedError(): ProviderError {
  return providerError('aborted', 'Request cancelled', undefined, { retryable: false });
}

/** What the wire had delivered when the idle watchdog fired. */
export interface IdleTimeoutCircumstances {
  /** The response head (status, headers) arrived. */
  responded: boolean;
  /** Body bytes received, keep-alive comments and pings included. */
  bytes: number;
  /** Chunks the SDK parsed into events: content, usage, the end. */
  contentChunks: number;
}

/** The idle timeout, named for what really happened: silence from the start, keep-alives that
 * stopped before any content, or a response that stalled partway. */
export function idleTimeoutError(label: string, idleTimeoutMs: number, seen?: IdleTimeoutCircumstances): ProviderError {
  const quiet = formatSeconds(idleTimeoutMs);
  let summary: string;
  if (!seen || (!seen.responded && seen.bytes === 0)) summary = `${label} sent no data for ${quiet} (idle timeout)`;
  else if (seen.bytes === 0) summary = `${label} answered but sent no body for ${quiet} (idle timeout)`;
  else if (seen.contentChunks === 0) {
    summary = `${label} sent ${seen.bytes} bytes of keep-alives but no content, then nothing for ${quiet} (idle timeout)`;
  } else summary = `${label} stopped sending in the middle of the response: nothing for ${quiet} (idle timeout)`;
  return providerError('timeout', summary, undefined, { retryable: true });
}

/** The server answered with an HTML page: a website, a proxy's login page, a wrong path. */
export function notAnApiEndpointError(label: string, baseUrl: string, answer: { status: number; url: string }): ProviderError {
  const where = answer.url || baseUrl;
  return providerError(
    'bad_request',
    `${label} at ${baseUrl} answered with an HTML page (HTTP ${answer.status}), not an API response`,
    `${where} is not an API endpoint. Check the base URL (--base-url, the <PROVIDER>_BASE_URL variable or providers.<name>.base_url in the config): OpenAI-style servers usually end in /v1`,
    { retryable: false, status: answer.status },
  );
}

/** Adds what the user can do about `error` after its detail: the message stays `summary: detail`. */
export function withAdvice(error: ProviderError, advice: string): ProviderError {
  const detail = error.detail ? `${error.detail.replace(/[.\s]*$/, '')}. ${advice}` : advice;
  const summary = error.summary ?? error.message;
  return { ...error, detail, message: `${summary}: ${detail}` };
}

export function streamCutError(label: string, detail?: string): ProviderError {
  return providerError('stream_cut', `${label} stream ended before the response was complete`, detail, {
    retryable: true,
  });
}

/** Maps an error thrown by an SDK call or stream (user aborts and idle timeouts are decided by the
 * caller, which knows which of its signals fired). */
export function mapSdkError(error: unknown, classes: SdkErrorClasses, ctx: ErrorContext): ProviderError {
  if (error instanceof classes.APIConnectionTimeoutError) {
    return providerError('timeout', `${ctx.label} did not answer in time`, causeText(error), { retryable: true });
  }
  if (error instanceof classes.APIUserAbortError) return abortedError();
  if (error instanceof classes.APIConnectionError) {
    return ctx.streaming
      ? streamCutError(ctx.label, causeText(error))
      : providerError('network', `Could not reach ${ctx.label} at ${ctx.baseUrl}`, causeText(error), { retryable: true });
  }
  if (error instanceof classes.APIError) return mapApiError(error, ctx);
  if (error instanceof SyntaxError) {
    // An event that is not JSON inside a stream that had started is a damaged stream, like a cut
    // one: retried, whichever provider's reader met it (the retry drops the partial response; a
    // response already whole was never parsed from a broken event). Before streaming there is no
    // event to blame, and a body the SDK could not read will not read better a second time.
    return ctx.streaming
      ? providerError('malformed', `${ctx.label} sent a stream event that could not be parsed`, error.message, { retryable: true })
      : providerError('malformed', `${ctx.label} sent a response that could not be parsed`, error.message, { retryable: false });
  }
  if (isAbortError(error)) return abortedError();
  const detail = causeText(error);
  return ctx.streaming
    ? streamCutError(ctx.label, detail)
    : providerError('network', `Could not reach ${ctx.label} at ${ctx.baseUrl}`, detail, { retryable: true });
}

function mapApiError(error: Error, ctx: ErrorContext): ProviderError {
  const status = numberProperty(error, 'status');
  const detail = serverMessage(error);
  const overflowText = `${detail} ${stringProperty(error, 'code') ?? ''}`;
  if (status === undefined) {
    // An error event inside a 200 stream (Anthropic `event: error`, OpenAI `data: {"error":...}`).
    const type = stringProperty(error, 'type') ?? '';
    const summary = `${ctx.label} reported an error in the middle of the response`;
    if (isContextOverflow(overflowText)) return overflowError(ctx, detail, undefined);
    if (type === 'invalid_request_error') return providerError('bad_request', summary, detail, { retryable: false });
    if (type === 'authentication_error' || type === 'permission_error') {
      return providerError('auth', summary, detail, { retryable: false });
    }
    const kind = type === 'rate_limit_error' ? 'rate_limit' : 'server';
    return providerError(kind, summary, detail, { retryable: true });
  }
  const summary = `${ctx.label} returned HTTP ${status} (${STATUS_PHRASES[status] ?? (status >= 500 ? 'server error' : 'error')})`;
  const retryAfterMs = parseRetryAfter(headersOf(error));
  const extra = (retryable: boolean) => ({ retryable, status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  if (status === 429) return providerError('rate_limit', summary, detail, extra(true));
  if (status === 401 || status === 403) return providerError('auth', summary, detail, extra(false));
  if (status >= 500 || status === 408 || status === 409) return providerError('server', summary, detail, extra(true));
  if (isContextOverflow(overflowText)) return overflowError(ctx, detail, status);
  return providerError('bad_request', summary, detail, extra(false));
}

function overflowError(ctx: ErrorContext, detail: string, status: number | undefined): ProviderError {
  // The status is named like every other HTTP error's ("HTTP 400"); an error event inside a 200
  // stream has none of its own to name.
  const http = status === undefined ? '' : ` (HTTP ${status})`;
  return providerError('context_overflow', `${ctx.label} rejected the prompt as longer than the model's context window${http}`, detail, {
    retryable: false,
    ...(status === undefined ? {} : { status }),
  });
}

interface HeaderReader {
  get(name: string): string | null;
}

/** Server-requested delay in ms from `retry-after-ms`, or `retry-after` (seconds or an HTTP date). */
export function parseRetryAfter(headers: HeaderReader | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.round(milliseconds);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(value)) return Math.round(Number.parseFloat(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function headersOf(error: Error): HeaderReader | undefined {
  const headers: unknown = Reflect.get(error, 'headers');
  return typeof headers === 'object' && headers !== null && typeof Reflect.get(headers, 'get') === 'function'
    ? (headers as HeaderReader)
    : undefined;
}

/** The server's own words: OpenAI puts `{message}` in `error.error`, Anthropic `{error: {message}}`. */
function serverMessage(error: Error): string {
  const body: unknown = Reflect.get(error, 'error');
  const direct = isObject(body) ? body['message'] : undefined;
  if (typeof direct === 'string' && direct) return direct;
  const nested = isObject(body) && isObject(body['error']) ? body['error']['message'] : undefined;
  if (typeof nested === 'string' && nested) return nested;
  return error.message.replace(/^\d{3} /, '');
}

/** The most specific text of an error chain ("connect ECONNREFUSED 127.0.0.1:9" rather than
 * "Connection error."). */
function causeText(error: unknown): string | undefined {
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = stringProperty(current, 'code');
    texts.push(code && !current.message.includes(code) ? `${current.message} (${code})` : current.message);
    current = current.cause;
  }
  const informative = texts.filter((text) => text && text !== 'Connection error.' && text !== 'fetch failed');
  return informative.at(-1) ?? texts[0];
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function numberProperty(value: object, key: string): number | undefined {
  const found: unknown = Reflect.get(value, key);
  return typeof found === 'number' ? found : undefined;
}

function stringProperty(value: object, key: string): string | undefined {
  const found: unknown = Reflect.get(value, key);
  return typeof found === 'string' ? found : undefined;
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
