import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { costOf, lookupModel } from '../../../src/providers/catalog.js';
import { buildChatRequest, detectOpenAICompat } from '../../../src/providers/openai-compat.js';
import { createOpenAICompatibleProvider, mapOpenAIUsage } from '../../../src/providers/openai-compatible.js';
import type { ModelRequest, StreamEvent, ToolSchema } from '../../../src/providers/types.js';
import { collect, ScriptedServer } from '../../support/scripted-server/index.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterEach(() => server.reset());
afterAll(() => server.close());

const TOOLS: ToolSchema[] = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
];

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'deepseek-v4-flash',
  system: 'You are seek.',
  messages: [{ role: 'user', content: 'read the readme' }],
  tools: TOOLS,
  ...overrides,
});

const deepseek = () => createOpenAICompatibleProvider({ name: 'deepseek', apiKey: 'sk-test', baseUrl: server.url });

function finalOf(events: StreamEvent[]): Extract<StreamEvent, { type: 'done' }> {
  const last = events.at(-1);
  if (last?.type !== 'done') throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last;
}

describe('OpenAI-compatible provider (DeepSeek row)', () => {
  it('streams reasoning, text and a tool call in order, then usage and the final message with cost', async () => {
    server.enqueue({
      reasoning: 'The user wants the readme.',
      text: 'Let me read it.',
      toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }],
    });
    const events = await collect(deepseek().stream(request()));
    const types = events.map((e) => e.type);
    const firstText = types.indexOf('text_delta');
    expect(types.lastIndexOf('reasoning_delta')).toBeLessThan(firstText);
    expect(types.lastIndexOf('text_delta')).toBeLessThan(types.indexOf('toolcall_start'));
    expect(types.filter((t) => t === 'toolcall_delta').length).toBeGreaterThan(1);
    expect(types.slice(-4)).toEqual(['toolcall_delta', 'toolcall_end', 'usage', 'done']);
    const end = events.find((e) => e.type === 'toolcall_end');
    expect(end).toEqual({
      type: 'toolcall_end',
      index: 0,
      toolCall: { id: 'call_1_0', name: 'read_file', arguments: '{"path":"README.md"}' },
    });
    const { message } = finalOf(events);
    expect(message).toMatchObject({
      role: 'assistant',
      content: 'Let me read it.',
      reasoning: 'The user wants the readme.',
      toolCalls: [{ id: 'call_1_0', name: 'read_file', arguments: '{"path":"README.md"}' }],
      stopReason: 'tool_calls',
      model: 'deepseek-v4-flash',
    });
    expect(message.usage!.inputTokens).toBeGreaterThan(0);
    expect(message.usage!.outputTokens).toBeGreaterThan(0);
    expect(message.costUsd).toBe(costOf(message.usage!, lookupModel('deepseek-v4-flash').pricing));
    expect(server.requests[0]!.path).toBe('/chat/completions');
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer sk-test');
    expect(server.violations).toEqual([]);
  });

  it('maps usage with DeepSeek cache fields and prices it', async () => {
    server.enqueue({ text: 'ok', usage: { input: 100_000, cacheRead: 64_000, output: 2_000 } });
    const events = await collect(deepseek().stream(request()));
    const usageEvent = events.find((e) => e.type === 'usage');
    const expected = { inputTokens: 100_000, outputTokens: 2_000, cacheReadTokens: 64_000, cacheWriteTokens: 0, reasoningTokens: 0 };
    expect(usageEvent).toEqual({ type: 'usage', usage: expected });
    const { message } = finalOf(events);
    expect(message.usage).toEqual(expected);
    // 36K misses at $0.14/M + 64K hits at $0.0028/M + 2K output at $0.28/M
    expect(message.costUsd).toBeCloseTo((36_000 * 0.14 + 64_000 * 0.0028 + 2_000 * 0.28) / 1e6, 12);
    expect(message.stopReason).toBe('stop');
  });

  it('falls back to prompt_tokens_details.cached_tokens without DeepSeek fields', () => {
    expect(
      mapOpenAIUsage({
        prompt_tokens: 500,
        completion_tokens: 20,
        total_tokens: 520,
        prompt_tokens_details: { cached_tokens: 256 },
        completion_tokens_details: { reasoning_tokens: 8 },
      }),
    ).toEqual({ inputTokens: 500, outputTokens: 20, cacheReadTokens: 256, cacheWriteTokens: 0, reasoningTokens: 8 });
    expect(mapOpenAIUsage({ prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 })).toEqual({
      inputTokens: 5,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it('passes malformed tool arguments through raw instead of failing', async () => {
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path": "README.md"' }] });
    const events = await collect(deepseek().stream(request()));
    const end = events.find((e) => e.type === 'toolcall_end');
    expect(end).toMatchObject({ toolCall: { id: 'c1', arguments: '{"path": "README.md"' } });
    expect(finalOf(events).message.stopReason).toBe('tool_calls');
  });

  it('reports finish_reason length as stopReason length', async () => {
    server.enqueue({ text: 'truncat', finishReason: 'length' });
    const { message } = finalOf(await collect(deepseek().stream(request())));
    expect(message).toMatchObject({ content: 'truncat', stopReason: 'length' });
  });

  it('sends a body with fixed key order, catalog max_tokens, include_usage and the thinking switch', async () => {
    server.enqueue({ text: 'ok' });
    await collect(deepseek().stream(request({ reasoning: true })));
    const body = server.requests[0]!.body;
    expect(Object.keys(body)).toEqual(['model', 'messages', 'tools', 'max_tokens', 'thinking', 'stream', 'stream_options']);
    expect(body).toMatchObject({
      model: 'deepseek-v4-flash',
      max_tokens: 16_384,
      thinking: { type: 'enabled' },
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(body.messages[0]).toEqual({ role: 'system', content: 'You are seek.' });
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: TOOLS[0]!.parameters } }]);
  });
});

describe('compat detection', () => {
  it('picks a row by host first, then by name', () => {
    expect(detectOpenAICompat('openai-compatible', 'https://api.deepseek.com')).toMatchObject({ label: 'DeepSeek API', sendReasoningContent: true });
    expect(detectOpenAICompat('deepseek', 'http://127.0.0.1:9')).toMatchObject({ label: 'DeepSeek API' });
    expect(detectOpenAICompat('openai', 'https://api.openai.com/v1')).toMatchObject({
      label: 'OpenAI API',
      maxTokensField: 'max_completion_tokens',
      sendReasoningContent: false,
    });
    expect(detectOpenAICompat('openai', 'http://localhost:11434/v1')).toMatchObject({
      label: 'OpenAI-compatible server',
      maxTokensField: 'max_tokens',
      defaultMaxTokens: false,
    });
  });

  it('lets explicit compat override the detected row', async () => {
    server.enqueue({ text: 'ok' });
    const provider = createOpenAICompatibleProvider({
      name: 'openai-compatible',
      apiKey: '',
      baseUrl: server.openaiBaseUrl,
      compat: { maxTokensField: 'max_completion_tokens', includeUsage: false },
    });
    const events = await collect(provider.stream(request({ model: 'local-model', maxTokens: 1000 })));
    expect(finalOf(events).message.usage).toBeUndefined();
    expect(events.some((e) => e.type === 'usage')).toBe(false);
    const body = server.requests[0]!.body;
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(body.max_completion_tokens).toBe(1000);
    expect(body.stream_options).toBeUndefined();
  });

  it('builds identical bytes from the same history every time', () => {
    const history = request({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', reasoning: 'r', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{"path":"x"}' }], stopReason: 'tool_calls' },
        { role: 'tool', toolCallId: 'a', toolName: 'read_file', content: 'data', isError: false },
      ],
    });
    const compat = detectOpenAICompat('deepseek', 'https://api.deepseek.com');
    expect(JSON.stringify(buildChatRequest(history, compat))).toBe(JSON.stringify(buildChatRequest(history, compat)));
    const assistant = buildChatRequest(history, compat).messages[2];
    expect(assistant).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'r',
      tool_calls: [{ id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path":"x"}' } }],
    });
  });
});
