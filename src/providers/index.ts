/**
 * The providers folder's front door: `createProvider` picks the wire by provider name and wraps
 * it in retries. The SDKs load on the first request, so importing this module is cheap.
 */
import { ANTHROPIC_DEFAULT_BASE_URL, createAnthropicProvider } from './anthropic.js';
import { createOpenAICompatibleProvider } from './openai-compatible.js';
import { withAdvice } from './errors.js';
import { withRetries, type RetryOptions } from './retry.js';
import { withRequestGate } from './gated.js';
import { imageAdvice, withImageGuard } from './image-guard.js';
import type { ModelRequest, Provider, ProviderError, RequestGate, StreamEvent, StreamFn } from './types.js';
import { redact, rememberSecret, rememberUrlSecrets } from '../util/redact.js';

export type ProviderName = 'deepseek' | 'openai' | 'openai-compatible' | 'anthropic';

export const DEFAULT_BASE_URLS: Readonly<Record<ProviderName, string | undefined>> = {
  deepseek: 'https://api.deepseek.com',
  openai: 'https://api.openai.com/v1',
  anthropic: ANTHROPIC_DEFAULT_BASE_URL,
  // An OpenAI-compatible server has no default address: the user names it (--base-url / OPENAI_BASE_URL).
  'openai-compatible': undefined,
};

export interface CreateProviderOptions {
  provider: ProviderName;
  apiKey: string;
  baseUrl?: string;
  /** For tests; env `SEEK_STREAM_IDLE_TIMEOUT_MS` sets it otherwise. */
  idleTimeoutMs?: number;
  /** For tests; env `SEEK_MAX_RETRIES` and `SEEK_RETRY_BASE_MS` set them otherwise. */
  retry?: RetryOptions;
  fetch?: typeof fetch;
  /** Where `apiKey` came from ("the DEEPSEEK_API_KEY environment variable"): named when the
   * server rejects the key (401/403), so the user knows what to fix. */
  keySource?: string;
  /** Paces every attempt of every request (a rate limit shared with other processes). */
  gate?: RequestGate;
}

/** A provider for `options.provider`, with retries. Never throws: an OpenAI-compatible provider
 * without a base URL answers every request with a non-retryable error saying what to set. */
export function createProvider(options: CreateProviderOptions): Provider {
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URLS[options.provider];
  // The key and a base URL's credentials never appear in an error, wherever it is printed or kept.
  rememberSecret(options.apiKey);
  rememberUrlSecrets(baseUrl);
  const common = {
    apiKey: options.apiKey,
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  let inner: Provider;
  if (options.provider === 'anthropic') {
    inner = createAnthropicProvider({ ...common, ...(baseUrl ? { baseUrl } : {}) });
  } else {
    inner = baseUrl
      ? createOpenAICompatibleProvider({ ...common, name: options.provider, baseUrl })
      : missingBaseUrlProvider(options.provider);
  }
  const advised = withErrorAdvice((request, signal) => inner.stream(request, signal), options, baseUrl);
  const stream = withImageGuard(withRedactedErrors(withRetries(options.gate ? withRequestGate(advised, options.gate) : advised, options.retry)));
  return { name: inner.name, stream };
}

/** Passes `inner`'s events through with every error text redacted (util/redact.ts): a base URL's
 * user info, key-like query parameters and the key itself never leave the provider. */
export function withRedactedErrors(inner: StreamFn): StreamFn {
  return async function* redacting(request, signal): AsyncGenerator<StreamEvent> {
    for await (const event of inner(request, signal)) {
      if (event.type === 'error') {
        const error = redactError(event.error);
        yield { ...event, error, message: { ...event.message, ...(event.message.errorMessage !== undefined ? { errorMessage: redact(event.message.errorMessage) } : {}) } };
      } else if (event.type === 'retry') yield { ...event, error: redactError(event.error) };
      else yield event;
    }
  };
}

function redactError(error: ProviderError): ProviderError {
  return {
    ...error,
    message: redact(error.message),
    ...(error.summary !== undefined ? { summary: redact(error.summary) } : {}),
    ...(error.detail !== undefined ? { detail: redact(error.detail) } : {}),
  };
}

/** Passes `inner`'s events through, adding to a rejected key or a missing model what to do. */
function withErrorAdvice(inner: StreamFn, options: CreateProviderOptions, baseUrl: string | undefined): StreamFn {
  return async function* advising(request, signal): AsyncGenerator<StreamEvent> {
    for await (const event of inner(request, signal)) {
      if (event.type !== 'error') {
        yield event;
        continue;
      }
      const advice = adviceFor(event.error, request, options, baseUrl);
      if (!advice) yield event;
      else {
        const error = withAdvice(event.error, advice);
        yield { ...event, error, message: { ...event.message, errorMessage: error.message } };
      }
    }
  };
}

function adviceFor(error: ProviderError, request: ModelRequest, options: CreateProviderOptions, baseUrl: string | undefined): string | undefined {
  if (error.kind === 'auth') {
    const source = options.keySource ?? `the API key given for the ${options.provider} provider`;
    return `The key in use comes from ${source}: check that it is valid for ${baseUrl ?? 'this server'} and has access to model "${request.model}"`;
  }
  if (error.status === 404 && baseUrl) {
    const list =
      options.provider === 'anthropic'
        ? `curl ${joinUrl(baseUrl, 'v1/models')} -H "x-api-key: $ANTHROPIC_API_KEY" -H "anthropic-version: 2023-06-01"`
        : `curl ${joinUrl(baseUrl, 'models')} -H "Authorization: Bearer <your key>"`;
    return `Model "${request.model}" may not exist there, or the base URL is wrong. List the models it serves with: ${list}; then pick one with --model or SEEK_MODEL`;
  }
  return imageAdvice(error, request);
}

/** `base` with `path` appended to its path (a query or fragment stays after it). */
function joinUrl(base: string, path: string): string {
  try {
    const url = new URL(base);
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path}`;
    return url.href;
  } catch {
    return `${base.replace(/\/+$/, '')}/${path}`;
  }
}

function missingBaseUrlProvider(name: ProviderName): Provider {
  const message = `The ${name} provider needs a base URL: pass --base-url or set OPENAI_BASE_URL.`;
  return {
    name,
    async *stream(request) {
      yield {
        type: 'error',
        error: { kind: 'bad_request', message, retryable: false, summary: message },
        message: { role: 'assistant', content: '', toolCalls: [], stopReason: 'error', model: request.model, errorMessage: message },
      };
    },
  };
}

export { createAnthropicProvider, type AnthropicProviderOptions } from './anthropic.js';
export {
  createOpenAICompatibleProvider,
  detectOpenAICompat,
  type OpenAICompat,
  type OpenAICompatibleProviderOptions,
} from './openai-compatible.js';
export { withRetries, MAX_RETRY_AFTER_MS, type RetryOptions } from './retry.js';
export { isContextOverflow, parseRetryAfter } from './errors.js';
export { imageRefusal, userImagesIn } from './image-guard.js';
export { DEFAULT_IDLE_TIMEOUT_MS } from './stream-support.js';
export * from './types.js';
export * from './catalog.js';
