/**
 * Anthropic Messages wire: `event: NAME` + `data: {json}` SSE frames (message_start, ping,
 * content_block_start/delta/stop, message_delta, message_stop) and the non-streaming Message body.
 */
import { argumentsText, isRecord, splitText } from './canonical.js';
import { finishReasonOf } from './openai-wire.js';
import type { RenderContext, ResolvedUsage, ScriptedReply } from './types.js';

const STOP_REASONS = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens', refusal: 'refusal', content_filter: 'refusal' } as const;

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function anthropicToolUseId(ctx: RenderContext, index: number, scripted: string | undefined): string {
  return scripted ?? `toolu_scripted_${ctx.sequence}_${index}`;
}

/** Start-of-message usage: `input_tokens` is only the part neither read from nor written to cache. */
function startUsage(usage: ResolvedUsage, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: Math.max(0, usage.input - usage.cacheRead - usage.cacheWrite),
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
    output_tokens: outputTokens,
  };
}

function signatureOf(ctx: RenderContext): string {
  return `sig_scripted_${ctx.sequence}`;
}

export function anthropicStreamFrames(reply: ScriptedReply, ctx: RenderContext): string[] {
  const frames: string[] = [];
  const emit = (data: Record<string, unknown>): void => {
    frames.push(`event: ${String(data['type'])}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  emit({ type: 'message_start', message: { ...messageHeader(ctx), content: [], stop_reason: null, stop_sequence: null, usage: startUsage(ctx.usage, 1) } });
  emit({ type: 'ping' });
  let index = 0;
  if (reply.reasoning !== undefined) {
    emit({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const piece of splitText(reply.reasoning)) {
      emit({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
    }
    emit({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: signatureOf(ctx) } });
    emit({ type: 'content_block_stop', index });
    index++;
  }
  if (reply.text !== undefined) {
    emit({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const piece of splitText(reply.text)) {
      emit({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    }
    emit({ type: 'content_block_stop', index });
    index++;
  }
  (reply.toolCalls ?? []).forEach((call, callIndex) => {
    const id = anthropicToolUseId(ctx, callIndex, call.id);
    emit({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: call.name, input: {} } });
    emit({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const piece of splitText(argumentsText(call.arguments))) {
      emit({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    emit({ type: 'content_block_stop', index });
    index++;
  });
  emit({
    type: 'message_delta',
    delta: { stop_reason: STOP_REASONS[finishReasonOf(reply)], stop_sequence: null },
    usage: { output_tokens: ctx.usage.output },
  });
  emit({ type: 'message_stop' });
  return frames;
}

export function anthropicJsonBody(reply: ScriptedReply, ctx: RenderContext): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (reply.reasoning !== undefined) {
    content.push({ type: 'thinking', thinking: reply.reasoning, signature: signatureOf(ctx) });
  }
  if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
  (reply.toolCalls ?? []).forEach((call, callIndex) => {
    content.push({
      type: 'tool_use',
      id: anthropicToolUseId(ctx, callIndex, call.id),
      name: call.name,
      input: typeof call.arguments === 'string' ? parseObjectOrEmpty(call.arguments) : call.arguments,
    });
  });
  return {
    ...messageHeader(ctx),
    content,
    stop_reason: STOP_REASONS[finishReasonOf(reply)],
    stop_sequence: null,
    usage: startUsage(ctx.usage, ctx.usage.output),
  };
}

export function anthropicErrorBody(status: number, message: string): Record<string, unknown> {
  return { type: 'error', error: { type: ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message } };
}

function messageHeader(ctx: RenderContext): Record<string, unknown> {
  return { id: `msg_scripted_${ctx.sequence}`, type: 'message', role: 'assistant', model: ctx.model };
}

/** A non-streaming tool_use carries a parsed object; malformed scripted text becomes `{}`. */
function parseObjectOrEmpty(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
