/**
 * The Anthropic Messages provider, on the official `@anthropic-ai/sdk` with its retries off
 * (retries belong to retry.ts). Streams text, thinking and tool_use blocks.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Stream } from '@anthropic-ai/sdk/core/streaming';
import type { MessageDeltaUsage, RawMessageStreamEvent, Usage as WireUsage } from '@anthropic-ai/sdk/resources/messages';
import { encodeMessagesRequest, messagesRequestPieces } from './anthropic-convert.js';
import { streamAttempt, type WireEnd } from './attempt.js';
import type { SdkErrorClasses } from './errors.js';
import { isStreamCancel, serverSentEvents } from './sse-events.js';
import { resolveIdleTimeoutMs } from './stream-support.js';
import { lazyAsync } from '../util/lazy.js';
import { activityOptions, attemptRoutedFetch } from './watched-fetch.js';
import type { ModelRequest, Provider, StopReason, StreamEvent, Usage } from './types.js';

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
  /** The SDK's error for an `error` event (its status line said 200), from the event's data. */
  streamError(data: string, headers: Headers): Error;
}

function parsedOrText(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
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
  // Each wire message is serialised once for all the requests of this provider (request-bytes.ts).
  const pieces = messagesRequestPieces();

  // The SDK is imported on the first request, not at startup: CLI cold start is measured. One
  // client serves every attempt; each request carries its attempt, whose idle watchdog its fetch
  // feeds (watched-fetch.ts). Requests go through the node:http transport (http-transport.ts)
  // unless a fetch is given. A failed load is not remembered: the next attempt tries again.
  const loadSdk = lazyAsync(async (): Promise<LoadedSdk> => {
    const [module, transport] = await Promise.all([import('@anthropic-ai/sdk'), options.fetch ? undefined : import('./http-transport.js')]);
    return {
      client: new module.default({
        apiKey: options.apiKey,
        baseURL: baseUrl,
        maxRetries: 0,
        fetch: attemptRoutedFetch(options.fetch ?? transport!.sharedHttpFetch()),
      }),
      errors: module,
      streamError: (data, headers) => {
        const body = parsedOrText(data);
        const type = (body as { error?: { type?: unknown } } | undefined)?.error?.type;
        return new module.APIError(undefined, body as object, undefined, headers, typeof type === 'string' ? (type as never) : undefined);
      },
    };
  });

  const stream = (request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> =>
    streamAttempt({
      request,
      signal,
      idleTimeoutMs,
      label: LABEL,
      baseUrl,
      loadSdk,
      run: async function* (sdk, attempt, assembler, streaming): AsyncGenerator<StreamEvent, WireEnd> {
        // Posted directly rather than through `messages.create`, which console.warn()s about
        // deprecated model names on every call: that would write into the terminal UI.
        // The raw response: the SDK has checked its status (errors are the SDK's), and the events
        // are read here (sse-events.ts), doing what the SDK's stream does with them.
        const response = await sdk.client
          .post<Stream<RawMessageStreamEvent>>('/v1/messages', {
            // As bytes, built incrementally (request-bytes.ts): the SDK passes a Buffer through untouched.
            body: encodeMessagesRequest(request, pieces),
            headers: { 'Content-Type': 'application/json' },
            stream: true,
            signal: attempt.signal,
            fetchOptions: activityOptions(attempt),
          })
          .asResponse();
        streaming();
        if (!response.body) return { complete: false, detail: 'the response had no body' };
        const callIndexByBlock = new Map<number, number>();
        const tally: UsageTally = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
        let stopReason: string | null = null;
        let stopped = false;

        for await (const event of messageEvents(response, sdk)) {
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
              // A refusal may explain itself (`stop_details.explanation`): the user reads it.
              if (event.delta.stop_reason === 'refusal') assembler.refusalDelta(refusalExplanation(event.delta));
              addUsage(tally, event.usage);
              break;
            case 'message_stop':
              stopped = true;
              break;
          }
        }
        if (!stopped) return { complete: false, detail: 'no message_stop received' };
        const ended = stopReasonOf(stopReason, assembler.toolCallCount);
        return { complete: true, stopReason: ended, usage: toUsage(tally), ...(ended === 'refusal' ? { refusedBy: 'stop_reason "refusal"' } : {}) };
      },
    });

  return { name: 'anthropic', stream };
}

/**
 * The stream's events as the SDK's stream yields them: `ping` and unnamed events skipped, an
 * `error` event thrown as the SDK's APIError, and an abort ending the events quietly (the attempt
 * says why it ended).
 */
async function* messageEvents(response: Response, sdk: LoadedSdk): AsyncGenerator<RawMessageStreamEvent> {
  try {
    for await (const batch of serverSentEvents(response.body as unknown as AsyncIterable<Uint8Array>)) {
      for (const event of batch) {
        if (event.event === undefined || event.event === 'ping' || (event.event !== 'error' && !event.data)) continue;
        if (event.event === 'error') throw sdk.streamError(event.data, response.headers);
        yield JSON.parse(event.data) as RawMessageStreamEvent;
      }
    }
  } catch (error) {
    if (!isStreamCancel(error)) throw error;
  }
}

function refusalExplanation(delta: object): string {
  const details: unknown = Reflect.get(delta, 'stop_details');
  const explanation: unknown = typeof details === 'object' && details !== null ? Reflect.get(details, 'explanation') : undefined;
  return typeof explanation === 'string' ? explanation : '';
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

/** `refusal`: Claude's safety classifiers stopped the answer (partial text may precede it). */
function stopReasonOf(stopReason: string | null, toolCallCount: number): StopReason {
  if (stopReason === 'refusal') return 'refusal';
  if (stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded') return 'length';
  return toolCallCount > 0 ? 'tool_calls' : 'stop';
}
