/**
 * Issue 34, end to end: the real `seek -p` process against the scripted server. A broken event in an
 * Anthropic stream is retried as in an OpenAI-style one; a refusal (Anthropic `stop_reason:
 * "refusal"`, an OpenAI `refusal` field, `finish_reason: "content_filter"`) ends the run as one, with
 * its own stop reason and exit 1; a thinking model's reasoning goes back with its tool-call turn
 * (Moonshot's Kimi answers 400 without it); and an HTTP error always names its status.
 */
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const suite = useScriptedServer();

const FILES = { 'README.md': '# demo\n', 'notes.txt': 'gamma-content-333\n' };

function anthropicEnv(home: string): Record<string, string> {
  return { SEEK_HOME: home, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: suite.server.anthropicBaseUrl, SEEK_RETRY_BASE_MS: '1' };
}
function deepseekEnv(home: string): Record<string, string> {
  return { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: suite.server.url, SEEK_RETRY_BASE_MS: '1' };
}
/** A generic OpenAI-compatible server (Moonshot, vLLM, SGLang): not DeepSeek's row. */
function compatibleArgs(home: string): { args: string[]; env: Record<string, string> } {
  return {
    args: ['--provider', 'openai-compatible', '--base-url', suite.server.openaiBaseUrl, '--model', 'kimi-k2-thinking'],
    env: { SEEK_HOME: home, OPENAI_API_KEY: 'test-key', SEEK_RETRY_BASE_MS: '1' },
  };
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('item 1: a malformed stream event is retried for every provider', () => {
  it('Anthropic: a broken JSON event is retried and the run ends with the full answer', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ text: 'a first try that breaks off', invalidJsonAfterChunks: 4 }, { text: 'the complete second answer' });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: anthropicEnv(home) });
    expect(run.stderr).toMatch(/Anthropic API sent a stream event that could not be parsed.*; retrying \(attempt 2 of \d+\)/);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('the complete second answer\n');
    expect(suite.server.requests).toHaveLength(2);
    expect(suite.server.requests[1]!.raw).toBe(suite.server.requests[0]!.raw);
  });

  it('Anthropic: a stream broken on every attempt fails after the retries, saying so', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.setFallback({ text: 'always broken', invalidJsonAfterChunks: 4 });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: { ...anthropicEnv(home), SEEK_MAX_RETRIES: '1' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^seek: Anthropic API sent a stream event that could not be parsed after 2 attempts: /m);
    expect(suite.server.requests).toHaveLength(2);
    suite.server.setFallback(undefined);
  });
});

describe('item 2: a refusal is reported as one', () => {
  it('Anthropic stop_reason "refusal" with no content: json result stop_reason refusal, is_error, exit 1', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ finishReason: 'refusal' });
    const run = await runSeek(['-p', 'hi', '--output-format', 'json'], { cwd: root, env: anthropicEnv(home) });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ type: 'result', subtype: 'error', is_error: true, stop_reason: 'refusal', result: '' });
    expect(result['error']).toBe('Anthropic API: the model refused to answer (stop_reason "refusal")');
    // Billed like any response: no hidden bill.
    expect((result['usage'] as Record<string, number>)['input_tokens']).toBeGreaterThan(0);
    expect(suite.server.requests).toHaveLength(1);
  });

  it('Anthropic refusal in text mode: nothing on stdout, the reason on stderr, exit 1', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ finishReason: 'refusal' });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: anthropicEnv(home) });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('seek: Anthropic API: the model refused to answer (stop_reason "refusal")\n');
  });

  it('stream-json: the turn ends with stop_reason refusal and so does the result', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ finishReason: 'refusal' });
    const run = await runSeek(['-p', 'hi', '--output-format', 'stream-json'], { cwd: root, env: anthropicEnv(home) });
    expect(run.code).toBe(1);
    const lines = jsonLines(run.stdout);
    expect(lines.find((line) => line['type'] === 'turn_end')).toMatchObject({ stop_reason: 'refusal' });
    expect(lines.at(-1)).toMatchObject({ type: 'result', stop_reason: 'refusal', is_error: true });
  });

  it('OpenAI `refusal` field: its words are the message, stop_reason refusal, exit 1', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ refusal: "I'm sorry, I can't help with that." });
    const run = await runSeek(['-p', 'hi', '--output-format', 'json'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ subtype: 'error', is_error: true, stop_reason: 'refusal', result: '' });
    expect(result['error']).toBe(`DeepSeek API: the model refused to answer (a "refusal" in the response): I'm sorry, I can't help with that.`);
  });

  it('finish_reason "content_filter": stop_reason refusal naming the filter, exit 1', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ text: 'Here is how', finishReason: 'content_filter' });
    const run = await runSeek(['-p', 'hi', '--output-format', 'json'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ subtype: 'error', stop_reason: 'refusal' });
    expect(result['error']).toBe(`DeepSeek API: the provider's content filter stopped the response (finish_reason "content_filter")`);
  });

  it('a refused turn stays out of the history the session goes on with', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ text: 'partial', finishReason: 'refusal' }, { text: 'fine answer' });
    const first = await runSeek(['-p', 'first question', '--output-format', 'json'], { cwd: root, env: anthropicEnv(home) });
    const sid = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    const second = await runSeek(['-p', 'second question', '--resume', sid], { cwd: root, env: anthropicEnv(home) });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('fine answer\n');
    const messages = suite.server.requests[1]!.body.messages as { role: string }[];
    expect(messages.map((message) => message.role)).toEqual(['user']);
    expect(JSON.stringify(messages)).not.toContain('partial');
    expect(suite.server.violations).toEqual([]);
  });
});

/** The assistant tool-call message the last request carried back. */
function assistantToolTurn(request: RecordedRequest): Record<string, unknown> | undefined {
  return (request.body.messages as Record<string, unknown>[]).filter((message) => message['role'] === 'assistant').at(-1);
}

/** Moonshot's rule, as its API answers it. */
function moonshot(reply: ScriptedReply): (request: RecordedRequest) => ScriptedReply {
  return (request) => {
    const turn = assistantToolTurn(request);
    if (turn && Array.isArray(turn['tool_calls']) && typeof turn['reasoning_content'] !== 'string') {
      return { httpError: { status: 400, message: 'thinking is enabled but reasoning_content is missing in assistant tool call message at index 2' } };
    }
    return reply;
  };
}

describe('item 3: reasoning goes back with its tool-call turn (OpenAI-compatible servers)', () => {
  const REASONING = 'I should read notes.txt first.\n  Then answer — “exactly”.';
  const ARGS = '{"path": "notes.txt"}';

  it('Kimi thinking (reasoning_content): sent back byte for byte; the run succeeds where Moonshot would answer 400', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ reasoning: REASONING, toolCalls: [{ id: 'functions.read_file:0', name: 'read_file', arguments: ARGS }] }, moonshot({ text: 'it says gamma' }));
    const { args, env } = compatibleArgs(home);
    const run = await runSeek(['-p', 'read notes', '--output-format', 'json', ...args], { cwd: root, env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'it says gamma' });
    const turn = assistantToolTurn(suite.server.requests[1]!)!;
    expect(turn['reasoning_content']).toBe(REASONING);
    expect(suite.server.requests[1]!.raw).toContain(JSON.stringify(REASONING));
    expect(turn).not.toHaveProperty('reasoning');
  });

  it('a server that streams `reasoning` gets it back under `reasoning`', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ reasoning: REASONING, reasoningField: 'reasoning', toolCalls: [{ name: 'read_file', arguments: ARGS }] }, { text: 'done' });
    const { args, env } = compatibleArgs(home);
    const run = await runSeek(['-p', 'read notes', ...args], { cwd: root, env });
    expect(run.code).toBe(0);
    const turn = assistantToolTurn(suite.server.requests[1]!)!;
    expect(turn['reasoning']).toBe(REASONING);
    expect(turn).not.toHaveProperty('reasoning_content');
  });

  it('a model that never sent reasoning: the tool-call turn has no reasoning field (bytes as before)', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ toolCalls: [{ id: 'call_plain', name: 'read_file', arguments: ARGS }] }, { text: 'done' });
    const { args, env } = compatibleArgs(home);
    const run = await runSeek(['-p', 'read notes', ...args], { cwd: root, env });
    expect(run.code).toBe(0);
    const turn = assistantToolTurn(suite.server.requests[1]!)!;
    expect(Object.keys(turn)).toEqual(['role', 'content', 'tool_calls']);
  });
});

describe('item 4: every HTTP error names its status', () => {
  it('Anthropic 400 "prompt is too long": classified as overflow, and the message says HTTP 400', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ httpError: { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' } });
    const run = await runSeek(['-p', 'hi', '--output-format', 'json'], { cwd: root, env: anthropicEnv(home) });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result['error']).toMatch(/HTTP 400/);
    expect(result['error']).toContain("longer than the model's context window");
    expect(result['error']).toContain('prompt is too long: 210000 tokens > 200000 maximum');
  });

  it('OpenAI-style 400 "maximum context length": the message says HTTP 400', async () => {
    const { root, home } = makeProject(FILES);
    suite.server.enqueue({ httpError: { status: 400, message: "This model's maximum context length is 131072 tokens." } });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^seek: DeepSeek API rejected the prompt .*\(HTTP 400\): This model's maximum context length/m);
  });
});
