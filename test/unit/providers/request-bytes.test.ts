import { describe, expect, it } from 'vitest';
import { buildChatRequest, chatRequestPieces, detectOpenAICompat, encodeChatRequest } from '../../../src/providers/openai-compat.js';
import { jsonObjectBytes } from '../../../src/providers/request-bytes.js';
import { buildMessagesRequest, encodeMessagesRequest, messagesRequestPieces } from '../../../src/providers/anthropic-convert.js';
import type { Message, ModelRequest, ToolSchema } from '../../../src/providers/types.js';

/**
 * The incremental body (request-bytes.ts) is `JSON.stringify` of the body object byte for byte,
 * request after request of a growing history, whatever the server's row and the messages hold.
 */
const TOOLS: ToolSchema[] = [
  { name: 'read_file', description: 'Reads a file "quoted" \u2028 and ünïcode', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'bash', description: 'Runs a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } },
];

const HISTORY: Message[] = [
  { role: 'user', content: 'hi — "quotes", \\backslashes\\, \n newlines, emoji 🚀, lone \ud800 surrogate' },
  { role: 'assistant', content: '', reasoning: 'thinking…', reasoningField: 'reasoning_content', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{"path":"x"}' }], stopReason: 'tool_calls' },
  { role: 'tool', toolCallId: 'a', toolName: 'read_file', content: 'data\u0000with nul', isError: false },
  { role: 'assistant', content: 'two calls', reasoning: 'r2', reasoningField: 'reasoning', toolCalls: [{ id: 'b', name: 'bash', arguments: 'not json' }, { id: 'b_2', name: 'bash', arguments: '{}' }], stopReason: 'tool_calls' },
  { role: 'tool', toolCallId: 'b', toolName: 'bash', content: '', isError: true },
  { role: 'tool', toolCallId: 'b_2', toolName: 'bash', content: 'ok', isError: false },
  { role: 'assistant', content: 'done', toolCalls: [], stopReason: 'stop' },
  { role: 'user', content: '' },
];

function request(messages: Message[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'deepseek-chat', system: 'You are seek.', messages, tools: TOOLS, ...extra } as ModelRequest;
}

describe('incremental request bytes', () => {
  for (const [provider, url] of [
    ['deepseek', 'https://api.deepseek.com'],
    ['openai', 'https://api.openai.com/v1'],
    ['openai-compatible', 'http://127.0.0.1:8000/v1'],
  ] as const) {
    it(`equal JSON.stringify of the body at every length of the history (${provider})`, () => {
      const compat = detectOpenAICompat(provider, url);
      const pieces = chatRequestPieces();
      for (let length = 1; length <= HISTORY.length; length++) {
        for (const extra of [{}, { reasoning: true }, { maxTokens: 99 }, { tools: [] }, { system: '' }]) {
          const req = request(HISTORY.slice(0, length), extra);
          expect(encodeChatRequest(req, compat, pieces).toString('utf8')).toBe(JSON.stringify(buildChatRequest(req, compat)));
        }
      }
    });
  }

  it('a message is serialised once: its bytes are the very same buffer in the next request', () => {
    const compat = detectOpenAICompat('deepseek', 'https://api.deepseek.com');
    const pieces = chatRequestPieces();
    const first = pieces.messages.of(HISTORY[0]!, () => ({ role: 'user', content: 'x' }));
    expect(pieces.messages.of(HISTORY[0]!, () => ({ role: 'user', content: 'other' }))).toBe(first);
    encodeChatRequest(request(HISTORY), compat, pieces);
    // encode cached every message: asking again returns its wire JSON, not what this builder says.
    const wire = buildChatRequest(request(HISTORY), compat).messages;
    expect(pieces.messages.of(HISTORY[1]!, () => 'never built').text).toBe(JSON.stringify(wire[2]));
  });

  it('jsonObjectBytes matches JSON.stringify for empty and rest-only objects', () => {
    expect(jsonObjectBytes([]).toString()).toBe('{}');
    expect(jsonObjectBytes([], { a: 1, b: 'x' }).toString()).toBe(JSON.stringify({ a: 1, b: 'x' }));
    expect(jsonObjectBytes([['k', { array: [] }]], { z: null }).toString()).toBe(JSON.stringify({ k: [], z: null }));
  });
  it('equal JSON.stringify of the Anthropic body at every length: merged tool results, a prompt after them, images, signed thinking', () => {
    const history: Message[] = [
      ...HISTORY.slice(0, 6),
      { role: 'user', content: 'a prompt right after tool results merges into their message' },
      { role: 'assistant', content: 'signed', reasoning: 'deep', reasoningSignature: 'sig==', toolCalls: [{ id: 'c', name: 'read_file', arguments: '{"path":"img.png"}' }], stopReason: 'tool_calls' },
      { role: 'tool', toolCallId: 'c', toolName: 'read_file', content: 'an image', isError: false, images: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }, { mimeType: 'image/bmp', data: 'Qk0=' }] },
      ...HISTORY.slice(6),
    ] as Message[];
    const pieces = messagesRequestPieces();
    for (let length = 1; length <= history.length; length++) {
      for (const extra of [{}, { reasoning: true, maxTokens: 8000 }, { tools: [] }, { system: '' }]) {
        const req = request(history.slice(0, length), { model: 'claude-sonnet-4-5', ...extra });
        expect(encodeMessagesRequest(req, pieces).toString('utf8')).toBe(JSON.stringify(buildMessagesRequest(req)));
      }
    }
  });
});
