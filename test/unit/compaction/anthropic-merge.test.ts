import { describe, expect, it } from 'vitest';
import { buildMessagesRequest, toAnthropicMessages } from '../../../src/providers/anthropic-convert.js';
import type { Message } from '../../../src/providers/types.js';
import { compactionSummaryMessage } from '../../../src/session/format.js';

const summary = compactionSummaryMessage('the brief');

describe('Anthropic conversion after a compaction', () => {
  it('merges the summary and the next prompt into one user message with two text blocks', () => {
    const wire = toAnthropicMessages([summary, { role: 'user', content: 'next question' }]);
    expect(wire).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: summary.content },
          { type: 'text', text: 'next question', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('keeps roles alternating: a prompt after tool results joins their message, after them', () => {
    const history: Message[] = [
      summary,
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'read_file', arguments: '{"path":"a"}' }], stopReason: 'tool_calls' },
      { role: 'tool', toolCallId: 't1', toolName: 'read_file', content: 'A', isError: false },
      { role: 'user', content: 'go on' },
    ];
    const wire = toAnthropicMessages(history);
    expect(wire.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(wire[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'A' },
      { type: 'text', text: 'go on', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('does not merge across an assistant message, and is deterministic', () => {
    const history: Message[] = [
      summary,
      { role: 'assistant', content: 'ok', toolCalls: [], stopReason: 'stop' },
      { role: 'user', content: 'q2' },
      { role: 'user', content: 'q3' },
    ];
    const request = { model: 'claude-sonnet-4-6', system: 's', messages: history, tools: [] };
    const first = JSON.stringify(buildMessagesRequest(request));
    expect(JSON.stringify(buildMessagesRequest(request))).toBe(first);
    const wire = toAnthropicMessages(history);
    expect(wire.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(wire[2]!.content).toHaveLength(2);
    expect(wire[0]!.content).toEqual([{ type: 'text', text: summary.content }]);
  });
});
