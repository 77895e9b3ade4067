import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { canonicalPrompt, commonPrefixBytes, ScriptedServer } from '../support/scripted-server/index.js';

let server: ScriptedServer;

beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterEach(() => server.reset());
afterAll(async () => {
  await server.close();
});

type Json = Record<string, unknown>;

function post(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-test': 'yes' },
    body: JSON.stringify(body),
    signal,
  });
}

/** Splits an SSE body into frames: `{event?, data}`. */
function parseSse(text: string): { event?: string; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      return event === undefined ? { data } : { event, data };
    });
}

const openaiBody = (messages: Json[], extra: Json = {}): Json => ({
  model: 'deepseek-v4-flash',
  messages,
  stream: true,
  stream_options: { include_usage: true },
  ...extra,
});

const anthropicBody = (messages: Json[], extra: Json = {}): Json => ({
  model: 'claude-sonnet-4-5',
  system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
  messages,
  max_tokens: 100,
  stream: true,
  ...extra,
});

describe('OpenAI wire', () => {
  it('streams reasoning, text and split tool-call arguments, then usage and [DONE]', async () => {
    server.enqueue({
      reasoning: 'thinking hard about it',
      text: 'Hello there, world',
      toolCalls: [{ name: 'read_file', arguments: { path: 'src/index.ts', limit: 20 } }],
    });
    const res = await post('/v1/chat/completions', openaiBody([{ role: 'user', content: 'hi' }]));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const frames = parseSse(await res.text());
    expect(frames.at(-1)?.data).toBe('[DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.data) as Json);
    const deltas = chunks.flatMap((c) => (c['choices'] as Json[]).map((choice) => choice['delta'] as Json));
    expect(deltas[0]).toEqual({ role: 'assistant', content: '' });
    expect(deltas.map((d) => d['reasoning_content'] ?? '').join('')).toBe('thinking hard about it');
    expect(deltas.map((d) => d['content'] ?? '').join('')).toBe('Hello there, world');
    const toolDeltas = deltas.flatMap((d) => (d['tool_calls'] as Json[] | undefined) ?? []);
    expect(toolDeltas.length).toBeGreaterThan(2);
    expect(toolDeltas[0]).toMatchObject({ index: 0, id: 'call_1_0', type: 'function', function: { name: 'read_file' } });
    const args = toolDeltas.map((d) => (d['function'] as Json)['arguments']).join('');
    expect(JSON.parse(args)).toEqual({ path: 'src/index.ts', limit: 20 });
    const finishChunk = chunks.at(-2)!;
    expect((finishChunk['choices'] as Json[])[0]!['finish_reason']).toBe('tool_calls');
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk['choices']).toEqual([]);
    const usage = usageChunk['usage'] as Json;
    expect(usage['prompt_tokens']).toBeGreaterThan(0);
    expect(usage).toMatchObject({ prompt_cache_hit_tokens: 0, prompt_tokens_details: { cached_tokens: 0 } });
    expect(usage['prompt_cache_miss_tokens']).toBe(usage['prompt_tokens']);
    expect((usage['completion_tokens_details'] as Json)['reasoning_tokens']).toBe(Math.ceil(22 / 4));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ wire: 'openai', path: '/v1/chat/completions', stream: true });
    expect(server.requests[0]!.headers['x-test']).toBe('yes');
    expect(server.violations).toEqual([]);
  });

  it('omits the usage chunk without stream_options.include_usage', async () => {
    server.enqueue({ text: 'ok' });
    const res = await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const frames = parseSse(await res.text());
    expect(frames.some((f) => f.data.includes('"usage"'))).toBe(false);
    expect(JSON.parse(frames.at(-2)!.data).choices[0].finish_reason).toBe('stop');
  });

  it('answers non-streaming requests on /chat/completions (DeepSeek base URL) with scripted usage', async () => {
    server.enqueue({
      reasoning: 'r',
      text: 'answer',
      finishReason: 'length',
      usage: { input: 1000, cacheRead: 640, output: 7 },
    });
    const res = await post('/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const body = (await res.json()) as Json;
    expect(body['object']).toBe('chat.completion');
    const choice = (body['choices'] as Json[])[0]!;
    expect(choice['message']).toEqual({ role: 'assistant', content: 'answer', reasoning_content: 'r' });
    expect(choice['finish_reason']).toBe('length');
    expect(body['usage']).toMatchObject({
      prompt_tokens: 1000,
      completion_tokens: 7,
      prompt_cache_hit_tokens: 640,
      prompt_cache_miss_tokens: 360,
      prompt_tokens_details: { cached_tokens: 640 },
    });
    expect(server.requests[0]!.stream).toBe(false);
  });
});

describe('Anthropic wire', () => {
  it('streams message_start, thinking, text, tool_use and message_delta in the real framing', async () => {
    server.enqueue({
      reasoning: 'let me think',
      text: 'Reading it now',
      toolCalls: [{ id: 'toolu_a', name: 'grep', arguments: '{"pattern":"TODO","path":"src"}' }],
      usage: { input: 500, cacheRead: 320, cacheWrite: 100 },
    });
    const res = await post('/v1/messages', anthropicBody([{ role: 'user', content: 'find todos' }]));
    const frames = parseSse(await res.text());
    const events = frames.map((f) => f.event);
    expect(events[0]).toBe('message_start');
    expect(events.at(-2)).toBe('message_delta');
    expect(events.at(-1)).toBe('message_stop');
    for (const f of frames) expect((JSON.parse(f.data) as Json)['type']).toBe(f.event);
    const data = frames.map((f) => JSON.parse(f.data) as Json);
    const start = (data[0]!['message'] as Json)['usage'];
    expect(start).toEqual({ input_tokens: 80, cache_creation_input_tokens: 100, cache_read_input_tokens: 320, output_tokens: 1 });
    const deltas = data.filter((d) => d['type'] === 'content_block_delta').map((d) => d['delta'] as Json);
    expect(deltas.filter((d) => d['type'] === 'thinking_delta').map((d) => d['thinking']).join('')).toBe('let me think');
    expect(deltas.some((d) => d['type'] === 'signature_delta')).toBe(true);
    expect(deltas.filter((d) => d['type'] === 'text_delta').map((d) => d['text']).join('')).toBe('Reading it now');
    const json = deltas.filter((d) => d['type'] === 'input_json_delta').map((d) => d['partial_json']);
    expect(json.length).toBeGreaterThan(2);
    expect(json.join('')).toBe('{"pattern":"TODO","path":"src"}');
    const toolStart = data.find((d) => d['type'] === 'content_block_start' && (d['content_block'] as Json)['type'] === 'tool_use');
    expect(toolStart).toMatchObject({ index: 2, content_block: { id: 'toolu_a', name: 'grep', input: {} } });
    expect(data.at(-2)).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { output_tokens: expect.any(Number) } });
    expect(server.violations).toEqual([]);
  });

  it('answers non-streaming requests with a Message body', async () => {
    server.enqueue({ text: 'hi', toolCalls: [{ name: 'x', arguments: 'not json' }], finishReason: 'length' });
    const res = await post('/v1/messages', anthropicBody([{ role: 'user', content: 'q' }], { stream: false }));
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'max_tokens',
      content: [{ type: 'text', text: 'hi' }, { type: 'tool_use', id: 'toolu_scripted_1_0', name: 'x', input: {} }],
    });
    expect((body['usage'] as Json)['output_tokens']).toBeGreaterThan(0);
  });
});

describe('failure injection', () => {
  it('answers httpError with the wire error body and retry-after', async () => {
    server.enqueue(
      { httpError: { status: 429, message: 'slow down', retryAfterSeconds: 3 } },
      { httpError: { status: 529, message: 'overloaded' } },
    );
    const a = await post('/v1/chat/completions', openaiBody([{ role: 'user', content: 'x' }]));
    expect(a.status).toBe(429);
    expect(a.headers.get('retry-after')).toBe('3');
    expect(await a.json()).toMatchObject({ error: { message: 'slow down', type: 'rate_limit_error' } });
    const b = await post('/v1/messages', anthropicBody([{ role: 'user', content: 'x' }]));
    expect(b.status).toBe(529);
    expect(b.headers.get('retry-after')).toBeNull();
    expect(await b.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'overloaded' } });
  });

  it('cuts the stream after N chunks without [DONE]', async () => {
    server.enqueue({ text: 'a fairly long answer that spans chunks', cutAfterChunks: 2 });
    const res = await post('/v1/chat/completions', openaiBody([{ role: 'user', content: 'x' }]));
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let received = '';
    const decoder = new TextDecoder();
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          received += decoder.decode(value);
        }
      })(),
    ).rejects.toThrow();
    expect(parseSse(received)).toHaveLength(2);
    expect(received).not.toContain('[DONE]');
  });

  it('hangs after the headers until the client aborts', async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const res = await post('/v1/messages', anthropicBody([{ role: 'user', content: 'x' }]), controller.signal);
    expect(res.status).toBe(200);
    const pending = res.text();
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow();
  });

  it('close() destroys hanging sockets', async () => {
    const own = await ScriptedServer.start();
    own.enqueue({ hang: true });
    const res = await fetch(own.openaiBaseUrl + '/chat/completions', {
      method: 'POST',
      body: JSON.stringify(openaiBody([{ role: 'user', content: 'x' }])),
    });
    const pending = res.text();
    await own.close();
    await expect(pending).rejects.toThrow();
  });

  it('waits delayMs before answering and chunkDelayMs between chunks, counted as server time', async () => {
    server.enqueue({ text: 'abc', delayMs: 60 }, { text: 'abcdef', chunkDelayMs: 15 });
    const t0 = performance.now();
    await (await post('/v1/chat/completions', openaiBody([{ role: 'user', content: 'x' }]))).text();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
    const t1 = performance.now();
    await (await post('/v1/chat/completions', openaiBody([{ role: 'user', content: 'x' }]))).text();
    expect(performance.now() - t1).toBeGreaterThanOrEqual(4 * 15 - 5);
    expect(server.serverTimeMs()).toBeGreaterThanOrEqual(110);
    const request = server.requests[0]!;
    expect(request.respondedAt! - request.receivedAt).toBeGreaterThanOrEqual(55);
  });
});

describe('script queue', () => {
  it('passes the recorded request to function responders and shares the queue across wires', async () => {
    server.enqueue(
      (req) => ({ text: `you said ${String(req.body.messages[0].content)} on ${req.wire}` }),
      { text: 'second' },
    );
    const a = (await (await post('/v1/messages', anthropicBody([{ role: 'user', content: 'ping' }], { stream: false }))).json()) as Json;
    expect((a['content'] as Json[])[0]!['text']).toBe('you said ping on anthropic');
    const b = (await (await post('/v1/chat/completions', openaiBody([{ role: 'user', content: 'x' }], { stream: false }))).json()) as Json;
    expect(((b['choices'] as Json[])[0]!['message'] as Json)['content']).toBe('second');
  });

  it('answers "(script exhausted)" with a violation, or the fallback without one', async () => {
    const a = (await (await post('/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'x' }] })).json()) as Json;
    expect(((a['choices'] as Json[])[0]!['message'] as Json)['content']).toBe('(script exhausted)');
    expect(server.violations).toEqual([expect.stringContaining('script exhausted')]);
    server.reset();
    server.setFallback({ text: 'fallback' });
    const b = (await (await post('/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'x' }] })).json()) as Json;
    expect(((b['choices'] as Json[])[0]!['message'] as Json)['content']).toBe('fallback');
    expect(server.violations).toEqual([]);
    server.setFallback(undefined);
  });

  it('reports unknown routes and non-JSON bodies', async () => {
    const res = await fetch(server.url + '/v1/completions', { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    const bad = await fetch(server.url + '/v1/messages', { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
    expect(server.violations).toHaveLength(2);
    server.reset();
    expect(server.violations).toEqual([]);
    expect(server.requests).toEqual([]);
  });
});

describe('request checks', () => {
  const call = (id: string): Json => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } });

  it('accepts a well-formed OpenAI tool exchange', async () => {
    server.enqueue({ text: 'ok' });
    await post('/chat/completions', {
      model: 'm',
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
        { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
        { role: 'tool', tool_call_id: 'b', content: '1' },
        { role: 'tool', tool_call_id: 'a', content: '' },
        { role: 'user', content: 'next' },
      ],
    });
    expect(server.violations).toEqual([]);
  });

  it('flags OpenAI tool results that answer nothing, unanswered calls and empty messages', async () => {
    server.setFallback({ text: 'ok' });
    await post('/chat/completions', {
      model: 'm',
      messages: [
        { role: 'user', content: 'u' },
        { role: 'assistant', content: '', tool_calls: [call('a'), call('b')] },
        { role: 'tool', tool_call_id: 'a', content: '1' },
        { role: 'user', content: 'interrupting' },
        { role: 'tool', tool_call_id: 'zzz', content: '1' },
        { role: 'assistant', content: '' },
      ],
    });
    await post('/chat/completions', { model: 'm', messages: [] });
    server.setFallback(undefined);
    expect(server.violations).toEqual([
      expect.stringMatching(/tool call\(s\) b of messages\[1\] not answered before messages\[3\] \(user\)/),
      expect.stringMatching(/messages\[4\] answers tool call zzz.*nearest preceding assistant/),
      expect.stringMatching(/messages\[5\] \(assistant\) has neither content nor tool calls/),
      expect.stringMatching(/request #2 .*messages must be a non-empty array/),
    ]);
  });

  it('flags Anthropic tool_result without tool_use, missing results and empty content', async () => {
    server.setFallback({ text: 'ok' });
    const use = (id: string): Json => ({ type: 'tool_use', id, name: 'f', input: {} });
    const result = (id: string): Json => ({ type: 'tool_result', tool_use_id: id, content: 'r' });
    await post('/v1/messages', anthropicBody([
      { role: 'user', content: [{ type: 'text', text: 'u' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'calling' }, use('t1'), use('t2')] },
      { role: 'user', content: [result('t1'), result('t2')] },
    ]));
    expect(server.violations).toEqual([]);
    await post('/v1/messages', anthropicBody([
      { role: 'user', content: 'u' },
      { role: 'assistant', content: [use('t1'), use('t2')] },
      { role: 'user', content: [result('t1'), { type: 'text', text: '' }] },
      { role: 'user', content: [result('t9')] },
      { role: 'assistant', content: [] },
    ]));
    server.setFallback(undefined);
    expect(server.violations).toEqual([
      expect.stringMatching(/messages\[2\]\.content\[1\] is an empty text block/),
      expect.stringMatching(/tool_use t2 of messages\[1\] has no tool_result in the next message/),
      expect.stringMatching(/messages\[3\] has a tool_result for t9/),
      expect.stringMatching(/messages\[4\] \(assistant\) has empty content/),
    ]);
  });
});

describe('canonicalPrompt and the simulated prefix cache', () => {
  it('is a byte-prefix extension across turns and ignores moving cache_control markers', async () => {
    server.setFallback({ text: 'ok' });
    const big = 'x'.repeat(4000);
    const turn1 = [{ role: 'user', content: [{ type: 'text', text: big, cache_control: { type: 'ephemeral' } }] }];
    const turn2 = [
      { role: 'user', content: [{ type: 'text', text: big }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      { role: 'user', content: [{ type: 'text', text: 'more', cache_control: { type: 'ephemeral' } }] },
    ];
    const tools = [{ name: 't', description: 'd', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }];
    const first = (await (await post('/v1/messages', anthropicBody(turn1, { tools, stream: false }))).json()) as Json;
    const second = (await (await post('/v1/messages', anthropicBody(turn2, { tools, stream: false }))).json()) as Json;
    server.setFallback(undefined);
    const [a, b] = server.requests.map(canonicalPrompt);
    expect(b!.startsWith(a!)).toBe(true);
    expect(a).not.toContain('cache_control');
    const usage1 = first['usage'] as Record<string, number>;
    const usage2 = second['usage'] as Record<string, number>;
    expect(usage1['cache_read_input_tokens']).toBe(0);
    const expectedHit = Math.floor(Math.floor(commonPrefixBytes(a!, b!) / 4) / 64) * 64;
    expect(expectedHit).toBeGreaterThan(0);
    expect(usage2['cache_read_input_tokens']).toBe(expectedHit);
    const total2 = usage2['input_tokens']! + usage2['cache_read_input_tokens']! + usage2['cache_creation_input_tokens']!;
    expect(total2).toBe(Math.ceil(Buffer.byteLength(b!) / 4));
  });

  it('simulates the OpenAI-wire cache from the previous request on the same wire', async () => {
    server.setFallback({ text: 'ok' });
    const history = [{ role: 'system', content: 's'.repeat(3000) }, { role: 'user', content: 'one' }];
    await post('/chat/completions', { model: 'm', messages: history });
    const again = (await (await post('/chat/completions', {
      model: 'm',
      messages: [...history, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'two' }],
    })).json()) as Json;
    server.setFallback(undefined);
    const usage = again['usage'] as Record<string, number>;
    expect(usage['prompt_cache_hit_tokens']).toBeGreaterThan(0);
    expect(usage['prompt_cache_hit_tokens']! % 64).toBe(0);
    expect(usage['prompt_cache_hit_tokens']).toBeLessThanOrEqual(usage['prompt_tokens']!);
  });
});
