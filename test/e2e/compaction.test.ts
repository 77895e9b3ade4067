import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canonicalPrompt, ScriptedServer, type RecordedRequest, type ScriptedReply } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { compactionSummaryMessage } from '../../src/session/format.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function deepseekEnv(home: string, extra: Record<string, string> = {}) {
  return { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1', ...extra };
}
function anthropicEnv(home: string) {
  return { SEEK_HOME: home, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.anthropicBaseUrl, SEEK_RETRY_BASE_MS: '1' };
}

function sessionLines(home: string): Array<Record<string, unknown>> {
  const projects = join(home, 'projects');
  const files = readdirSync(projects).flatMap((pid) => {
    const dir = join(projects, pid, 'sessions');
    return existsSync(dir) ? readdirSync(dir).map((f) => join(dir, f)) : [];
  });
  expect(files).toHaveLength(1);
  return readFileSync(files[0]!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The summariser's request is the one without tools. */
const isSummariser = (req: RecordedRequest): boolean => !Array.isArray(req.body.tools) || req.body.tools.length === 0;

const BRIEF = 'BRIEF: the user wants the README heading renamed; README.md read; next step: edit README.md.';

/** Two tool turns (so the history is worth compacting), the second one reporting `fullUsage`. */
function twoToolTurns(fullUsage: { input: number; output: number }): ScriptedReply[] {
  return [
    { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }], usage: { input: 1_000, output: 10 } },
    { toolCalls: [{ name: 'list_dir', arguments: {} }], usage: fullUsage },
  ];
}

describe('automatic context compaction', () => {
  it('summarises a nearly full window, continues from the summary, persists it, and resumes byte-identically', async () => {
    const { root, home } = makeProject();
    server.enqueue(
      ...twoToolTurns({ input: 900_000, output: 10 }),
      { text: BRIEF, usage: { input: 5_000, output: 200 } },
      { text: 'done after compaction', usage: { input: 300, output: 5 } },
    );
    const run = await runSeek(['-p', 'rename the README heading', '--output-format', 'json'], { cwd: root, env: deepseekEnv(home) });
    expect(run.code).toBe(0);
    expect(server.violations).toEqual([]);
    expect(server.requests).toHaveLength(4);
    expect(server.requests.map(isSummariser)).toEqual([false, false, true, false]);

    // The summariser gets the conversation as text: the task, the calls, the tool results.
    const summariser = server.requests[2]!.body;
    expect(summariser.model).toBe('deepseek-v4-flash');
    const prompt = summariser.messages.at(-1).content as string;
    expect(prompt).toContain('rename the README heading');
    expect(prompt).toContain('[called read_file({"path":"README.md"})]');
    expect(prompt).toContain('# demo');
    expect(prompt).toContain('[called list_dir({})]');

    // The run goes on from the summary alone, with the session's own system prompt and tools.
    const next = server.requests[3]!.body;
    expect(next.messages).toHaveLength(2);
    expect(next.messages[0]).toEqual(server.requests[0]!.body.messages[0]);
    expect(next.messages[1]).toEqual({ role: 'user', content: compactionSummaryMessage(BRIEF).content });
    expect(next.tools).toEqual(server.requests[0]!.body.tools);

    // The bill includes the summariser's tokens.
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ subtype: 'success', result: 'done after compaction', num_turns: 3 });
    expect(result.usage.input_tokens).toBe(1_000 + 900_000 + 5_000 + 300);
    expect(result.usage.output_tokens).toBe(10 + 10 + 200 + 5);

    const lines = sessionLines(home);
    const index = lines.findIndex((l) => l.type === 'compaction');
    expect(lines[index]).toMatchObject({ type: 'compaction', summary: BRIEF, replaces_through: index - 2 }); // index - 1 - header

    // Resuming sends the summary-based history, byte for byte what the continuing run sent.
    server.enqueue({ text: 'resumed answer', usage: { input: 400, output: 5 } });
    const resumed = await runSeek(['-p', 'next question', '--resume', result.session_id as string], { cwd: root, env: deepseekEnv(home) });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('resumed answer\n');
    const after = server.requests[4]!;
    expect(after.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(canonicalPrompt(after).startsWith(canonicalPrompt(server.requests[3]!))).toBe(true);
    expect(server.violations).toEqual([]);
  });

  it('honours SEEK_COMPACT_THRESHOLD', async () => {
    const { root, home } = makeProject();
    server.enqueue(...twoToolTurns({ input: 600_000, output: 10 }), { text: 'no compaction at 0.85' });
    const plain = await runSeek(['-p', 'look around'], { cwd: root, env: deepseekEnv(home) });
    expect(plain.code).toBe(0);
    expect(server.requests.map(isSummariser)).toEqual([false, false, false]);

    server.reset();
    server.enqueue(...twoToolTurns({ input: 600_000, output: 10 }), { text: BRIEF }, { text: 'compacted at 0.5' });
    const lowered = await runSeek(['-p', 'look around'], { cwd: root, env: deepseekEnv(home, { SEEK_COMPACT_THRESHOLD: '0.5' }) });
    expect(lowered.code).toBe(0);
    expect(lowered.stdout).toBe('compacted at 0.5\n');
    expect(server.requests.map(isSummariser)).toEqual([false, false, true, false]);
  });

  it('goes on without compacting when the summarising request fails', async () => {
    const { root, home } = makeProject();
    server.enqueue(
      ...twoToolTurns({ input: 900_000, output: 10 }),
      { httpError: { status: 500, message: 'summariser down' } },
      { text: 'finished anyway' },
    );
    const run = await runSeek(['-p', 'look around'], { cwd: root, env: deepseekEnv(home, { SEEK_MAX_RETRIES: '0' }) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('finished anyway\n');
    expect(server.requests.map(isSummariser)).toEqual([false, false, true, false]);
    // The full history was sent: the failed compaction replaced nothing.
    expect(server.requests[3]!.body.messages).toHaveLength(6);
    expect(sessionLines(home).some((l) => l.type === 'compaction')).toBe(false);
  });

  it('keeps the Anthropic history valid: the summary and the next prompt share one user message', async () => {
    const { root, home } = makeProject();
    server.enqueue(
      ...twoToolTurns({ input: 190_000, output: 10 }), // claude-sonnet-4-6: 200K window
      { text: BRIEF },
      { httpError: { status: 400, message: 'scripted failure after the compaction' } },
    );
    const first = await runSeek(['-p', 'rename the README heading', '--output-format', 'json'], { cwd: root, env: anthropicEnv(home) });
    expect(first.code).toBe(1);
    expect(server.requests.map(isSummariser)).toEqual([false, false, true, false]);
    expect(server.requests[2]!.body.system[0].text).not.toBe(server.requests[0]!.body.system[0].text);

    // The session now holds only the summary; the resumed prompt follows it directly.
    server.enqueue({ text: 'resumed on anthropic' });
    const sid = JSON.parse(first.stdout).session_id as string;
    const resumed = await runSeek(['-p', 'next question', '--resume', sid], { cwd: root, env: anthropicEnv(home) });
    expect(resumed.code).toBe(0);
    const body = server.requests[4]!.body;
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0].role).toBe('user');
    expect(body.messages[0].content.map((b: { text: string }) => b.text)).toEqual([compactionSummaryMessage(BRIEF).content, 'next question']);
    expect(body.tools.length).toBeGreaterThan(0);
    expect(server.violations).toEqual([]);
  });
});
