import { describe, expect, it } from 'vitest';
import { toAnthropicMessages } from '../../../src/providers/anthropic-convert.js';
import type { Message } from '../../../src/providers/types.js';

describe('tool result images on the Anthropic wire', () => {
  const history = (images: Array<{ mimeType: string; data: string }>): Message[] => [
    { role: 'user', content: 'look' },
    { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'mcp_call', arguments: '{}' }], stopReason: 'tool_calls' },
    { role: 'tool', toolCallId: 't1', toolName: 'mcp_call', content: '[image: image/png, 1 B — attached]', isError: false, images },
  ];

  it('sends the text, then each image Anthropic takes, as base64 image blocks', () => {
    const wire = toAnthropicMessages(history([{ mimeType: 'image/png', data: 'iVBOR' }, { mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }]));
    const result = (wire.at(-1)!.content as unknown as Array<Record<string, unknown>>)[0] as { type: string; content: unknown };
    expect(result.type).toBe('tool_result');
    expect(result.content).toEqual([
      { type: 'text', text: '[image: image/png, 1 B — attached]' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
    ]);
  });

  it('keeps the plain text form when no image can go', () => {
    const wire = toAnthropicMessages(history([{ mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }]));
    const result = (wire.at(-1)!.content as unknown as Array<Record<string, unknown>>)[0] as { content: unknown };
    expect(result.content).toBe('[image: image/png, 1 B — attached]');
  });
});
