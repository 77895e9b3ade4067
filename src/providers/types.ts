/**
 * The provider-neutral vocabulary every layer above speaks: messages, tool schemas, usage and the
 * streaming event protocol. Providers translate to and from their wire formats; nothing above this
 * folder knows a wire format exists.
 */

/** A tool call as the model produced it. `arguments` is the raw JSON text, kept byte-for-byte so
 * that history sent back to the provider is identical to what it generated (prefix caching). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface UserMessage {
  role: 'user';
  content: string;
  /** Images the user attached (`-i`, a paste, `@shot.png`), sent with the text in the provider's
   * own format. In the session file each is kept by its content hash (session/images.ts). */
  images?: ToolImage[];
}

/** Why a response ended. 'refusal': the model or the provider's safety system declined to answer
 * (Anthropic `stop_reason: "refusal"`, an OpenAI `refusal` field, `finish_reason: "content_filter"`);
 * the message's `errorMessage` says which. */
export type StopReason = 'stop' | 'tool_calls' | 'length' | 'refusal' | 'error' | 'aborted';

/** The wire field an OpenAI-compatible server streamed reasoning under (DeepSeek, Moonshot/Kimi,
 * vLLM and SGLang: `reasoning_content`; Ollama, OpenRouter: `reasoning`). */
export type ReasoningField = 'reasoning_content' | 'reasoning';

export interface AssistantMessage {
  role: 'assistant';
  content: string;
  /** Reasoning text (DeepSeek `reasoning_content`, Anthropic thinking). Optional. */
  reasoning?: string;
  /** Anthropic's signature of the thinking block. A thinking block is sent back to Anthropic only
   * with its signature (required when thinking is combined with tools); other providers ignore it. */
  reasoningSignature?: string;
  /** Set when the reasoning came in a field of an OpenAI-style stream: the reasoning goes back
   * under that field with this message's tool calls (Moonshot's Kimi and other thinking servers
   * reject a tool-call turn without it). Absent for every other message, whose bytes stay as they were. */
  reasoningField?: ReasoningField;
  toolCalls: ToolCall[];
  stopReason: StopReason;
  /** Set by the provider when the response completed with usage information. */
  usage?: Usage;
  /** Dollar cost of this response, fixed when it is recorded (model catalog at that moment). */
  costUsd?: number;
  model?: string;
  /** Human-readable error when stopReason is 'error', 'aborted' or 'refusal'. */
  errorMessage?: string;
}

/** An image in a message: one a tool returned (an MCP tool's image content, `read_file` of an
 * image) or one the user attached. `data` is base64; only `mimeType` and `data` go on the wire, the
 * rest describes it for people (`[Image #1: name, 1280x720, 210 KB]`). A model that takes no
 * images gets only the tool's text, which names the image. */
export interface ToolImage {
  mimeType: string;
  data: string;
  /** The file name it came from ("shot.png"; "clipboard.png" for a paste). */
  name?: string;
  width?: number;
  height?: number;
}

export interface ToolResultMessage {
  role: 'tool';
  toolCallId: string;
  toolName: string;
  content: string;
  isError: boolean;
  images?: ToolImage[];
  /** How the call was shown while it ran, kept in the session file so a resumed session (the
   * terminal UI's rows, ACP `session/load`) shows it the same. Never sent to a provider. */
  view?: ToolCallView;
}

/** A call as front ends showed it live: its action's summary ("create a.txt"), the files it
 * touched (absolute; none for commands), how long it took, and its display (the agent's
 * ToolDisplay, opaque here: a diff, a command's output). */
export interface ToolCallView {
  title?: string;
  paths?: string[];
  /** The write created the file (its diff has no old side). */
  created?: boolean;
  durationMs?: number;
  display?: unknown;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** Token usage of one response, normalised across providers.
 * `inputTokens` counts every prompt token sent, cache hits included (DeepSeek `prompt_tokens`;
 * Anthropic input + cache read + cache creation). `cacheReadTokens` is the part served from cache. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  /** Tokens written to the cache at a premium (Anthropic cache creation). 0 elsewhere. */
  cacheWriteTokens: number;
  /** Reasoning tokens, when the provider reports them separately (already inside outputTokens). */
  reasoningTokens?: number;
}

export const ZERO_USAGE: Readonly<Usage> = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    reasoningTokens: (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0),
  };
}

/** A tool as the model sees it. `parameters` is a JSON Schema object. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  model: string;
  /** The system prompt. Must be byte-identical across the requests of one session. */
  system: string;
  messages: readonly Message[];
  /** Tool schemas. Must be byte-identical (same objects, same order) across one session. */
  tools: readonly ToolSchema[];
  maxTokens?: number;
  /** Ask for reasoning where the model supports a switch (DeepSeek thinking). */
  reasoning?: boolean;
}

export type ProviderErrorKind =
  | 'auth' // 401/403: retrying will not help
  | 'rate_limit' // 429
  | 'server' // 5xx
  | 'network' // connection refused/reset, DNS, socket hang up
  | 'stream_cut' // the stream ended before the turn completed
  | 'timeout' // no data within the idle timeout
  | 'bad_request' // 400/404/422: the request itself is wrong
  | 'context_overflow' // the prompt exceeds the model's window
  | 'aborted' // cancelled through the AbortSignal
  | 'malformed'; // the response could not be understood

export interface ProviderError {
  kind: ProviderErrorKind;
  message: string;
  status?: number;
  /** Whether another attempt could succeed. */
  retryable: boolean;
  /** Server-requested delay (retry-after), in milliseconds. */
  retryAfterMs?: number;
  /** What happened, without the server's explanation, e.g. "DeepSeek API returned HTTP 429
   * (rate limited)". When set, `message` is built from it: `summary`, then any circumstances the
   * retry wrapper adds ("after 4 attempts"), then ": " + `detail` when there is one. */
  summary?: string;
  /** The server's (or the network layer's) own explanation, when there is one. */
  detail?: string;
  /** How many attempts were made before this error became final (set by the retry wrapper). */
  attempts?: number;
}

/**
 * The streaming protocol. Contract for every provider:
 * - `stream()` never throws and never returns a rejected iterator: failures arrive as one final
 *   `error` event carrying the partial message (stopReason 'error' or 'aborted').
 * - A successful stream ends with exactly one `done` event; nothing follows `done` or `error`.
 * - `toolcall_end` carries the complete call; arguments may still be invalid JSON (the loop
 *   answers the model with a corrective error, it does not fail the stream).
 * - `retry` events report that an attempt failed and another will follow after `delayMs`;
 *   deltas already emitted by the failed attempt are void (consumers reset their partial view).
 */
export type StreamEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'reasoning_delta'; text: string }
  | { type: 'toolcall_start'; index: number; id: string; name: string }
  | { type: 'toolcall_delta'; index: number; argumentsDelta: string }
  | { type: 'toolcall_end'; index: number; toolCall: ToolCall }
  | { type: 'usage'; usage: Usage }
  | { type: 'retry'; attempt: number; maxAttempts: number; delayMs: number; error: ProviderError }
  | { type: 'done'; message: AssistantMessage }
  | { type: 'error'; error: ProviderError; message: AssistantMessage };

export interface Provider {
  /** 'deepseek' | 'openai' | 'openai-compatible' | 'anthropic' */
  readonly name: string;
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent>;
}

/** The injectable form of a provider, used by the loop and by unit tests. */
export type StreamFn = (request: ModelRequest, signal?: AbortSignal) => AsyncIterable<StreamEvent>;

/**
 * Paces a provider's requests from outside the provider (a rate limit shared by a fleet's workers,
 * kept in Redis). The provider asks it before every attempt of every request, retries included,
 * and tells it how the attempt ended, so a 429 can slow everyone sharing the limit down.
 */
export interface RequestGate {
  /** Resolves when one attempt may go out; rejects only when `signal` aborts first. The function
   * it resolves to is called exactly once, when the attempt ended (with its error when it failed). */
  acquire(signal?: AbortSignal): Promise<(failure?: ProviderError) => void>;
}

/** The gate for one provider endpoint (its name and base URL), built by whoever composes the session. */
export type RequestGateFor = (endpoint: { provider: string; baseUrl: string | undefined }) => RequestGate | undefined;
