import type {
  AssistantMessage,
  Message,
  ProviderError,
  StreamFn,
  ToolResultMessage,
  ToolSchema,
  Usage,
  UserMessage,
} from '../providers/types.js';
import { executeToolCalls } from './tool-dispatch.js';
import { unwrapProxyCall } from './tool-proxy.js';
import { RepeatedCallGuard } from './repeat-guard.js';
import type { AfterToolCall, BeforeToolCall, CompactIfNeeded, EmitFn, LoopStopReason, Tool } from './types.js';

export interface LoopOptions {
  stream: StreamFn;
  model: string;
  /** Byte-identical for the whole session (prefix caching): the caller builds it once. */
  system: string;
  /** Every tool the model may call by name: the declared ones and those it loads on demand. */
  tools: readonly Tool[];
  /** The declared tools' schemas, derived once per session (see tool-schema.ts, on-demand.ts) and
   * passed by reference; may be a subset of `tools`. */
  toolSchemas: readonly ToolSchema[];
  /** Tools known by name only when called (see DispatchOptions.resolveTool). */
  resolveTool?: (name: string) => Tool | undefined;
  /** The session's history. The loop only ever appends to it; it never rewrites an entry. */
  history: Message[];
  /** The new user message for this run, appended (and emitted) first. Absent to continue. */
  input?: UserMessage;
  maxTurns: number;
  signal: AbortSignal;
  emit: EmitFn;
  cwd: string;
  projectRoot: string;
  /** When set, asked per tool call for the working directory and root (enter_worktree moves them). */
  workspace?: () => { cwd: string; projectRoot: string };
  maxTokens?: number;
  beforeToolCall?: BeforeToolCall;
  afterToolCall?: AfterToolCall;
  /** How many identical consecutive tool calls stop the run (default 3). */
  repeatLimit?: number;
  /** Context compaction between turns (see CompactIfNeeded). */
  compactIfNeeded?: CompactIfNeeded;
  /**
   * Asked before every request after the first (after compaction): a user message to append
   * first, or undefined. How a caller steers a running loop without rewriting history (a
   * subagent near its token budget is told to wrap up). May be async (a limit shared with other
   * processes is read from where it is kept); it may also stop the run through `signal`.
   */
  beforeRequest?: (context: { turn: number; history: readonly Message[] }) => UserMessage | undefined | Promise<UserMessage | undefined>;
}

export interface LoopResult {
  reason: LoopStopReason;
  turns: number;
  finalText: string;
  errorMessage?: string;
}

/**
 * The agent loop: ask the model, run the tools it calls, feed results back, until it answers
 * without tool calls. A plain async function: all output goes through `emit`; it knows nothing of
 * files, sessions or screens. It never throws for model or tool failures: those end the run with
 * a reason ('error', 'aborted', 'max_turns', 'repeated_tool_call', 'refusal') in the final `loop_end` event.
 *
 * History invariants (what providers and prefix caches rely on):
 * - append-only: earlier messages are never modified or removed;
 * - every assistant tool call is answered by exactly one tool result before the next request,
 *   even when the run is cancelled or stopped mid-batch (synthetic results say why);
 * - a failed model response is dropped whole, so no orphaned call ids remain;
 * - a response the user cancels keeps the text streamed so far, as an assistant message ending in
 *   INTERRUPTED_MARK (the model then knows what it had said and that it was stopped, and a resumed
 *   session shows it); its partial tool calls are dropped.
 */
/** Ends the partial text of a response the user cancelled. */
export const INTERRUPTED_MARK = '[interrupted by the user]';

export async function runLoop(options: LoopOptions): Promise<LoopResult> {
  const { emit, history, signal } = options;
  const guard = new RepeatedCallGuard(options.repeatLimit ?? 3);
  let turns = 0;
  let finalText = '';
  let lastUsage: Usage | undefined;

  const end = (reason: LoopStopReason, errorMessage?: string): LoopResult => {
    const result: LoopResult = { reason, turns, finalText, ...(errorMessage ? { errorMessage } : {}) };
    emit({ type: 'loop_end', ...result });
    return result;
  };
  const append = (message: Message): void => {
    history.push(message);
    emit({ type: 'message', message });
  };

  if (options.input) append(options.input);

  for (;;) {
    if (signal.aborted) return end('aborted', 'cancelled by the user');
    if (turns >= options.maxTurns) {
      return end('max_turns', `stopped after ${turns} turns (the --max-turns limit); continue the session to go on`);
    }
    turns += 1;
    const turn = turns;
    if (options.compactIfNeeded && turn > 1) {
      const compaction = await options.compactIfNeeded({ history, lastUsage, signal });
      if (compaction) {
        history.splice(0, history.length, ...compaction.messages);
        lastUsage = undefined;
        const { messages: _messages, ...details } = compaction;
        emit({ type: 'compaction', turn, reason: 'auto', ...details });
      }
      if (signal.aborted) return end('aborted', 'cancelled by the user');
    }
    if (options.beforeRequest && turn > 1) {
      const steering = await options.beforeRequest({ turn, history });
      if (steering) append(steering);
      if (signal.aborted) return end('aborted', 'cancelled by the user');
    }
    emit({ type: 'turn_start', turn });

    const response = await streamTurn(options, turn);
    if (!response.ok) {
      if (response.error.kind === 'aborted') {
        if (response.partialText.trim()) {
          append({ role: 'assistant', content: `${response.partialText}\n\n${INTERRUPTED_MARK}`, toolCalls: [], stopReason: 'aborted', model: options.model });
        }
        return end('aborted', 'cancelled by the user');
      }
      emit({ type: 'error', turn, error: response.error });
      return end('error', response.error.message);
    }

    const message = response.message;
    if (message.stopReason === 'refusal') {
      // A refusal is a whole response, billed, but not an answer: the run ends with its own
      // reason and message. It is kept out of history, like a failed response (Anthropic asks for
      // the refused turn to be removed before the conversation goes on; its half-made tool calls
      // could never be answered): the user's next message follows theirs.
      if (message.usage) {
        emit({ type: 'usage', turn, usage: message.usage, costUsd: message.costUsd ?? 0, model: message.model ?? options.model });
      }
      emit({ type: 'turn_end', turn, message });
      return end('refusal', message.errorMessage ?? 'the model refused to answer');
    }
    append(message);
    lastUsage = message.usage ?? lastUsage;
    if (message.usage) {
      emit({ type: 'usage', turn, usage: message.usage, costUsd: message.costUsd ?? 0, model: message.model ?? options.model });
    }
    emit({ type: 'turn_end', turn, message });
    if (message.content.trim()) finalText = message.content;

    if (message.toolCalls.length === 0) {
      if (message.stopReason === 'length') {
        emit({ type: 'error', turn, error: { kind: 'truncated', message: 'the response hit the output token limit and may be cut short' } });
      }
      return end('completed');
    }

    const repeated = guard.observe(message.toolCalls);
    const dispatched = repeated ? undefined : await executeToolCalls(message.toolCalls, { ...options, turn });
    const results: ToolResultMessage[] =
      dispatched?.results ??
      message.toolCalls.map((call) => ({
        role: 'tool',
        toolCallId: call.id,
        toolName: unwrapProxyCall(call).name,
        content: `Not run: ${repeated}`,
        isError: true,
      }));
    for (const result of results) append(result);

    if (repeated) return end('repeated_tool_call', repeated);
    if (signal.aborted) return end('aborted', 'cancelled by the user');
    // The user declined a call and wants the word: the model waits for their next message.
    if (dispatched?.stopped) return end('completed');
  }
}

/** A failed response carries the text streamed before the failure (of the last attempt). */
type TurnResponse = { ok: true; message: AssistantMessage } | { ok: false; error: ProviderError; partialText: string };

/** Streams one model response, forwarding deltas as events. */
async function streamTurn(options: LoopOptions, turn: number): Promise<TurnResponse> {
  const { emit } = options;
  const request = {
    model: options.model,
    system: options.system,
    messages: options.history,
    tools: options.toolSchemas,
    ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
  };
  let partialText = '';
  const failed = (error: ProviderError): TurnResponse => ({ ok: false, error, partialText });
  try {
    for await (const event of options.stream(request, options.signal)) {
      switch (event.type) {
        case 'text_delta':
          partialText += event.text;
          emit({ type: 'text_delta', turn, text: event.text });
          break;
        case 'reasoning_delta':
          emit({ type: 'reasoning_delta', turn, text: event.text });
          break;
        case 'toolcall_start':
          emit({ type: 'toolcall_delta', turn, index: event.index, id: event.id, name: event.name, argumentsDelta: '' });
          break;
        case 'toolcall_delta':
          emit({ type: 'toolcall_delta', turn, index: event.index, argumentsDelta: event.argumentsDelta });
          break;
        case 'retry':
          partialText = ''; // the failed attempt's text is void (the next attempt starts over)
          emit({ type: 'retry', turn, attempt: event.attempt, maxAttempts: event.maxAttempts, delayMs: event.delayMs, error: event.error });
          break;
        case 'done':
          return { ok: true, message: event.message };
        case 'error':
          return failed(event.error);
        default:
          break;
      }
    }
    return failed({ kind: 'stream_cut', message: 'the model stream ended without a final event', retryable: false });
  } catch (error) {
    // Providers promise not to throw; this guards the loop against one that does.
    if (options.signal.aborted) return failed({ kind: 'aborted', message: 'cancelled', retryable: false });
    const text = error instanceof Error ? error.message : String(error);
    return failed({ kind: 'malformed', message: `provider failure: ${text}`, retryable: false });
  }
}
