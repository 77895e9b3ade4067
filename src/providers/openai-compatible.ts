/**
 * The provider for every server that speaks OpenAI Chat Completions: DeepSeek (first-class),
 * OpenAI, and OpenAI-compatible servers (Ollama, vLLM, llama.cpp, OpenRouter). Built on the official
 * `openai` SDK with its retries off: retries belong to retry.ts.
 */
import type OpenAI from 'openai';
import type { CompletionUsage } from 'openai/resources/completions';
import { streamAttempt, type WireEnd } from './attempt.js';
import type { SdkErrorClasses } from './errors.js';
import {
  buildChatRequest,
  detectOpenAICompat,
  type OpenAICompat,
  type OpenAIProviderName,
} from './openai-compat.js';
import { resolveIdleTimeoutMs } from './stream-support.js';
import type { ModelRequest, Provider, StopReason, StreamEvent, Usage } from './types.js';

export type { OpenAICompat } from './openai-compat.js';
export { detectOpenAICompat } from './openai-compat.js';

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
  let sdk: Promise<LoadedSdk> | undefined;

  // The SDK is imported on the first request, not at startup: CLI cold start is measured.
  const loadSdk = (): Promise<LoadedSdk> =>
    (sdk ??= import('openai').then((module) => ({
      client: new module.default({
        apiKey: options.apiKey || 'no-key',
        baseURL: options.baseUrl,
        maxRetries: 0,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
      errors: module,
    })));

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
        const callIndexByWireIndex = new Map<number, number>();
        let finishReason: string | undefined;
        let usage: Usage | undefined;
        for await (const chunk of chunks) {
          attempt.touch();
          if (chunk.usage) usage = mapOpenAIUsage(chunk.usage);
          for (const choice of chunk.choices ?? []) {
            if (choice.index !== 0) continue;
            const delta = choice.delta ?? {};
            const reasoning = reasoningOf(delta);
            if (reasoning) yield assembler.reasoningDelta(reasoning);
            if (delta.content) yield assembler.textDelta(delta.content);
            for (const call of delta.tool_calls ?? []) {
              let index = callIndexByWireIndex.get(call.index);
              if (index === undefined) {
                const started = assembler.startToolCall(call.id || `call_${call.index}`, call.function?.name ?? '');
                index = started.index;
                callIndexByWireIndex.set(call.index, index);
                yield started.event;
              }
              const argumentsDelta = assembler.toolCallDelta(index, call.function?.arguments ?? '');
              if (argumentsDelta) yield argumentsDelta;
            }
            if (choice.finish_reason) {
              finishReason = choice.finish_reason;
              yield* assembler.endAllToolCalls();
            }
          }
        }
        if (finishReason === undefined) return { complete: false, detail: 'no finish_reason received' };
        return { complete: true, stopReason: stopReasonOf(finishReason, assembler.toolCallCount), ...(usage ? { usage } : {}) };
      },
    });

  return { name: options.name, stream };
}

/** DeepSeek (and vLLM) stream reasoning as `reasoning_content`; Ollama and OpenRouter as `reasoning`. */
function reasoningOf(delta: object): string | undefined {
  for (const key of ['reasoning_content', 'reasoning']) {
    const value: unknown = Reflect.get(delta, key);
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

/** Usage as DeepSeek reports it: OpenAI's fields plus its prefix-cache counters. */
export type OpenAIWireUsage = CompletionUsage & { prompt_cache_hit_tokens?: number };

export function mapOpenAIUsage(usage: OpenAIWireUsage): Usage {
  const reasoningTokens = usage.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    cacheReadTokens: usage.prompt_cache_hit_tokens ?? usage.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
    ...(typeof reasoningTokens === 'number' ? { reasoningTokens } : {}),
  };
}

/** Servers that answer tool calls with finish_reason "stop" (Ollama) still made tool calls. */
function stopReasonOf(finishReason: string, toolCallCount: number): StopReason {
  if (finishReason === 'length') return 'length';
  return toolCallCount > 0 ? 'tool_calls' : 'stop';
}
