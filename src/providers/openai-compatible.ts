/**
 * The provider for every server that speaks OpenAI Chat Completions: DeepSeek (first-class),
 * OpenAI, and OpenAI-compatible servers (Ollama, vLLM, llama.cpp, OpenRouter). Built on the official
 * `openai` SDK with its retries off: retries belong to retry.ts.
 */
import type OpenAI from 'openai';
import { streamAttempt, type WireEnd } from './attempt.js';
import type { SdkErrorClasses } from './errors.js';
import {
  chatRequestPieces,
  detectOpenAICompat,
  encodeChatRequest,
  type OpenAICompat,
  type OpenAIProviderName,
} from './openai-compat.js';
import { OpenAIChunkReader, type WireChunk } from './openai-chunks.js';
import { isStreamCancel, serverSentEvents } from './sse-events.js';
import { resolveIdleTimeoutMs } from './stream-support.js';
import { lazyAsync } from '../util/lazy.js';
import { activityOptions, attemptRoutedFetch } from './watched-fetch.js';
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
  /** The SDK's error for an error reported inside the stream (its status line said 200). */
  streamError(error: object, headers: Headers): Error;
}

function isErrorChunk(chunk: unknown): chunk is { error: object } {
  return typeof chunk === 'object' && chunk !== null && Boolean((chunk as { error?: unknown }).error);
}

export function createOpenAICompatibleProvider(options: OpenAICompatibleProviderOptions): Provider {
  const compat: OpenAICompat = { ...detectOpenAICompat(options.name, options.baseUrl), ...options.compat };
  const idleTimeoutMs = resolveIdleTimeoutMs(options.idleTimeoutMs);
  // Each history message is serialised once for all the requests of this provider (request-bytes.ts).
  const pieces = chatRequestPieces();

  // The SDK is imported on the first request, not at startup: CLI cold start is measured. One
  // client serves every attempt; each request carries its attempt, whose idle watchdog its fetch
  // feeds (watched-fetch.ts). Requests go through the node:http transport (http-transport.ts)
  // unless a fetch is given. A failed load is not remembered: the next attempt tries again.
  const loadSdk = lazyAsync(async (): Promise<LoadedSdk> => {
    const [module, transport] = await Promise.all([import('openai'), options.fetch ? undefined : import('./http-transport.js')]);
    return {
      client: new module.default({
        apiKey: options.apiKey || 'no-key',
        baseURL: options.baseUrl,
        maxRetries: 0,
        fetch: attemptRoutedFetch(options.fetch ?? transport!.sharedHttpFetch()),
      }),
      errors: module,
      streamError: (error, headers) => new module.APIError(undefined, error, undefined, headers),
    };
  });

  const stream = (request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> =>
    streamAttempt({
      request,
      signal,
      idleTimeoutMs,
      label: compat.label,
      baseUrl: options.baseUrl,
      loadSdk,
      run: async function* (sdk, attempt, assembler, streaming): AsyncGenerator<StreamEvent, WireEnd> {
        // The raw response: the SDK has checked its status (errors are the SDK's), and the events
        // are read here (sse-events.ts), doing what the SDK's stream does with them.
        // Posted as bytes (what `chat.completions.create` would send, built incrementally): the SDK
        // passes a Buffer body through untouched, with the content type given here.
        const response = await sdk.client
          .post('/chat/completions', {
            body: encodeChatRequest(request, compat, pieces),
            headers: { 'Content-Type': 'application/json' },
            stream: true,
            signal: attempt.signal,
            fetchOptions: activityOptions(attempt),
          })
          .asResponse();
        streaming();
        if (!response.body) return { complete: false, detail: 'the response had no body' };
        const reader = new OpenAIChunkReader(assembler);
        let done = false;
        try {
          for await (const events of serverSentEvents(response.body as unknown as AsyncIterable<Uint8Array>)) {
            attempt.touch();
            for (const event of events) {
              // After [DONE] the body is read to its end, so the connection is kept; an empty
              // event (`data:` alone, which some servers send to keep a stream alive) carries nothing.
              if (done || event.data === '') continue;
              if (event.data.startsWith('[DONE]')) {
                done = true;
                continue;
              }
              const chunk = JSON.parse(event.data) as unknown;
              // An error reported inside the stream, with the status line long gone.
              if (isErrorChunk(chunk)) throw sdk.streamError(chunk.error, response.headers);
              // The SDK's chunk type describes OpenAI; other servers send other shapes (content arrays).
              for (const streamEvent of reader.read(chunk as WireChunk)) yield streamEvent;
            }
          }
        } catch (error) {
          // A chunk that is not JSON throws its SyntaxError on: errors.ts makes it a retried
          // damaged stream, as for every provider. An abort ends the events, as the SDK's stream ends: the attempt says why.
          if (!isStreamCancel(error)) throw error;
        }
        // [DONE] read as an event, or left unclosed at the very end of the wire.
        return reader.end(done || attempt.wireDone);
      },
    });

  return { name: options.name, stream };
}
