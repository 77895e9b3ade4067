/**
 * The Anthropic Messages provider, on the official `@anthropic-ai/sdk` with its retries off
 * (retries belong to retry.ts). Streams text, thinking and tool_use blocks.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Stream } from '@anthropic-ai/sdk/core/streaming';
import type { MessageDeltaUsage, RawMessageStreamEvent, Usage as WireUsage } from '@anthropic-ai/sdk/resources/messages';
import { buildMessagesRequest } from './anthropic-convert.js';
import { abortedError, idleTimeoutError, mapSdkError, streamCutError, type SdkErrorClasses } from './errors.js';
import { AttemptSignal, MessageAssembler, resolveIdleTimeoutMs } from './stream-support.js';
import type { ModelRequest, Provider, ProviderError, StopReason, StreamEvent, Usage } from './types.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

const LABEL = 'Anthropic API';

export interface AnthropicProviderOptions {
  apiKey: string;
  baseUrl?: string;
  idleTimeoutMs?: number;
  fetch?: typeof fetch;
}

interface LoadedSdk {
  client: Anthropic;
  errors: SdkErrorClasses;
}

/** Token counts as the stream reports them: message_start carries the prompt side, message_delta
 * the (cumulative) output and, on newer API versions, updated prompt counts. */
interface UsageTally {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  const baseUrl = options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL;
  const idleTimeoutMs = resolveIdleTimeoutMs(options.idleTimeoutMs);
  let sdk: Promise<LoadedSdk> | undefined;

  // The SDK is imported on the first request, not at startup: CLI cold start is measured.
  const loadSdk = (): Promise<LoadedSdk> =>
    (sdk ??= import('@anthropic-ai/sdk').then((module) => ({
      client: new module.default({
        apiKey: options.apiKey,
        baseURL: baseUrl,
        maxRetries: 0,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
      errors: module,
    })));

  async function* stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const attempt = new AttemptSignal(signal, idleTimeoutMs);
    const assembler = new MessageAssembler(request.model);
    const errorContext = { label: LABEL, baseUrl, streaming: false };
    let finished = false;
    let errors: SdkErrorClasses | undefined;
    try {
      if (attempt.userAborted) {
        yield assembler.failure(abortedError());
        return;
      }
      const loaded = await loadSdk();
      errors = loaded.errors;
      attempt.touch();
      // Posted directly rather than through `messages.create`, which console.warn()s about
      // deprecated model names on every call: that would write into the terminal UI.
      const events = await loaded.client.post<Stream<RawMessageStreamEvent>>('/v1/messages', {
        body: buildMessagesRequest(request),
        stream: true,
        signal: attempt.signal,
      });
      errorContext.streaming = true;
      const callIndexByBlock = new Map<number, number>();
      const tally: UsageTally = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
      let stopReason: string | null = null;
      let stopped = false;

      for await (const event of events) {
        attempt.touch();
        switch (event.type) {
          case 'message_start':
            addUsage(tally, event.message.usage);
            break;
          case 'content_block_start': {
            const block = event.content_block;
            if (block.type === 'tool_use') {
              const started = assembler.startToolCall(block.id, block.name);
              callIndexByBlock.set(event.index, started.index);
              yield started.event;
            } else if (block.type === 'text' && block.text) {
              yield assembler.textDelta(block.text);
            } else if (block.type === 'thinking' && block.thinking) {
              yield assembler.reasoningDelta(block.thinking);
            }
            break;
          }
          case 'content_block_delta': {
            const delta = event.delta;
            if (delta.type === 'text_delta') yield assembler.textDelta(delta.text);
            else if (delta.type === 'thinking_delta') yield assembler.reasoningDelta(delta.thinking);
            else if (delta.type === 'signature_delta') assembler.signatureDelta(delta.signature);
            else if (delta.type === 'input_json_delta') {
              const index = callIndexByBlock.get(event.index);
              const argumentsDelta = index === undefined ? undefined : assembler.toolCallDelta(index, delta.partial_json);
              if (argumentsDelta) yield argumentsDelta;
            }
            break;
          }
          case 'content_block_stop': {
            const index = callIndexByBlock.get(event.index);
            const ended = index === undefined ? undefined : assembler.endToolCall(index);
            if (ended) yield ended;
            break;
          }
          case 'message_delta':
            stopReason = event.delta.stop_reason ?? stopReason;
            addUsage(tally, event.usage);
            break;
          case 'message_stop':
            stopped = true;
            break;
        }
      }

      // The SDK ends the iteration quietly when our signal aborts it: find out why it ended.
      if (attempt.userAborted) {
        yield assembler.failure(abortedError());
      } else if (attempt.idleTimedOut) {
        yield assembler.failure(idleTimeoutError(LABEL, idleTimeoutMs));
      } else if (!stopped) {
        yield assembler.failure(streamCutError(LABEL, 'no message_stop received'));
      } else {
        yield* assembler.endAllToolCalls();
        const usage = toUsage(tally);
        yield { type: 'usage', usage };
        yield { type: 'done', message: assembler.message(stopReasonOf(stopReason, assembler.toolCallCount), usage) };
      }
      finished = true;
    } catch (error) {
      finished = true;
      if (attempt.userAborted) yield assembler.failure(abortedError());
      else if (attempt.idleTimedOut) yield assembler.failure(idleTimeoutError(LABEL, idleTimeoutMs));
      else if (errors) yield assembler.failure(mapSdkError(error, errors, errorContext));
      else yield assembler.failure(setupError(error));
    } finally {
      attempt.dispose(!finished);
    }
  }

  return { name: 'anthropic', stream };
}

/** Later counts replace earlier ones (message_delta counts are cumulative); absent ones keep theirs. */
function addUsage(tally: UsageTally, usage: WireUsage | MessageDeltaUsage): void {
  tally.input = usage.input_tokens ?? tally.input;
  tally.cacheRead = usage.cache_read_input_tokens ?? tally.cacheRead;
  tally.cacheWrite = usage.cache_creation_input_tokens ?? tally.cacheWrite;
  tally.output = usage.output_tokens ?? tally.output;
}

/** Anthropic's input_tokens excludes cached tokens; ours counts every prompt token. */
function toUsage(tally: UsageTally): Usage {
  return {
    inputTokens: tally.input + tally.cacheRead + tally.cacheWrite,
    outputTokens: tally.output,
    cacheReadTokens: tally.cacheRead,
    cacheWriteTokens: tally.cacheWrite,
  };
}

function stopReasonOf(stopReason: string | null, toolCallCount: number): StopReason {
  if (stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded') return 'length';
  return toolCallCount > 0 ? 'tool_calls' : 'stop';
}

function setupError(error: unknown): ProviderError {
  return {
    kind: 'malformed',
    message: `Could not set up the Anthropic client: ${error instanceof Error ? error.message : String(error)}`,
    retryable: false,
  };
}
