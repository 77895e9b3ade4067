/**
 * OpenAI Chat Completions wire, as DeepSeek speaks it: SSE `data: {chunk}` frames ending with
 * `data: [DONE]`, reasoning in `delta.reasoning_content`, usage with both DeepSeek's
 * `prompt_cache_hit_tokens`/`prompt_cache_miss_tokens` and OpenAI's `prompt_tokens_details`.
 */
import { argumentsText, splitText } from './canonical.js';
import type { RenderContext, ResolvedUsage, ScriptedReply } from './types.js';

/** Fixed base for `created`: responses must not depend on the clock. */
const CREATED_BASE = 1_700_000_000;

export function finishReasonOf(reply: ScriptedReply): NonNullable<ScriptedReply['finishReason']> {
  return reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
}

/** OpenAI has no 'refusal' finish reason: a refusal ends with 'stop' and carries `refusal`. */
function openaiFinishReason(reply: ScriptedReply): string {
  const reason = finishReasonOf(reply);
  return reason === 'refusal' ? 'stop' : reason;
}

export function openaiToolCallId(ctx: RenderContext, index: number, scripted: string | undefined): string {
  return scripted ?? `call_${ctx.sequence}_${index}`;
}

export function openaiUsage(usage: ResolvedUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
    prompt_cache_hit_tokens: usage.cacheRead,
    prompt_cache_miss_tokens: usage.input - usage.cacheRead,
  };
}

export function openaiStreamFrames(reply: ScriptedReply, ctx: RenderContext): string[] {
  const header = {
    id: `chatcmpl-scripted-${ctx.sequence}`,
    object: 'chat.completion.chunk',
    created: CREATED_BASE + ctx.sequence,
    model: ctx.model,
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    frame({ ...header, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });

  const frames = [chunk({ role: 'assistant', content: '' })];
  const reasoningField = reply.reasoningField ?? 'reasoning_content';
  for (const piece of splitText(reply.reasoning ?? '')) frames.push(chunk({ [reasoningField]: piece }));
  for (const piece of splitText(reply.text ?? '')) frames.push(chunk({ content: piece }));
  for (const piece of splitText(reply.refusal ?? '')) frames.push(chunk({ refusal: piece }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    const id = openaiToolCallId(ctx, index, call.id);
    frames.push(
      chunk({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of splitText(argumentsText(call.arguments))) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  frames.push(chunk({}, openaiFinishReason(reply)));
  if (ctx.includeUsage) frames.push(frame({ ...header, choices: [], usage: openaiUsage(ctx.usage) }));
  frames.push('data: [DONE]\n\n');
  return frames;
}

export function openaiJsonBody(reply: ScriptedReply, ctx: RenderContext): Record<string, unknown> {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: openaiToolCallId(ctx, index, call.id),
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call.arguments) },
  }));
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: reply.text ?? (toolCalls.length > 0 ? null : ''),
  };
  if (reply.reasoning !== undefined) message[reply.reasoningField ?? 'reasoning_content'] = reply.reasoning;
  if (reply.refusal !== undefined) message['refusal'] = reply.refusal;
  if (toolCalls.length > 0) message['tool_calls'] = toolCalls;
  return {
    id: `chatcmpl-scripted-${ctx.sequence}`,
    object: 'chat.completion',
    created: CREATED_BASE + ctx.sequence,
    model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: openaiFinishReason(reply) }],
    usage: openaiUsage(ctx.usage),
  };
}

export function openaiErrorBody(status: number, message: string): Record<string, unknown> {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: null } };
}

function frame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}
