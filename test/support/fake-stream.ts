import type { AssistantMessage, ModelRequest, StreamEvent, StreamFn, ToolCall } from '../../src/providers/types.js';

export interface FakeReply {
  text?: string;
  reasoning?: string;
  toolCalls?: Array<{ id?: string; name: string; arguments: string | Record<string, unknown> }>;
  /** End with this provider error instead of a message. */
  error?: { kind: 'server' | 'aborted' | 'auth'; message: string };
  /** Wait for this long (honouring the abort signal) before answering. */
  delayMs?: number;
}

/** A StreamFn that plays scripted replies in order and records every request it was given
 * (with a JSON snapshot, since the loop keeps appending to the same history array). */
export function fakeStream(replies: FakeReply[]): StreamFn & { requests: ModelRequest[]; snapshots: string[] } {
  const queue = [...replies];
  const requests: ModelRequest[] = [];
  const snapshots: string[] = [];
  let callCounter = 0;
  const fn = async function* (request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
    requests.push(request);
    snapshots.push(JSON.stringify({ system: request.system, tools: request.tools, messages: request.messages }).slice(0, -2));
    const reply = queue.shift() ?? { text: '(script exhausted)' };
    if (reply.delayMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reply.delayMs);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    const partial: AssistantMessage = { role: 'assistant', content: '', toolCalls: [], stopReason: 'stop' };
    if (signal?.aborted) {
      yield { type: 'error', error: { kind: 'aborted', message: 'aborted', retryable: false }, message: { ...partial, stopReason: 'aborted' } };
      return;
    }
    if (reply.error) {
      yield { type: 'error', error: { ...reply.error, retryable: false }, message: { ...partial, stopReason: 'error' } };
      return;
    }
    if (reply.reasoning) yield { type: 'reasoning_delta', text: reply.reasoning };
    if (reply.text) yield { type: 'text_delta', text: reply.text };
    const toolCalls: ToolCall[] = (reply.toolCalls ?? []).map((call, index) => ({
      id: call.id ?? `call_${++callCounter}_${index}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
    for (const [index, call] of toolCalls.entries()) {
      yield { type: 'toolcall_start', index, id: call.id, name: call.name };
      yield { type: 'toolcall_delta', index, argumentsDelta: call.arguments };
      yield { type: 'toolcall_end', index, toolCall: call };
    }
    const usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 50, cacheWriteTokens: 0 };
    yield { type: 'usage', usage };
    yield {
      type: 'done',
      message: {
        role: 'assistant',
        content: reply.text ?? '',
        ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
        toolCalls,
        stopReason: toolCalls.length ? 'tool_calls' : 'stop',
        usage,
        costUsd: 0.001,
        model: request.model,
      },
    };
  } as StreamFn & { requests: ModelRequest[]; snapshots: string[] };
  fn.requests = requests;
  fn.snapshots = snapshots;
  return fn;
}

/** What a routed stream is told about a request, to pick its reply. */
export interface RouteInfo {
  request: ModelRequest;
  /** True for a subagent's request (its system prompt carries the subagent clause). */
  child: boolean;
  /** The first user message: a child's task prompt, or the parent's prompt. */
  firstUser: string;
  /** The number of assistant messages already in the history (0 on the first request). */
  turn: number;
}

/**
 * A StreamFn whose reply is chosen per request by `route` — for concurrent agents, whose requests
 * interleave in no fixed order, so a FIFO script cannot serve them. Records every request.
 */
export function routedStream(route: (info: RouteInfo) => FakeReply): StreamFn & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  let sequence = 0;
  // Ids unique across requests (a fresh fakeStream per request would restart its counter).
  const inner = (reply: FakeReply) => {
    sequence += 1;
    const calls = reply.toolCalls?.map((call, index) => ({ ...call, id: call.id ?? `r${sequence}_${index}` }));
    return fakeStream([{ ...reply, ...(calls ? { toolCalls: calls } : {}) }]);
  };
  const fn = async function* (request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
    // A copy: the loop goes on appending to the history array it sent.
    requests.push({ ...request, messages: [...request.messages] });
    const first = request.messages.find((message) => message.role === 'user');
    const info: RouteInfo = {
      request,
      child: request.system.includes('\n# Subagent\n'),
      firstUser: first && first.role === 'user' ? first.content : '',
      turn: request.messages.filter((message) => message.role === 'assistant').length,
    };
    yield* inner(route(info))(request, signal);
  } as StreamFn & { requests: ModelRequest[] };
  fn.requests = requests;
  return fn;
}
