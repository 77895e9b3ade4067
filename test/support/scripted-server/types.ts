/**
 * The scripting vocabulary of the scripted model server: what a test says the "model" should answer,
 * and what the server recorded about each request it received.
 */

/** One tool call the scripted model makes. `arguments` as a string is sent byte-for-byte (it may be
 * malformed JSON on purpose); as an object it is serialised with JSON.stringify. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** Token counts as the scripted model reports them. `input` is the whole prompt, cache hits and
 * writes included (seek's normalised meaning), on both wires; omitted fields are computed. */
export interface ScriptedUsage {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export interface ScriptedHttpError {
  status: number;
  message?: string;
  retryAfterSeconds?: number;
}

export interface ScriptedStreamError {
  afterChunks: number;
  /** OpenAI `error.type` / Anthropic `error.type`, e.g. 'server_error', 'invalid_request_error'. */
  type: string;
  code?: string | number;
  message?: string;
}

export interface ScriptedReply {
  reasoning?: string;
  text?: string;
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /** Default: 'tool_calls' when there are tool calls, else 'stop'. 'refusal' is Anthropic's
   * `stop_reason: "refusal"` (the OpenAI wire says 'stop' and carries `refusal`); 'content_filter'
   * is OpenAI's `finish_reason` (the Anthropic wire says 'refusal'). */
  finishReason?: 'stop' | 'tool_calls' | 'length' | 'refusal' | 'content_filter';
  /** OpenAI wire: the model's refusal text, streamed in `delta.refusal` (content stays empty). */
  refusal?: string;
  /** OpenAI wire: the delta field reasoning streams in (default `reasoning_content`, DeepSeek's and
   * Moonshot's; Ollama and OpenRouter use `reasoning`). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Answer with this HTTP error: a JSON error body in the wire's format, retry-after if given. */
  httpError?: ScriptedHttpError;
  /** Send this many SSE data chunks, then destroy the socket (no final event, no [DONE]). */
  cutAfterChunks?: number;
  /** Send status and headers, then nothing ever (until the client aborts or the server closes). */
  hang?: boolean;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Wait this long between SSE chunks. */
  chunkDelayMs?: number;
  /** After this many SSE chunks, wait until `until` settles, then send the rest: a test holds an
   * answer mid-stream on state it controls (never on time). */
  pauseAfterChunks?: { chunks: number; until: Promise<unknown> };
  /** After this many SSE chunks, send an error object inside the 200 stream and end it: OpenAI's
   * `data: {"error": {...}}`, Anthropic's `event: error` (see injection.ts). */
  streamError?: ScriptedStreamError;
  /** After this many SSE chunks, send a `data:` line that is not valid JSON, then the rest. */
  invalidJsonAfterChunks?: number;
  /** OpenAI wire: how parallel tool-call fragments are framed. 'interleaved' alternates the calls'
   * fragments; 'no-index' drops `index`; 'no-index-no-id' drops both (ids stay on no fragment). */
  toolCallFraming?: 'interleaved' | 'no-index' | 'no-index-no-id';
  /** OpenAI wire: send `finish_reason: null` throughout (OpenRouter → kimi-k2), usage and [DONE] kept. */
  omitFinishReason?: boolean;
}

export type Responder = ScriptedReply | ((req: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>);

export type Wire = 'openai' | 'anthropic';

export interface RecordedRequest {
  wire: Wire;
  path: string;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The request body exactly as received. */
  raw: string;
  /** The parsed JSON body. Typed loosely on purpose: tests poke into arbitrary wire shapes. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  stream: boolean;
  receivedAt: number;
  respondedAt?: number;
}

/** Usage after defaults were computed, in seek's normalised meaning (input includes cache). */
export interface ResolvedUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Part of `output` spent on reasoning (reported by the OpenAI wire only). */
  reasoning: number;
}

/** Everything a wire renderer needs besides the reply itself. */
export interface RenderContext {
  model: string;
  /** 1-based sequence number of the request on this server; used for deterministic ids. */
  sequence: number;
  usage: ResolvedUsage;
  /** OpenAI only: whether `stream_options.include_usage` asked for the final usage chunk. */
  includeUsage: boolean;
}

/** A rendered answer: SSE frames for a streaming request, or one JSON body. */
export interface RenderedStream {
  frames: string[];
}
