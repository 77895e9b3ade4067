import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildMessagesRequest } from '../../../src/providers/anthropic-convert.js';
import { createAnthropicProvider } from '../../../src/providers/anthropic.js';
import type { Message, ModelRequest, StreamEvent, ToolSchema } from '../../../src/providers/types.js';
import { collect, ScriptedServer } from '../../support/scripted-server/index.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterEach(() => server.reset());
afterAll(() => server.close());

const TOOLS: ToolSchema[] = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'grep', description: 'Search', parameters: { type: 'object', properties: { pattern: { type: 'string' } } } },
];

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'claude-sonnet-4-5',
  system: 'You are seek.',
  messages: [{ role: 'user', content: 'find the TODOs' }],
  tools: TOOLS,
  ...overrides,
});

const anthropic = () => createAnthropicProvider({ apiKey: 'sk-ant-test', baseUrl: server.anthropicBaseUrl });

function finalOf(events: StreamEvent[]): Extract<StreamEvent, { type: 'done' }> {
  const last = events.at(-1);
  if (last?.type !== 'done') throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last;
}

describe('Anthropic provider', () => {
  it('streams thinking, text and tool_use blocks, then usage and the final message with cost', async () => {
    server.enqueue({
      reasoning: 'Search first.',
      text: 'Searching.',
      toolCalls: [
        { id: 'toolu_1', name: 'grep', arguments: { pattern: 'TODO' } },
        { id: 'toolu_2', name: 'read_file', arguments: { path: 'a.ts' } },
      ],
      usage: { input: 5_000, cacheRead: 3_200, cacheWrite: 800, output: 50 },
    });
    const events = await collect(anthropic().stream(request()));
    const types = events.map((e) => e.type);
    expect(types.lastIndexOf('reasoning_delta')).toBeLessThan(types.indexOf('text_delta'));
    expect(types.slice(-2)).toEqual(['usage', 'done']);
    const starts = events.filter((e) => e.type === 'toolcall_start');
    expect(starts).toEqual([
      { type: 'toolcall_start', index: 0, id: 'toolu_1', name: 'grep' },
      { type: 'toolcall_start', index: 1, id: 'toolu_2', name: 'read_file' },
    ]);
    // Each call ends when its block stops, before the next one starts.
    expect(types.indexOf('toolcall_end')).toBeLessThan(types.lastIndexOf('toolcall_start'));
    const { message } = finalOf(events);
    expect(message).toMatchObject({
      content: 'Searching.',
      reasoning: 'Search first.',
      reasoningSignature: 'sig_scripted_1',
      toolCalls: [
        { id: 'toolu_1', name: 'grep', arguments: '{"pattern":"TODO"}' },
        { id: 'toolu_2', name: 'read_file', arguments: '{"path":"a.ts"}' },
      ],
      stopReason: 'tool_calls',
      usage: { inputTokens: 5_000, outputTokens: 50, cacheReadTokens: 3_200, cacheWriteTokens: 800 },
    });
    // 1000 uncached at $3/M, 3200 hits at $0.30/M, 800 writes at $3.75/M, 50 output at $15/M
    expect(message.costUsd).toBeCloseTo((1_000 * 3 + 3_200 * 0.3 + 800 * 3.75 + 50 * 15) / 1e6, 12);
    expect(server.requests[0]!.path).toBe('/v1/messages');
    const { headers } = server.requests[0]!;
    expect(headers['x-api-key'] ?? headers['authorization']).toContain('sk-ant-test');
    expect(server.violations).toEqual([]);
  });

  it('passes malformed tool arguments through raw', async () => {
    server.enqueue({ toolCalls: [{ id: 't', name: 'grep', arguments: '{"pattern": ' }] });
    const events = await collect(anthropic().stream(request()));
    expect(events.find((e) => e.type === 'toolcall_end')).toMatchObject({ toolCall: { arguments: '{"pattern": ' } });
    expect(finalOf(events).message.stopReason).toBe('tool_calls');
  });

  it('maps max_tokens to stopReason length', async () => {
    server.enqueue({ text: 'cut', finishReason: 'length' });
    expect(finalOf(await collect(anthropic().stream(request()))).message.stopReason).toBe('length');
  });

  it('sends cache breakpoints, grouped tool results, parsed tool input and signed thinking back', async () => {
    const history: Message[] = [
      { role: 'user', content: 'find the TODOs' },
      {
        role: 'assistant',
        content: '',
        reasoning: 'Search first.',
        reasoningSignature: 'sig-1',
        toolCalls: [
          { id: 'toolu_1', name: 'grep', arguments: '{"pattern":"TODO"}' },
          { id: 'toolu_2', name: 'read_file', arguments: '{"path": ' },
        ],
        stopReason: 'tool_calls',
      },
      { role: 'tool', toolCallId: 'toolu_1', toolName: 'grep', content: 'a.ts:1: TODO', isError: false },
      { role: 'tool', toolCallId: 'toolu_2', toolName: 'read_file', content: 'bad arguments', isError: true },
    ];
    server.enqueue({ text: 'done' });
    await collect(anthropic().stream(request({ messages: history })));
    expect(server.violations).toEqual([]);
    const body = server.requests[0]!.body;
    expect(Object.keys(body)).toEqual(['model', 'system', 'messages', 'tools', 'max_tokens', 'stream']);
    expect(body.max_tokens).toBe(32_000);
    expect(body.system).toEqual([{ type: 'text', text: 'You are seek.', cache_control: { type: 'ephemeral' } }]);
    expect(body.tools[0].cache_control).toBeUndefined();
    expect(body.tools[1]).toEqual({ name: 'grep', description: 'Search', input_schema: TOOLS[1]!.parameters, cache_control: { type: 'ephemeral' } });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'find the TODOs' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Search first.', signature: 'sig-1' },
          { type: 'tool_use', id: 'toolu_1', name: 'grep', input: { pattern: 'TODO' } },
          { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.ts:1: TODO' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'bad arguments', is_error: true, cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('drops unsigned reasoning, enables thinking on request and builds identical bytes each time', () => {
    const req = request({
      reasoning: true,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a', reasoning: 'from another provider', toolCalls: [], stopReason: 'stop' },
        { role: 'user', content: 'q2' },
      ],
    });
    const body = buildMessagesRequest(req);
    expect(JSON.stringify(body)).toBe(JSON.stringify(buildMessagesRequest(req)));
    expect(body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 16_000 });
  });
});
