/**
 * Reading Chat Completions stream chunks as real servers send them, not only as OpenAI documents
 * them: content as a string or as typed parts (Mistral Magistral), reasoning under two names, tool
 * calls with or without `index` and `id`, usage in its own chunk, and no `finish_reason` at all
 * (OpenRouter → kimi-k2).
 */
import type { WireEnd } from './attempt.js';
import type { MessageAssembler } from './stream-support.js';
import type { ReasoningField, StopReason, StreamEvent, Usage } from './types.js';

/** The parts of a chunk this reader looks at; everything is optional because servers differ. */
export interface WireChunk {
  choices?: readonly WireChoice[] | null;
  usage?: WireUsage | null;
}

interface WireChoice {
  index?: number;
  delta?: Record<string, unknown> | null;
  finish_reason?: string | null;
}

interface WireToolCallFragment {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

/** Usage as the OpenAI-style servers report it: OpenAI's fields, DeepSeek's prefix-cache counter. */
export interface WireUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_cache_hit_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/**
 * Maps usage to seek's meaning, where `outputTokens` is everything billed as output, reasoning
 * included. Servers disagree on whether `completion_tokens` contains the reasoning tokens: OpenAI,
 * DeepSeek and most others include them (total = prompt + completion), xAI excludes them
 * (total = prompt + completion + reasoning). The rule is read off each usage object rather than a
 * provider table, so it also holds behind gateways: when `total_tokens` equals prompt + completion
 * + reasoning and not prompt + completion, the reasoning tokens are added to the output.
 */
export function mapOpenAIUsage(usage: WireUsage): Usage {
  const input = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  const reasoningTokens = usage.completion_tokens_details?.reasoning_tokens;
  const total = usage.total_tokens;
  const reasoningOutsideCompletion =
    typeof reasoningTokens === 'number' &&
    reasoningTokens > 0 &&
    typeof total === 'number' &&
    total !== input + completion &&
    total === input + completion + reasoningTokens;
  return {
    inputTokens: input,
    outputTokens: reasoningOutsideCompletion ? completion + reasoningTokens : completion,
    cacheReadTokens: usage.prompt_cache_hit_tokens ?? usage.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
    ...(typeof reasoningTokens === 'number' ? { reasoningTokens } : {}),
  };
}

const REASONING_FIELDS: readonly ReasoningField[] = ['reasoning_content', 'reasoning'];

/** Text and reasoning carried by one delta, whatever shape its content has; `field` names the
 * delta field the reasoning came in (none for reasoning inside content parts). */
export function contentOf(delta: Record<string, unknown>): { text: string; reasoning: string; field?: ReasoningField } {
  let reasoning = '';
  let field: ReasoningField | undefined;
  // DeepSeek, Moonshot and vLLM stream reasoning as `reasoning_content`; Ollama and OpenRouter as `reasoning`.
  for (const key of REASONING_FIELDS) {
    const value = delta[key];
    if (typeof value === 'string' && value) {
      reasoning = value;
      field = key;
      break;
    }
  }
  const content = delta['content'];
  if (typeof content === 'string') return { text: content, reasoning, ...(field ? { field } : {}) };
  let text = '';
  // Mistral Magistral: [{type:'text', text}, {type:'thinking', thinking:[{type:'text', text}]}].
  for (const part of Array.isArray(content) ? (content as unknown[]) : []) {
    if (!isRecord(part)) continue;
    if (part['type'] === 'text' && typeof part['text'] === 'string') text += part['text'];
    else if (part['type'] === 'thinking') reasoning += textOfParts(part['thinking']);
  }
  return { text, reasoning, ...(field ? { field } : {}) };
}

function textOfParts(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

/**
 * Turns the chunks of one response into StreamEvents through the assembler, and decides at the end
 * whether the response was complete.
 */
export class OpenAIChunkReader {
  private readonly callByWireIndex = new Map<number, number>();
  private readonly callById = new Map<string, number>();
  private readonly callHasName: boolean[] = [];
  /** Per call: the wire index it started at (if any), and its arguments so far. */
  private readonly callWireIndex: Array<number | undefined> = [];
  private readonly callArguments: string[] = [];
  private lastCall: number | undefined;
  private finishReason: string | undefined;
  private usage: Usage | undefined;

  constructor(private readonly assembler: MessageAssembler) {}

  /** The events one chunk makes, in order. An array, not a generator: the provider's async
   * generator yields them one by one, and a sync generator under it would add a wrapper per event. */
  read(chunk: WireChunk): StreamEvent[] {
    const events: StreamEvent[] = [];
    if (chunk.usage) this.usage = mapOpenAIUsage(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? {};
      const { text, reasoning, field } = contentOf(delta);
      if (reasoning) events.push(this.assembler.reasoningDelta(reasoning, field));
      if (text) events.push(this.assembler.textDelta(text));
      // OpenAI's structured-output refusal: the model's explanation, in place of an answer.
      const refusal = delta['refusal'];
      if (typeof refusal === 'string' && refusal) this.assembler.refusalDelta(refusal);
      const calls = delta['tool_calls'];
      for (const fragment of Array.isArray(calls) ? (calls as unknown[]) : []) {
        if (isRecord(fragment)) this.toolCallFragment(fragment as WireToolCallFragment, events);
      }
      if (choice.finish_reason) {
        this.finishReason = choice.finish_reason;
        events.push(...this.assembler.endAllToolCalls());
      }
    }
    return events;
  }

  /**
   * A stream is complete when it said so: a `finish_reason`, the usage chunk (servers send it after
   * the last choice chunk), or `data: [DONE]` (`wireDone`: read as an event, or left unclosed at the
   * very end of the wire, where the attempt's watched fetch sees it). OpenRouter → kimi-k2 sends usage and [DONE] but no
   * finish_reason. Without a finish_reason the stop reason is inferred: tool_calls when calls were
   * made, else stop.
   */
  end(wireDone = false): WireEnd {
    if (this.finishReason === undefined && this.usage === undefined && !wireDone) {
      return { complete: false, detail: 'no finish_reason, usage or [DONE] received' };
    }
    const stopReason = stopReasonOf(this.finishReason, this.assembler.toolCallCount, this.assembler.refusal !== '');
    return {
      complete: true,
      stopReason,
      ...(this.usage ? { usage: this.usage } : {}),
      ...(stopReason === 'refusal' ? { refusedBy: this.finishReason === 'content_filter' ? 'finish_reason "content_filter"' : 'a "refusal" in the response' } : {}),
    };
  }

  /**
   * Which call a fragment continues, in this order: its `id` (a new id starts a new call, even at an
   * index already used), its `index`, else the latest call, unless the fragment names a function
   * while the latest call already has a name (parallel calls with neither id nor index). An id
   * already seen starts a new call too when the fragment is plainly another call: another `index`
   * than that call's, or (no index) a function name again after that call's complete arguments.
   * Two calls sharing an id stay two calls; the assembler gives the second a unique id.
   */
  private toolCallFragment(fragment: WireToolCallFragment, events: StreamEvent[]): void {
    const id = typeof fragment.id === 'string' && fragment.id ? fragment.id : undefined;
    const wireIndex = typeof fragment.index === 'number' ? fragment.index : undefined;
    const name = fragment.function?.name ?? '';
    let call: number | undefined;
    if (id !== undefined) {
      call = this.callById.get(id);
      if (call !== undefined && this.anotherCall(call, wireIndex, name)) call = undefined;
    } else if (wireIndex !== undefined) call = this.callByWireIndex.get(wireIndex);
    else if (this.lastCall !== undefined && !(name && this.callHasName[this.lastCall])) call = this.lastCall;

    if (call === undefined) {
      const started = this.assembler.startToolCall(id ?? `call_${wireIndex ?? this.assembler.toolCallCount}`, name);
      call = started.index;
      this.callHasName[call] = name !== '';
      this.callArguments[call] = '';
      if (id !== undefined) this.callById.set(id, call);
      events.push(started.event);
    }
    if (wireIndex !== undefined) {
      this.callByWireIndex.set(wireIndex, call);
      this.callWireIndex[call] ??= wireIndex;
    }
    this.lastCall = call;
    const argumentsDelta = this.assembler.toolCallDelta(call, fragment.function?.arguments ?? '');
    if (argumentsDelta) {
      this.callArguments[call] += fragment.function?.arguments ?? '';
      events.push(argumentsDelta);
    }
  }

  /** Whether a fragment carrying the id of `call` is in fact the start of another call. */
  private anotherCall(call: number, wireIndex: number | undefined, name: string): boolean {
    const known = this.callWireIndex[call];
    if (wireIndex !== undefined && known !== undefined) return wireIndex !== known;
    return name !== '' && this.callHasName[call] === true && isCompleteJson(this.callArguments[call] ?? '');
  }
}

function isCompleteJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Servers that answer tool calls with finish_reason "stop" (Ollama) still made tool calls. A
 * `refusal` field or the content filter's finish reason make the response a refusal, whatever else
 * it holds (Azure's filter can stop a response partway). */
function stopReasonOf(finishReason: string | undefined, toolCallCount: number, refused: boolean): StopReason {
  if (refused || finishReason === 'content_filter') return 'refusal';
  if (finishReason === 'length') return 'length';
  return toolCallCount > 0 ? 'tool_calls' : 'stop';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
