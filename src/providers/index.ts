/**
 * The providers folder's front door: `createProvider` picks the wire by provider name and wraps
 * it in retries. The SDKs load on the first request, so importing this module is cheap.
 */
import { ANTHROPIC_DEFAULT_BASE_URL, createAnthropicProvider } from './anthropic.js';
import { createOpenAICompatibleProvider } from './openai-compatible.js';
import { withRetries, type RetryOptions } from './retry.js';
import type { Provider } from './types.js';

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
}

/** A provider for `options.provider`, with retries. Never throws: an OpenAI-compatible provider
 * without a base URL answers every request with a non-retryable error saying what to set. */
export function createProvider(options: CreateProviderOptions): Provider {
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URLS[options.provider];
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
  const stream = withRetries((request, signal) => inner.stream(request, signal), options.retry);
  return { name: inner.name, stream };
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
export { DEFAULT_IDLE_TIMEOUT_MS } from './stream-support.js';
export * from './types.js';
export * from './catalog.js';
