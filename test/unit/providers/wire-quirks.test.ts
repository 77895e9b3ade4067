/**
 * What real servers send beyond the scripted server's defaults, through the real providers and the
 * scripted server's failure injection: error objects inside a 200 stream, a chunk that is not JSON,
 * parallel tool calls framed without `index` (and without `id`), interleaved fragments, parallel
 * Anthropic tool_use blocks.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/providers/anthropic.js';
import { createOpenAICompatibleProvider } from '../../../src/providers/openai-compatible.js';
import { withRetries } from '../../../src/providers/retry.js';
import type { ModelRequest, StreamEvent } from '../../../src/providers/types.js';
import { collect, ScriptedServer } from '../../support/scripted-server/index.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterEach(() => server.reset());
afterAll(() => server.close());

const request: ModelRequest = {
  model: 'deepseek-v4-flash',
  system: 'You are seek.',
  messages: [{ role: 'user', content: 'go' }],
  tools: [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object' } }],
};

const openai = () => createOpenAICompatibleProvider({ name: 'openai-compatible', apiKey: 'k', baseUrl: server.url });
const anthropic = () => createAnthropicProvider({ apiKey: 'k', baseUrl: server.url });
const noSleep = { sleep: async () => undefined };

function lastOf(events: StreamEvent[]): StreamEvent {
  const last = events.at(-1);
  if (!last) throw new Error('no events');
  return last;
}

const PARALLEL = {
  toolCalls: [
    { id: 'call_a', name: 'read_file', arguments: { path: 'a.txt' } },
    { id: 'call_b', name: 'grep', arguments: { pattern: 'needle', path: 'src' } },
  ],
};
const EXPECTED_CALLS = [
  { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
  { id: 'call_b', name: 'grep', arguments: '{"pattern":"needle","path":"src"}' },
];

describe('parallel OpenAI tool calls as servers frame them', () => {
  it.each(['interleaved', 'no-index'] as const)('%s: two calls stay two, ids, names and arguments intact', async (framing) => {
    server.enqueue({ ...PARALLEL, toolCallFraming: framing });
    const last = lastOf(await collect(openai().stream(request)));
    expect(last.type).toBe('done');
    if (last.type === 'done') {
      expect(last.message.toolCalls).toEqual(EXPECTED_CALLS);
      expect(last.message.stopReason).toBe('tool_calls');
    }
  });

  it('no-index-no-id: calls are told apart by order (a fragment naming a function starts a new call)', async () => {
    server.enqueue({ ...PARALLEL, toolCallFraming: 'no-index-no-id' });
    const last = lastOf(await collect(openai().stream(request)));
    if (last.type !== 'done') throw new Error(JSON.stringify(last));
    expect(last.message.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual(
      EXPECTED_CALLS.map(({ name, arguments: args }) => ({ name, arguments: args })),
    );
    expect(new Set(last.message.toolCalls.map((call) => call.id)).size).toBe(2);
  });
});

describe('damaged and erroring OpenAI streams', () => {
  it('a complete stream without finish_reason is accepted once, not retried as cut', async () => {
    server.enqueue({ toolCalls: [{ id: '0', name: 'read_file', arguments: {} }], omitFinishReason: true });
    const events = await collect(withRetries(openai().stream, noSleep)(request));
    expect(events.some((event) => event.type === 'retry')).toBe(false);
    const last = lastOf(events);
    if (last.type !== 'done') throw new Error(JSON.stringify(last));
    expect(last.message.stopReason).toBe('tool_calls');
    expect(last.message.toolCalls).toEqual([{ id: '0', name: 'read_file', arguments: '{}' }]);
    expect(last.message.usage?.outputTokens).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
  });

  it('a chunk that is not JSON is a retryable malformed event, and the retry succeeds', async () => {
    server.enqueue({ text: 'first try', invalidJsonAfterChunks: 2 });
    server.enqueue({ text: 'second try' });
    const events = await collect(withRetries(openai().stream, noSleep)(request));
    const retry = events.find((event) => event.type === 'retry');
    expect(retry?.type === 'retry' && retry.error).toMatchObject({ kind: 'malformed', retryable: true });
    const last = lastOf(events);
    expect(last.type === 'done' && last.message.content).toBe('second try');
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ['OpenAI-style', () => openai()],
    ['Anthropic', () => anthropic()],
  ] as const)('%s: an event that is not JSON is retried (the class of fault, whichever provider reads it)', async (_wire, make) => {
    server.enqueue({ text: 'first try', invalidJsonAfterChunks: 3 }, { text: 'second try' });
    const events = await collect(withRetries(make().stream, noSleep)(request));
    const retry = events.find((event) => event.type === 'retry');
    expect(retry?.type === 'retry' && retry.error).toMatchObject({ kind: 'malformed', retryable: true });
    expect(retry?.type === 'retry' && retry.error.message).toMatch(/sent a stream event that could not be parsed: /);
    const last = lastOf(events);
    expect(last.type === 'done' && last.message.content).toBe('second try');
  });

  it('an {"error"} object of a server type inside the stream is a retryable server error', async () => {
    server.enqueue({ text: 'partial answer', streamError: { afterChunks: 2, type: 'server_error', message: 'upstream overloaded' } });
    server.enqueue({ text: 'recovered' });
    const events = await collect(withRetries(openai().stream, noSleep)(request));
    const retry = events.find((event) => event.type === 'retry');
    if (retry?.type !== 'retry') throw new Error('expected a retry');
    expect(retry.error).toMatchObject({ kind: 'server', retryable: true });
    expect(retry.error.message).toContain('upstream overloaded');
    expect(lastOf(events).type).toBe('done');
  });

  it('an {"error"} object of an invalid-request type inside the stream fails without retrying', async () => {
    server.enqueue({ text: 'partial', streamError: { afterChunks: 2, type: 'invalid_request_error', message: 'bad tool schema' } });
    const events = await collect(withRetries(openai().stream, noSleep)(request));
    expect(events.some((event) => event.type === 'retry')).toBe(false);
    const last = lastOf(events);
    if (last.type !== 'error') throw new Error(JSON.stringify(last));
    expect(last.error).toMatchObject({ kind: 'bad_request', retryable: false });
    expect(last.error.message).toContain('bad tool schema');
    expect(server.requests).toHaveLength(1);
  });
});

describe('Anthropic wire', () => {
  it('parallel tool_use blocks become two calls with their own ids and arguments', async () => {
    server.enqueue({ text: 'Reading both.', ...PARALLEL });
    const last = lastOf(await collect(anthropic().stream({ ...request, model: 'claude-sonnet-4-5' })));
    if (last.type !== 'done') throw new Error(JSON.stringify(last));
    expect(last.message.content).toBe('Reading both.');
    expect(last.message.toolCalls).toEqual(EXPECTED_CALLS);
    expect(last.message.stopReason).toBe('tool_calls');
  });

  it('an error event inside the stream becomes a provider error by its type', async () => {
    server.enqueue({ text: 'partial', streamError: { afterChunks: 3, type: 'overloaded_error', message: 'Overloaded' } });
    server.enqueue({ text: 'done now' });
    const events = await collect(withRetries(anthropic().stream, noSleep)({ ...request, model: 'claude-sonnet-4-5' }));
    const retry = events.find((event) => event.type === 'retry');
    if (retry?.type !== 'retry') throw new Error('expected a retry');
    expect(retry.error).toMatchObject({ kind: 'server', retryable: true });
    expect(lastOf(events).type).toBe('done');
  });
});
