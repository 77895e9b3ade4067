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
