import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canonicalPrompt, ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

/** Environment for a DeepSeek run against the scripted server. */
function deepseekEnv(home: string, extra: Record<string, string> = {}) {
  return { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1', ...extra };
}
function anthropicEnv(home: string) {
  return { SEEK_HOME: home, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.anthropicBaseUrl, SEEK_RETRY_BASE_MS: '1' };
}

function sessionFiles(home: string): string[] {
  const projects = join(home, 'projects');
  if (!existsSync(projects)) return [];
  return readdirSync(projects).flatMap((pid) => {
    const dir = join(projects, pid, 'sessions');
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f)) : [];
  });
}

function multiToolScript() {
  server.enqueue(
    { reasoning: 'Look first.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }, { name: 'glob', arguments: { pattern: '**/*.md' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'README.md', old_string: '# demo', new_string: '# demo project' } }] },
    { toolCalls: [{ name: 'bash', arguments: { command: 'head -1 README.md' } }] },
    { text: 'Renamed the heading to **demo project**.' },
  );
}

describe('seek -p end to end', () => {
  it('prints its version and usage, and exits 2 on bad usage', async () => {
    const { root } = makeProject();
    const version = await runSeek(['--version'], { cwd: root });
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^seek \d+\.\d+\.\d+/);
    const help = await runSeek(['--help'], { cwd: root });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--output-format');
    const bad = await runSeek(['--no-such-flag'], { cwd: root });
    expect(bad.code).toBe(2);
    const noPrompt = await runSeek(['-p'], { cwd: root });
    expect(noPrompt.code).toBe(2);
  });

  it('explains a missing key in one paragraph and exits 1', async () => {
    const { root, home } = makeProject();
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: { SEEK_HOME: home } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('DEEPSEEK_API_KEY');
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('does a multi-tool task through DeepSeek (OpenAI wire)', async () => {
    const { root, home } = makeProject();
    multiToolScript();
    const run = await runSeek(['-p', 'rename the heading', '--yolo'], { cwd: root, env: deepseekEnv(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Renamed the heading to **demo project**.\n');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# demo project\n');
    expect(server.requests).toHaveLength(4);
    expect(server.requests.every((r) => r.wire === 'openai')).toBe(true);
    expect(server.violations).toEqual([]);
    const bashResult = server.requests[3]!.body.messages.at(-1);
    expect(bashResult).toMatchObject({ role: 'tool' });
    expect(bashResult.content).toContain('# demo project');
    // DeepSeek's reasoning_content goes back with the assistant message it belongs to.
    expect(server.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'assistant').reasoning_content).toBe('Look first.');
  });

  it('does the same task through Anthropic Messages', async () => {
    const { root, home } = makeProject();
    multiToolScript();
    const run = await runSeek(['-p', 'rename the heading', '--yolo', '--output-format', 'json'], { cwd: root, env: anthropicEnv(home) });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ type: 'result', subtype: 'success', is_error: false, result: 'Renamed the heading to **demo project**.', num_turns: 4 });
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# demo project\n');
    expect(server.requests.every((r) => r.wire === 'anthropic')).toBe(true);
    expect(server.violations).toEqual([]);
    expect(result.usage.input_tokens).toBeGreaterThan(0);
    expect(result.usage.cache_read_input_tokens).toBeGreaterThan(0);
  });

  it('denies writes and commands without --yolo, says so on stderr, and finishes', async () => {
    const { root, home } = makeProject();
    server.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'x' } }, { name: 'bash', arguments: { command: 'touch made-by-bash' } }] },
      { text: 'I could not write the file.' },
    );
    const run = await runSeek(['-p', 'create new.txt'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('I could not write the file.\n');
    expect(run.stderr).toContain('--yolo');
    expect(existsSync(join(root, 'new.txt'))).toBe(false);
    expect(existsSync(join(root, 'made-by-bash'))).toBe(false);
    const results = server.requests[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(results).toHaveLength(2);
    for (const result of results) expect(result.content).toContain('--yolo');
  });

  it('keeps --plan read-only even with --yolo', async () => {
    const { root, home } = makeProject();
    server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'plan.txt', content: 'x' } }] }, { text: 'Plan: 1. write plan.txt' });
    const run = await runSeek(['-p', 'plan it', '--plan', '--yolo'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(existsSync(join(root, 'plan.txt'))).toBe(false);
    expect(server.requests[0]!.body.messages.at(-1).content).toContain('Plan mode');
  });
});

describe('failure injection', () => {
  it('retries after HTTP 429 with retry-after and succeeds', async () => {
    const { root, home } = makeProject();
    server.enqueue({ httpError: { status: 429, message: 'slow down', retryAfterSeconds: 0 } }, { text: 'ok after retry' });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('ok after retry\n');
    expect(run.stderr).toMatch(/retrying/);
    expect(server.requests).toHaveLength(2);
  });

  it('gives a clear error after repeated HTTP 500s and exits 1', async () => {
    const { root, home } = makeProject();
    server.setFallback({ httpError: { status: 500, message: 'upstream exploded' } });
    const run = await runSeek(['-p', 'hi', '--output-format', 'json'], { cwd: root, env: deepseekEnv(home, { SEEK_MAX_RETRIES: '2' }) });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ type: 'result', subtype: 'error', is_error: true });
    expect(result.error).toMatch(/500/);
    expect(result.error).toMatch(/3 attempts/);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a stream cut mid-way', async () => {
    const { root, home } = makeProject();
    server.enqueue({ text: 'this answer is cut off before it ends', cutAfterChunks: 2 }, { text: 'complete answer' });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('complete answer\n');
  });

  it('times out a hung stream and retries', async () => {
    const { root, home } = makeProject();
    server.enqueue({ hang: true }, { text: 'after the hang' });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: deepseekEnv(home, { SEEK_STREAM_IDLE_TIMEOUT_MS: '300' }) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('after the hang\n');
  });

  it('answers malformed tool arguments with a corrective error and goes on', async () => {
    const { root, home } = makeProject();
    server.enqueue({ toolCalls: [{ name: 'read_file', arguments: '{"path": "README.md"' }] }, { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] }, { text: 'fixed' });
    const run = await runSeek(['-p', 'read it'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('fixed\n');
    const firstResult = server.requests[1]!.body.messages.at(-1);
    expect(firstResult.content).toMatch(/not valid JSON/);
    expect(server.requests[2]!.body.messages.at(-1).content).toContain('# demo');
  });

  it('cancels cleanly on SIGINT: exit 1, no dangling tool call in the transcript', async () => {
    const { root, home } = makeProject();
    server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'sleep 30' } }] });
    const run = await runSeek(['-p', 'wait', '--yolo'], {
      cwd: root,
      env: deepseekEnv(home),
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (server.requests.length >= 1) {
            clearInterval(poll);
            setTimeout(() => child.kill('SIGINT'), 300);
          }
        }, 20);
      },
    });
    expect(run.code).toBe(1);
    const [file] = sessionFiles(home);
    const lines = readFileSync(file!, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const messages = lines.filter((l) => l.type === 'message').map((l) => l.message);
    const calls = messages.flatMap((m) => m.toolCalls ?? []).map((c: { id: string }) => c.id);
    const answered = messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
    expect(answered).toEqual(calls);
  });
});

describe('sessions, hooks and the prefix cache', () => {
  it('resumes a session with its history, lists it, and keeps the prefix byte-stable across the resume', async () => {
    const { root, home } = makeProject();
    server.enqueue({ text: 'first answer' });
    const first = await runSeek(['-p', 'first question', '--output-format', 'json'], { cwd: root, env: deepseekEnv(home) });
    const sid = JSON.parse(first.stdout).session_id as string;
    expect(sid).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);

    server.enqueue({ text: 'second answer' });
    const second = await runSeek(['-p', 'second question', '--resume', sid, '--output-format', 'json'], { cwd: root, env: deepseekEnv(home) });
    expect(JSON.parse(second.stdout).session_id).toBe(sid);
    const contents = server.requests[1]!.body.messages.map((m: { content: string }) => m.content);
    expect(contents).toEqual([expect.any(String), 'first question', 'first answer', 'second question']);
    expect(canonicalPrompt(server.requests[1]!).startsWith(canonicalPrompt(server.requests[0]!))).toBe(true);

    server.enqueue({ text: 'third answer' });
    const third = await runSeek(['-c', '-p', 'third'], { cwd: root, env: deepseekEnv(home) });
    expect(third.stdout).toBe('third answer\n');
    expect(server.requests[2]!.body.messages).toHaveLength(6);

    const list = await runSeek(['-list'], { cwd: root, env: deepseekEnv(home) });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(sid);
    expect(list.stdout).toContain('first question');
  });

  it('runs a trusted project pre_tool hook that denies a tool', async () => {
    const { root, home } = makeProject();
    mkdirSync(join(root, '.seek'));
    writeFileSync(
      join(root, '.seek/hooks.toml'),
      `[[pre_tool]]\nname = "no-bash"\ncommand = 'echo "bash is off-limits in this repo"; exit 3'\nmatch = { tool = "bash" }\n`,
    );
    const trust = await runSeek(['hooks', 'trust'], { cwd: root, env: { SEEK_HOME: home } });
    expect(trust.code).toBe(0);
    server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch hooked' } }] }, { text: 'the hook stopped me' });
    const run = await runSeek(['-p', 'run it', '--yolo'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(existsSync(join(root, 'hooked'))).toBe(false);
    expect(server.requests[1]!.body.messages.at(-1).content).toContain('bash is off-limits in this repo');
    const audit = readFileSync(join(home, 'hooks-audit.jsonl'), 'utf8');
    expect(audit).toContain('"denied":true');
  });

  it('runs the hooks of a user hooks.toml when the project has none (hooks load only when a file exists)', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'hooks.toml'), `[[pre_tool]]\nname = "no-bash"\ncommand = 'echo "no bash for this user"; exit 3'\nmatch = { tool = "bash" }\n`);
    server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch hooked' } }] }, { text: 'the hook stopped me' });
    const run = await runSeek(['-p', 'run it', '--yolo'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(existsSync(join(root, 'hooked'))).toBe(false);
    expect(server.requests[1]!.body.messages.at(-1).content).toContain('no bash for this user');
  });

  it('sends byte-identical system prompt and tools, and an append-only history, over a 10-turn session', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n', 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    for (let i = 0; i < 9; i++) {
      server.enqueue({ toolCalls: [{ name: i % 2 ? 'read_file' : 'grep', arguments: i % 2 ? { path: 'a.txt' } : { pattern: `a${i}` } }] });
    }
    server.enqueue({ text: 'done' });
    const run = await runSeek(['-p', 'look around'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(10);
    const prompts = server.requests.map(canonicalPrompt);
    const firstTools = JSON.stringify(server.requests[0]!.body.tools);
    for (let i = 1; i < prompts.length; i++) {
      expect(JSON.stringify(server.requests[i]!.body.tools)).toBe(firstTools);
      expect(server.requests[i]!.body.messages[0]).toEqual(server.requests[0]!.body.messages[0]);
      expect(prompts[i]!.startsWith(prompts[i - 1]!)).toBe(true);
    }
  });

  it('streams events as JSON lines and ends with the result object', async () => {
    const { root, home } = makeProject();
    server.enqueue({ toolCalls: [{ name: 'list_dir', arguments: {} }] }, { text: 'listed' });
    const run = await runSeek(['-p', 'list', '--output-format', 'stream-json'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const types = lines.map((l) => l.type);
    expect(types[0]).toBe('system');
    expect(types).toContain('tool_start');
    expect(types).toContain('tool_end');
    expect(types).toContain('text_delta');
    expect(types.at(-1)).toBe('result');
    expect(lines.at(-1)).toMatchObject({ subtype: 'success', result: 'listed', num_turns: 2 });
    const usage = lines.at(-1).usage;
    const perTurn = lines.filter((l) => l.type === 'usage');
    expect(usage.input_tokens).toBe(perTurn.reduce((n, l) => n + l.usage.input_tokens, 0));
    expect(lines.at(-1).total_cost_usd).toBeGreaterThan(0);
  });
});
