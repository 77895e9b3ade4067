/**
 * The real `seek -p` process against the scripted server's failure injection: what real servers send
 * beyond a clean stream (an {"error"} object or `event: error` inside a 200 stream, a chunk that is
 * not JSON, parallel tool calls framed interleaved or without index/id, two calls sharing one id, no
 * finish_reason), checked by what the user sees (exit code, stdout, stderr) and what the model sees
 * (the next request).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function deepseekEnv(home: string): Record<string, string> {
  return { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' };
}
function anthropicEnv(home: string): Record<string, string> {
  return { SEEK_HOME: home, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.anthropicBaseUrl, SEEK_RETRY_BASE_MS: '1' };
}

/** Two files whose contents tell the two tool results apart. */
const FILES = { 'README.md': '# demo\n', 'first.txt': 'alpha-content-111\n', 'second.txt': 'beta-content-222\n' };
/** Argument text sent byte-for-byte (spacing and key order a re-serialisation would change). */
const FIRST_ARGS = '{"path": "first.txt",  "offset": 1}';
const SECOND_ARGS = '{ "path":"second.txt" }';
const PARALLEL_READS: ScriptedReply = {
  toolCalls: [
    { id: 'call_first', name: 'read_file', arguments: FIRST_ARGS },
    { id: 'call_second', name: 'read_file', arguments: SECOND_ARGS },
  ],
};

interface WireToolCall {
  id: string;
  function: { name: string; arguments: string };
}
interface WireMessage {
  role: string;
  content: string;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
}

/** The assistant's tool calls and the tool results as the second OpenAI request replays them. */
function replayedToolTurn(request: RecordedRequest): { calls: WireToolCall[]; results: WireMessage[] } {
  const messages = request.body.messages as WireMessage[];
  const assistant = messages.filter((message) => message.role === 'assistant').at(-1);
  return { calls: assistant?.tool_calls ?? [], results: messages.filter((message) => message.role === 'tool') };
}

function expectBothReadsReplayed(request: RecordedRequest, ids: { first: string; second: string }): void {
  const { calls, results } = replayedToolTurn(request);
  expect(calls.map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments }))).toEqual([
    { id: ids.first, name: 'read_file', arguments: FIRST_ARGS },
    { id: ids.second, name: 'read_file', arguments: SECOND_ARGS },
  ]);
  expect(results.map((result) => result.tool_call_id)).toEqual([ids.first, ids.second]);
  expect(results[0]!.content).toContain('alpha-content-111');
  expect(results[0]!.content).not.toContain('beta-content-222');
  expect(results[1]!.content).toContain('beta-content-222');
  expect(results[1]!.content).not.toContain('alpha-content-111');
}

describe('parallel OpenAI tool calls as real servers frame them (seek -p)', () => {
  it.each(['interleaved', 'no-index'] as const)('%s: both read_file calls run and reach the next request with their ids and exact arguments', async (framing) => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ ...PARALLEL_READS, toolCallFraming: framing }, { text: 'read both files' });
    const run = await runSeek(['-p', 'read both', '--output-format', 'json'], { cwd: root, env: deepseekEnv(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', is_error: false, result: 'read both files', num_turns: 2 });
    expect(server.requests).toHaveLength(2);
    expectBothReadsReplayed(server.requests[1]!, { first: 'call_first', second: 'call_second' });
    expect(server.violations).toEqual([]);
  });

  it('no-index-no-id: both calls run under two distinct ids of seek’s own, each result answering its call', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ ...PARALLEL_READS, toolCallFraming: 'no-index-no-id' }, { text: 'read both files' });
    const run = await runSeek(['-p', 'read both', '--output-format', 'json'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'read both files', num_turns: 2 });
    expect(server.requests).toHaveLength(2);
    const [first, second] = replayedToolTurn(server.requests[1]!).calls.map((call) => call.id);
    expect(first).toEqual(expect.any(String));
    expect(second).toEqual(expect.any(String));
    expect(first).not.toBe(second);
    // The scripted ids never reached seek: the ids are its own, so the framing really dropped them.
    expect([first, second]).not.toContain('call_first');
    expect([first, second]).not.toContain('call_second');
    expectBothReadsReplayed(server.requests[1]!, { first: first!, second: second! });
    expect(server.violations).toEqual([]);
  });

  it('interleaved bash calls under --yolo: both commands run, each output under its own call id', async () => {
    const { root, home } = makeProject(FILES);
    const firstArgs = '{"command": "echo first-echo-out"}';
    const secondArgs = '{"command":  "echo second-echo-out"}';
    server.enqueue(
      {
        toolCalls: [
          { id: 'call_echo_1', name: 'bash', arguments: firstArgs },
          { id: 'call_echo_2', name: 'bash', arguments: secondArgs },
        ],
        toolCallFraming: 'interleaved',
      },
      { text: 'both echoed' },
    );
    const run = await runSeek(['-p', 'echo twice', '--yolo'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('both echoed\n');
    const { calls, results } = replayedToolTurn(server.requests[1]!);
    expect(calls.map((call) => [call.id, call.function.arguments])).toEqual([
      ['call_echo_1', firstArgs],
      ['call_echo_2', secondArgs],
    ]);
    expect(results.map((result) => result.tool_call_id)).toEqual(['call_echo_1', 'call_echo_2']);
    expect(results[0]!.content).toContain('first-echo-out');
    expect(results[0]!.content).not.toContain('second-echo-out');
    expect(results[1]!.content).toContain('second-echo-out');
  });
});

describe('two tool calls sharing one id in a stream (seek -p)', () => {
  const DUPLICATES: ScriptedReply = {
    toolCalls: [
      { id: 'call_dup', name: 'read_file', arguments: FIRST_ARGS },
      { id: 'call_dup', name: 'read_file', arguments: SECOND_ARGS },
    ],
  };

  it.each(['indexed', 'interleaved', 'no-index'] as const)('OpenAI wire (%s framing): two calls with unique ids, each run once and answered, never merged', async (framing) => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ ...DUPLICATES, ...(framing !== 'indexed' ? { toolCallFraming: framing } : {}) }, { text: 'read both files' });
    const run = await runSeek(['-p', 'read both', '--output-format', 'json'], { cwd: root, env: deepseekEnv(home) });
    expect(run.stderr).toBe('');
    expect(run).toMatchObject({ code: 0 });
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'read both files', num_turns: 2 });
    expectBothReadsReplayed(server.requests[1]!, { first: 'call_dup', second: 'call_dup_2' });
    expect(server.violations).toEqual([]);
  });

  it('Anthropic wire: two tool_use blocks with one id become two calls with unique ids, each answered', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue(DUPLICATES, { text: 'read both files' });
    const run = await runSeek(['-p', 'read both', '--output-format', 'json'], { cwd: root, env: anthropicEnv(home) });
    expect(run).toMatchObject({ code: 0 });
    const messages = server.requests[1]!.body.messages as { role: string; content: { type: string; id?: string; tool_use_id?: string; input?: unknown; content?: unknown }[] }[];
    const uses = messages.filter((message) => message.role === 'assistant').at(-1)!.content.filter((block) => block.type === 'tool_use');
    expect(uses.map((block) => [block.id, block.input])).toEqual([
      ['call_dup', JSON.parse(FIRST_ARGS)],
      ['call_dup_2', JSON.parse(SECOND_ARGS)],
    ]);
    const results = messages.at(-1)!.content.filter((block) => block.type === 'tool_result');
    expect(results.map((block) => block.tool_use_id)).toEqual(['call_dup', 'call_dup_2']);
    expect(JSON.stringify(results[0]!.content)).toContain('alpha-content-111');
    expect(JSON.stringify(results[1]!.content)).toContain('beta-content-222');
    expect(server.violations).toEqual([]);
  });
});

describe('damaged and erroring OpenAI streams (seek -p)', () => {
  it('a stream without finish_reason completes without a retry', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ text: 'the whole answer, no finish reason', omitFinishReason: true });
    const run = await runSeek(['-p', 'hi', '--output-format', 'json'], { cwd: root, env: deepseekEnv(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'the whole answer, no finish reason', num_turns: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('tool calls in a stream without finish_reason still run, once', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ ...PARALLEL_READS, omitFinishReason: true }, { text: 'read both files' });
    const run = await runSeek(['-p', 'read both'], { cwd: root, env: deepseekEnv(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('read both files\n');
    expect(server.requests).toHaveLength(2);
    expectBothReadsReplayed(server.requests[1]!, { first: 'call_first', second: 'call_second' });
  });

  it('a chunk that is not JSON is retried and the run ends with the full answer', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ text: 'a first try that breaks off', invalidJsonAfterChunks: 2 }, { text: 'the complete second answer' });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('the complete second answer\n');
    expect(run.stderr).toMatch(/retrying \(attempt 2 of \d+\)/);
    expect(server.requests).toHaveLength(2);
    // The retry is the same request again, not a continuation carrying the broken partial.
    expect(server.requests[1]!.raw).toBe(server.requests[0]!.raw);
  });

  it('a retryable {"error"} object in the stream is retried and the run succeeds', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ text: 'partial answer', streamError: { afterChunks: 2, type: 'server_error', message: 'upstream overloaded' } }, { text: 'recovered answer' });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('recovered answer\n');
    expect(run.stderr).toContain('upstream overloaded');
    expect(run.stderr).toMatch(/retrying/);
    expect(server.requests).toHaveLength(2);
  });

  it('a non-retryable {"error"} object in the stream fails the run with exit 1 and says why on stderr', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ text: 'partial', streamError: { afterChunks: 2, type: 'invalid_request_error', message: 'bad tool schema' } });
    server.setFallback({ text: 'a retry must not happen' });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^seek: .*bad tool schema$/m);
    expect(run.stderr).not.toMatch(/retrying/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    // No half answer on stdout passes for a result.
    expect(run.stdout).toBe('');
    expect(server.requests).toHaveLength(1);
  });

  it('a non-retryable {"error"} object is reported in the JSON result', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ text: 'partial', streamError: { afterChunks: 2, type: 'invalid_request_error', message: 'bad tool schema' } });
    const run = await runSeek(['-p', 'hi', '--output-format', 'json'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ type: 'result', subtype: 'error', is_error: true });
    expect(result.error).toContain('bad tool schema');
    expect(server.requests).toHaveLength(1);
  });
});

describe('Anthropic wire (seek -p)', () => {
  it('parallel tool_use blocks both run; the results answer their ids and the inputs are kept', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ text: 'Reading both.', ...PARALLEL_READS }, { text: 'read both files' });
    const run = await runSeek(['-p', 'read both', '--output-format', 'json'], { cwd: root, env: anthropicEnv(home) });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'read both files', num_turns: 2 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests.every((request) => request.wire === 'anthropic')).toBe(true);
    const messages = server.requests[1]!.body.messages as { role: string; content: { type: string; id?: string; tool_use_id?: string; input?: unknown; content?: unknown }[] }[];
    const assistant = messages.filter((message) => message.role === 'assistant').at(-1)!;
    const uses = assistant.content.filter((block) => block.type === 'tool_use');
    expect(uses.map((block) => [block.id, block.input])).toEqual([
      ['call_first', JSON.parse(FIRST_ARGS)],
      ['call_second', JSON.parse(SECOND_ARGS)],
    ]);
    const results = messages.at(-1)!.content.filter((block) => block.type === 'tool_result');
    expect(results.map((block) => block.tool_use_id)).toEqual(['call_first', 'call_second']);
    expect(JSON.stringify(results[0]!.content)).toContain('alpha-content-111');
    expect(JSON.stringify(results[1]!.content)).toContain('beta-content-222');
    expect(server.violations).toEqual([]);
  });

  it('a retryable `event: error` in the stream is retried and the run succeeds', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ text: 'partial answer', streamError: { afterChunks: 3, type: 'overloaded_error', message: 'Overloaded' } }, { text: 'done now' });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: anthropicEnv(home) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('done now\n');
    expect(run.stderr).toMatch(/retrying/);
    expect(server.requests).toHaveLength(2);
  });

  it('a non-retryable `event: error` fails the run with exit 1 and says why on stderr', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue({ text: 'partial', streamError: { afterChunks: 3, type: 'invalid_request_error', message: 'messages.1: tool_use ids must be unique' } });
    server.setFallback({ text: 'a retry must not happen' });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: anthropicEnv(home) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^seek: .*messages\.1: tool_use ids must be unique$/m);
    expect(run.stderr).not.toMatch(/retrying/);
    // No half answer on stdout passes for a result.
    expect(run.stdout).toBe('');
    expect(server.requests).toHaveLength(1);
  });
});
