/**
 * The provider for every server that speaks OpenAI Chat Completions: DeepSeek (first-class),
 * OpenAI, and OpenAI-compatible servers (Ollama, vLLM, llama.cpp, OpenRouter). Built on the official
 * `openai` SDK with its retries off: retries belong to retry.ts.
 */
import type OpenAI from 'openai';
import { streamAttempt, type WireEnd } from './attempt.js';
import type { SdkErrorClasses } from './errors.js';
import {
  buildChatRequest,
  detectOpenAICompat,
  type OpenAICompat,
  type OpenAIProviderName,
} from './openai-compat.js';
import { OpenAIChunkReader, type WireChunk } from './openai-chunks.js';
import { resolveIdleTimeoutMs } from './stream-support.js';
import { watchedFetch, type WireActivity } from './watched-fetch.js';
import type { ModelRequest, Provider, StreamEvent } from './types.js';

export type { OpenAICompat } from './openai-compat.js';
export { detectOpenAICompat } from './openai-compat.js';
export { mapOpenAIUsage } from './openai-chunks.js';

export interface OpenAICompatibleProviderOptions {
  name: OpenAIProviderName;
  apiKey: string;
  baseUrl: string;
  compat?: Partial<OpenAICompat>;
  idleTimeoutMs?: number;
  fetch?: typeof fetch;
}

interface LoadedSdk {
  client: OpenAI;
  errors: SdkErrorClasses;
}

export function createOpenAICompatibleProvider(options: OpenAICompatibleProviderOptions): Provider {
  const compat: OpenAICompat = { ...detectOpenAICompat(options.name, options.baseUrl), ...options.compat };
  const idleTimeoutMs = resolveIdleTimeoutMs(options.idleTimeoutMs);

  // The SDK is imported on the first request, not at startup: CLI cold start is measured. Each
  // attempt gets its own (cheap) client, whose fetch feeds that attempt's idle watchdog. Requests go
  // through the node:http transport (http-transport.ts) unless a fetch is given.
  const loadSdk = (activity: WireActivity): Promise<LoadedSdk> =>
    Promise.all([import('openai'), options.fetch ? undefined : import('./http-transport.js')]).then(([module, transport]) => ({
      client: new module.default({
        apiKey: options.apiKey || 'no-key',
        baseURL: options.baseUrl,
        maxRetries: 0,
        fetch: watchedFetch(options.fetch ?? transport!.sharedHttpFetch(), activity),
      }),
      errors: module,
    }));

  const stream = (request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> =>
    streamAttempt({
      request,
      signal,
      idleTimeoutMs,
      label: compat.label,
      baseUrl: options.baseUrl,
      loadSdk,
      run: async function* (sdk, attempt, assembler, streaming): AsyncGenerator<StreamEvent, WireEnd> {
        const chunks = await sdk.client.chat.completions.create(buildChatRequest(request, compat), { signal: attempt.signal });
        streaming();
        const reader = new OpenAIChunkReader(assembler);
        try {
          for await (const chunk of chunks) {
            attempt.touch();
            // The SDK's chunk type describes OpenAI; other servers send other shapes (content arrays).
            yield* reader.read(chunk as unknown as WireChunk);
          }
        } catch (error) {
          // A chunk that is not JSON is a damaged stream, retried like a cut one.
          if (error instanceof SyntaxError) return { complete: false, detail: `a chunk was not valid JSON (${error.message})` };
          throw error;
        }
        return reader.end(attempt.wireDone);
      },
    });

  return { name: options.name, stream };
}
