/** The chunk reader on hand-written chunks: end of stream without finish_reason, reasoning-token
 * accounting per usage shape, typed content parts, tool calls keyed by id when index is missing. */
import { describe, expect, it } from 'vitest';
import { mapOpenAIUsage, OpenAIChunkReader, type WireChunk } from '../../../src/providers/openai-chunks.js';
import { MessageAssembler } from '../../../src/providers/stream-support.js';

function readAll(chunks: WireChunk[]): { reader: OpenAIChunkReader; assembler: MessageAssembler } {
  const assembler = new MessageAssembler('test-model');
  const reader = new OpenAIChunkReader(assembler);
  for (const chunk of chunks) reader.read(chunk);
  return { reader, assembler };
}

const delta = (value: Record<string, unknown>, finish: string | null = null): WireChunk => ({
  choices: [{ index: 0, delta: value, finish_reason: finish }],
});

describe('OpenAIChunkReader', () => {
  it('accepts a stream with a tool call and usage but no finish_reason, inferring tool_calls', () => {
    const { reader } = readAll([
      delta({ tool_calls: [{ index: 0, id: '0', function: { name: 'llm_version', arguments: '{}' } }] }),
      { choices: [], usage: { prompt_tokens: 57, completion_tokens: 17, total_tokens: 74 } },
    ]);
    expect(reader.end()).toMatchObject({ complete: true, stopReason: 'tool_calls', usage: { inputTokens: 57, outputTokens: 17 } });
  });

  it('still calls a stream with neither finish_reason nor usage cut', () => {
    const { reader } = readAll([delta({ content: 'half an ans' })]);
    expect(reader.end()).toEqual({ complete: false, detail: 'no finish_reason, usage or [DONE] received' });
    expect(reader.end(true)).toMatchObject({ complete: true });
  });

  it('routes typed content parts: text to text, thinking to reasoning', () => {
    const { assembler } = readAll([
      delta({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'add them' }] }] }),
      delta({ content: [{ type: 'text', text: '2 + 2 = 4' }] }, 'stop'),
    ]);
    expect(assembler.message('stop')).toMatchObject({ content: '2 + 2 = 4', reasoning: 'add them' });
  });

  it('starts a new call for a new id at the same index, and continues one by its id', () => {
    const { assembler } = readAll([
      delta({ tool_calls: [{ index: 0, id: 'a', function: { name: 'one', arguments: '{"x":' } }] }),
      delta({ tool_calls: [{ index: 0, id: 'b', function: { name: 'two', arguments: '{}' } }] }),
      delta({ tool_calls: [{ id: 'a', function: { arguments: '1}' } }] }, 'tool_calls'),
    ]);
    expect(assembler.message('tool_calls').toolCalls).toEqual([
      { id: 'a', name: 'one', arguments: '{"x":1}' },
      { id: 'b', name: 'two', arguments: '{}' },
    ]);
  });
});

describe('two tool calls sharing one id in a stream', () => {
  it('stay two calls with unique ids when their indexes differ, never one call with both argument texts', () => {
    const { assembler } = readAll([
      delta({ tool_calls: [{ index: 0, id: 'dup', function: { name: 'read_file', arguments: '' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a"}' } }] }),
      delta({ tool_calls: [{ index: 1, id: 'dup', function: { name: 'read_file', arguments: '' } }] }),
      delta({ tool_calls: [{ index: 1, function: { arguments: '{"path":' } }] }),
      delta({ tool_calls: [{ index: 1, id: 'dup', function: { arguments: '"b"}' } }] }, 'tool_calls'),
    ]);
    expect(assembler.message('tool_calls').toolCalls).toEqual([
      { id: 'dup', name: 'read_file', arguments: '{"path":"a"}' },
      { id: 'dup_2', name: 'read_file', arguments: '{"path":"b"}' },
    ]);
  });

  it('stay two calls without indexes: a name again after complete arguments starts the second', () => {
    const { assembler } = readAll([
      delta({ tool_calls: [{ id: 'dup', function: { name: 'glob', arguments: '{"pattern":' } }] }),
      // A server that repeats id and name on every fragment: still the same call while its arguments are incomplete.
      delta({ tool_calls: [{ id: 'dup', function: { name: 'glob', arguments: '"*.ts"}' } }] }),
      delta({ tool_calls: [{ id: 'dup', function: { name: 'glob', arguments: '{"pattern":"*.md"}' } }] }, 'tool_calls'),
    ]);
    expect(assembler.message('tool_calls').toolCalls).toEqual([
      { id: 'dup', name: 'glob', arguments: '{"pattern":"*.ts"}' },
      { id: 'dup_2', name: 'glob', arguments: '{"pattern":"*.md"}' },
    ]);
  });

  it('get unique ids on every wire: the assembler never hands out one id twice', () => {
    const assembler = new MessageAssembler('test-model');
    const ids = ['x', 'x', 'x_2', 'x'].map((id) => assembler.startToolCall(id, 'list_dir').event);
    expect(ids.map((event) => (event.type === 'toolcall_start' ? event.id : ''))).toEqual(['x', 'x_2', 'x_2_2', 'x_3']);
    expect(new Set(assembler.message('tool_calls').toolCalls.map((call) => call.id)).size).toBe(4);
  });
});

describe('mapOpenAIUsage reasoning tokens', () => {
  it('adds reasoning to output when total = prompt + completion + reasoning (xAI)', () => {
    const usage = mapOpenAIUsage({
      prompt_tokens: 12,
      completion_tokens: 2,
      total_tokens: 354,
      completion_tokens_details: { reasoning_tokens: 340 },
    });
    expect(usage).toMatchObject({ inputTokens: 12, outputTokens: 342, reasoningTokens: 340 });
  });

  it('keeps output as is when completion already includes reasoning (OpenAI, DeepSeek)', () => {
    const usage = mapOpenAIUsage({
      prompt_tokens: 12,
      completion_tokens: 300,
      total_tokens: 312,
      completion_tokens_details: { reasoning_tokens: 280 },
    });
    expect(usage).toMatchObject({ outputTokens: 300, reasoningTokens: 280 });
  });
});
