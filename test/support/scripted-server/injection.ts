/**
 * Failure injection that rewrites a reply's rendered SSE frames: error objects inside a 200 stream,
 * a chunk that is not JSON, and the ways real servers frame parallel OpenAI tool calls.
 */
import type { ScriptedReply, ScriptedStreamError, Wire } from './types.js';

export function injectFailures(wire: Wire, frames: string[], reply: ScriptedReply): string[] {
  let out = frames;
  if (wire === 'openai' && reply.toolCallFraming) out = reframeToolCalls(out, reply.toolCallFraming);
  if (wire === 'openai' && reply.omitFinishReason) out = out.map((frame) => frame.replace(/"finish_reason":"[a-z_]+"/, '"finish_reason":null'));
  if (reply.invalidJsonAfterChunks !== undefined) {
    // Anthropic events are named: a broken one still says what it was meant to be.
    const broken =
      wire === 'anthropic'
        ? 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"cut\n\n'
        : 'data: {"choices":[{"index":0,"delta":{"content":"cut\n\n';
    out = [...out.slice(0, reply.invalidJsonAfterChunks), broken, ...out.slice(reply.invalidJsonAfterChunks)];
  }
  if (reply.streamError) out = [...out.slice(0, reply.streamError.afterChunks), errorFrame(wire, reply.streamError)];
  return out;
}

function errorFrame(wire: Wire, error: ScriptedStreamError): string {
  const message = error.message ?? `scripted ${error.type}`;
  if (wire === 'anthropic') {
    return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: error.type, message } })}\n\n`;
  }
  return `data: ${JSON.stringify({ error: { message, type: error.type, code: error.code ?? null, param: null } })}\n\n`;
}

interface ParsedFrame {
  frame: string;
  /** The wire index of the tool call this frame carries a fragment of. */
  callIndex?: number;
}

function reframeToolCalls(frames: string[], framing: NonNullable<ScriptedReply['toolCallFraming']>): string[] {
  const parsed: ParsedFrame[] = frames.map((frame) => {
    const data = frame.startsWith('data: {') ? (JSON.parse(frame.slice(6)) as Chunk) : undefined;
    const fragment = data?.choices?.[0]?.delta?.tool_calls?.[0];
    if (!data || !fragment) return { frame };
    const callIndex = fragment.index;
    if (framing !== 'interleaved') delete fragment.index;
    if (framing === 'no-index-no-id') delete fragment.id;
    return { frame: `data: ${JSON.stringify(data)}\n\n`, callIndex };
  });
  if (framing !== 'interleaved') return parsed.map((entry) => entry.frame);
  // Round-robin over the calls' fragments, in place of the calls' block of frames.
  const first = parsed.findIndex((entry) => entry.callIndex !== undefined);
  if (first < 0) return frames;
  const groups = new Map<number, string[]>();
  for (const entry of parsed) {
    if (entry.callIndex !== undefined) groups.set(entry.callIndex, [...(groups.get(entry.callIndex) ?? []), entry.frame]);
  }
  const interleaved: string[] = [];
  const queues = [...groups.values()];
  while (queues.some((queue) => queue.length > 0)) {
    for (const queue of queues) {
      const next = queue.shift();
      if (next !== undefined) interleaved.push(next);
    }
  }
  const rest = parsed.filter((entry) => entry.callIndex === undefined).map((entry) => entry.frame);
  return [...rest.slice(0, first), ...interleaved, ...rest.slice(first)];
}

interface Chunk {
  choices?: { delta?: { tool_calls?: { index?: number; id?: string }[] } }[];
}
