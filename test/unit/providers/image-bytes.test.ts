import { describe, expect, it } from 'vitest';
import { buildChatRequest, chatRequestPieces, detectOpenAICompat, encodeChatRequest } from '../../../src/providers/openai-compat.js';
import { buildMessagesRequest, encodeMessagesRequest, messagesRequestPieces } from '../../../src/providers/anthropic-convert.js';
import type { Message, ModelRequest } from '../../../src/providers/types.js';

/**
 * Images in history keep the incremental body equal to `JSON.stringify` of the body, request after
 * request (a request never holds half a run of tool results), and go where each wire wants them.
 */
const PNG = { mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'a.png', width: 2, height: 1 };
const GIF = { mimeType: 'image/gif', data: 'R0lGODlh', name: 'b.gif' };

const HISTORY: Message[] = [
  { role: 'user', content: 'look', images: [PNG] },
  { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{}' }, { id: 'b', name: 'read_file', arguments: '{}' }], stopReason: 'tool_calls' },
  { role: 'tool', toolCallId: 'a', toolName: 'read_file', content: 'a.png is an image', isError: false, images: [PNG] },
  { role: 'tool', toolCallId: 'b', toolName: 'read_file', content: 'b.gif is an image', isError: false, images: [GIF] },
  { role: 'assistant', content: 'seen', toolCalls: [], stopReason: 'stop' },
  { role: 'user', content: 'again' },
];

const request = (model: string, messages: Message[]): ModelRequest => ({ model, system: 'sys', messages, tools: [] });
/** The lengths a request can have: never cutting a run of tool results. */
const lengths = HISTORY.map((_m, i) => i + 1).filter((n) => HISTORY[n]?.role !== 'tool');

describe('image bytes', () => {
  for (const model of ['gpt-5-mini', 'deepseek-v4-flash', 'some-local-model']) {
    it(`OpenAI wire equals JSON.stringify at every length (${model})`, () => {
      const compat = detectOpenAICompat('openai-compatible', 'http://127.0.0.1:1/v1');
      const pieces = chatRequestPieces();
      for (const n of lengths) {
        const req = request(model, HISTORY.slice(0, n));
        expect(encodeChatRequest(req, compat, pieces).toString('utf8')).toBe(JSON.stringify(buildChatRequest(req, compat)));
      }
    });
  }

  it('OpenAI wire: a run of tool results is followed by one user message with its images; none for a model that cannot see', () => {
    const compat = detectOpenAICompat('openai', 'https://api.openai.com/v1');
    const seeing = buildChatRequest(request('gpt-5-mini', HISTORY), compat).messages as unknown as Array<{ role: string; content: unknown }>;
    expect(seeing.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user', 'assistant', 'user']);
    expect(JSON.stringify(seeing[5]!.content)).toContain('data:image/gif;base64,R0lGODlh');
    expect(JSON.stringify(seeing[5]!.content)).toContain('data:image/png;base64,iVBORw0KGgo=');
    const blind = buildChatRequest(request('deepseek-v4-flash', HISTORY), detectOpenAICompat('deepseek', 'https://api.deepseek.com')).messages;
    expect(blind.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user']);
  });

  it('Anthropic wire equals JSON.stringify at every length; images before the text', () => {
    const pieces = messagesRequestPieces();
    for (const n of lengths) {
      const req = request('claude-sonnet-4-6', HISTORY.slice(0, n));
      expect(encodeMessagesRequest(req, pieces).toString('utf8')).toBe(JSON.stringify(buildMessagesRequest(req)));
    }
    const first = buildMessagesRequest(request('claude-sonnet-4-6', HISTORY)).messages[0]!.content as Array<{ type: string }>;
    expect(first.map((block) => block.type)).toEqual(['image', 'text']);
  });
});
