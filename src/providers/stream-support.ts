/**
 * Pieces both providers share: the per-attempt abort signal with its idle watchdog, and the
 * assembler that turns wire deltas into StreamEvents and the final AssistantMessage.
 */
import { costOf, lookupModel } from './catalog.js';
import type { AssistantMessage, ProviderError, ReasoningField, StopReason, StreamEvent, ToolCall, Usage } from './types.js';
import { monotonicMs } from '../util/clock.js';

export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** The idle timeout: explicit option, else env `SEEK_STREAM_IDLE_TIMEOUT_MS`, else 120 s. */
export function resolveIdleTimeoutMs(option: number | undefined): number {
  if (option !== undefined) return option;
  const fromEnv = Number.parseInt(process.env['SEEK_STREAM_IDLE_TIMEOUT_MS'] ?? '', 10);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_IDLE_TIMEOUT_MS;
}

/**
 * The signal handed to the SDK for one attempt. It fires when the user's signal fires or when no
 * data arrived for `idleTimeoutMs`; afterwards the flags tell which. The idle watchdog starts at the
 * first `touch()` (call it when the request goes out, then on every chunk), so loading the SDK on
 * the first request does not eat into the timeout.
 */
export class AttemptSignal {
  /** The raw stream ended with OpenAI's end marker (`data: [DONE]`), even one the server did not
   * close with a blank line (which no SSE reader reports): it ended the response normally. Known
   * to the attempt that watches the wire. */
  get wireDone(): boolean {
    return false;
  }
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastActivity = 0;
  private idleFired = false;
  private readonly forwardUserAbort = (): void => this.controller.abort();

  constructor(
    private readonly userSignal: AbortSignal | undefined,
    private readonly idleTimeoutMs: number,
  ) {
    if (userSignal?.aborted) this.controller.abort();
    else userSignal?.addEventListener('abort', this.forwardUserAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get userAborted(): boolean {
    return this.userSignal?.aborted === true;
  }

  get idleTimedOut(): boolean {
    return this.idleFired && !this.userAborted;
  }

  /** Data arrived: push the idle deadline back. Called for every chunk, so it only records the
   * time; the one armed timer re-arms itself for the remainder when it fires early. */
  touch(): void {
    this.lastActivity = monotonicMs();
    if (this.timer === undefined && !this.controller.signal.aborted) this.arm(this.idleTimeoutMs);
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => {
      const idleFor = monotonicMs() - this.lastActivity;
      if (idleFor < this.idleTimeoutMs) {
        this.arm(this.idleTimeoutMs - idleFor);
        return;
      }
      this.idleFired = true;
      this.controller.abort();
    }, delayMs);
  }

  /** Stops the watchdog; `cancelRequest` also aborts the HTTP request (the consumer stopped early). */
  dispose(cancelRequest: boolean): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.userSignal?.removeEventListener('abort', this.forwardUserAbort);
    if (cancelRequest) this.controller.abort();
  }
}

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
  ended: boolean;
}

/** Accumulates one response. Tool calls are numbered 0, 1, … in the order they start. */
export class MessageAssembler {
  private text = '';
  private reasoning = '';
  private reasoningSignature = '';
  private reasoningField: ReasoningField | undefined;
  private refusalText = '';
  private readonly toolCalls: PartialToolCall[] = [];

  constructor(private readonly model: string) {}

  textDelta(text: string): StreamEvent {
    this.text += text;
    return { type: 'text_delta', text };
  }

  /** `field`: the OpenAI-style wire field the text came in, kept (the first one seen) so the
   * reasoning can go back under that name. */
  reasoningDelta(text: string, field?: ReasoningField): StreamEvent {
    this.reasoning += text;
    if (field !== undefined) this.reasoningField ??= field;
    return { type: 'reasoning_delta', text };
  }

  /** The model's own words of refusal (OpenAI's `refusal` field): not answer text. */
  refusalDelta(text: string): void {
    this.refusalText += text;
  }

  get refusal(): string {
    return this.refusalText;
  }

  signatureDelta(signature: string): void {
    this.reasoningSignature += signature;
  }

  get toolCallCount(): number {
    return this.toolCalls.length;
  }

  /** Starts a call. An id another call of this response already has gets a suffix (`<id>_2`,
   * `_3`…; letters, digits, `_` and `-` only, as Anthropic requires): every call keeps its own id,
   * and its result can answer it alone. */
  startToolCall(id: string, name: string): { index: number; event: StreamEvent } {
    const unique = this.uniqueId(id);
    const index = this.toolCalls.push({ id: unique, name, arguments: '', ended: false }) - 1;
    return { index, event: { type: 'toolcall_start', index, id: unique, name } };
  }

  private uniqueId(id: string): string {
    const taken = (candidate: string): boolean => this.toolCalls.some((call) => call.id === candidate);
    if (!taken(id)) return id;
    let n = 2;
    while (taken(`${id}_${n}`)) n += 1;
    return `${id}_${n}`;
  }

  toolCallDelta(index: number, argumentsDelta: string): StreamEvent | undefined {
    const call = this.toolCalls[index];
    if (!call || argumentsDelta === '') return undefined;
    call.arguments += argumentsDelta;
    return { type: 'toolcall_delta', index, argumentsDelta };
  }

  /** Ends one tool call; the raw argument text is passed on as is, valid JSON or not. */
  endToolCall(index: number): StreamEvent | undefined {
    const call = this.toolCalls[index];
    if (!call || call.ended) return undefined;
    call.ended = true;
    return { type: 'toolcall_end', index, toolCall: toToolCall(call) };
  }

  endAllToolCalls(): StreamEvent[] {
    return this.toolCalls.flatMap((_, index) => this.endToolCall(index) ?? []);
  }

  /** The message with a fixed key order (it is persisted and compared byte-for-byte). */
  message(stopReason: StopReason, usage?: Usage, errorMessage?: string): AssistantMessage {
    return {
      role: 'assistant',
      content: this.text,
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
      ...(this.reasoningSignature ? { reasoningSignature: this.reasoningSignature } : {}),
      ...(this.reasoning && this.reasoningField ? { reasoningField: this.reasoningField } : {}),
      toolCalls: this.toolCalls.map(toToolCall),
      stopReason,
      ...(usage ? { usage, costUsd: costOf(usage, lookupModel(this.model).pricing) } : {}),
      model: this.model,
      ...(errorMessage !== undefined ? { errorMessage } : {}),
    };
  }

  failure(error: ProviderError): StreamEvent {
    const stopReason = error.kind === 'aborted' ? 'aborted' : 'error';
    return { type: 'error', error, message: this.message(stopReason, undefined, error.message) };
  }
}

function toToolCall(call: PartialToolCall): ToolCall {
  return { id: call.id, name: call.name, arguments: call.arguments };
}
