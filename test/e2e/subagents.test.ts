/**
 * Subagents through the real `seek` process against the scripted model server (OpenAI wire, as
 * DeepSeek): parallel children, what the parent and the children send, the bill, the index on
 * disk, crash recovery, kill from another process, and promotion of a child to a session.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { costOf, lookupModel } from '../../src/providers/catalog.js';
import { ScriptedServer, type RecordedRequest, type ScriptedReply } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { hasSandbox } from '../support/sandbox.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
  server.setFallback(undefined);
});

const USAGE = { input: 1000, output: 100, cacheRead: 600 };
const env = (home: string, extra: Record<string, string> = {}) => ({
  SEEK_HOME: home,
  DEEPSEEK_API_KEY: 'k',
  DEEPSEEK_BASE_URL: server.url,
  SEEK_RETRY_BASE_MS: '1',
  ...extra,
});

interface Req {
  child: boolean;
  system: string;
  messages: Array<{ role: string; content?: string; tool_calls?: unknown[] }>;
  tools: string[];
  firstUser: string;
  turn: number;
}
function view(request: RecordedRequest): Req {
  const messages = request.body.messages as Req['messages'];
  const system = messages[0]?.role === 'system' ? String(messages[0].content) : '';
  const firstUser = messages.find((m) => m.role === 'user')?.content ?? '';
  return {
    child: system.includes('\n# Subagent\n'),
    system,
    messages,
    tools: ((request.body.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name),
    firstUser: String(firstUser),
    turn: messages.filter((m) => m.role === 'assistant').length,
  };
}

const agentCall = (prompt: string, type = 'explore') => ({ name: 'agent', arguments: { description: `look at ${prompt}`, prompt, subagent_type: type } });

function route(handler: (req: Req) => ScriptedReply) {
  server.setFallback((request) => ({ usage: USAGE, ...handler(view(request)) }));
}

function indexLines(home: string): Array<Record<string, unknown>> {
  const projects = join(home, 'projects');
  const [pid] = readdirSync(projects);
  return readFileSync(join(projects, pid!, 'subagents.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('subagents end to end', () => {
  it('runs three explore children at once; the parent gets exactly three summaries; the bill adds up', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n', 'src/a.ts': 'export const a = 1;\n' });
    route((req) => {
      if (req.child) {
        return req.turn === 0
          ? { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }], delayMs: 400 }
          : { text: `Findings for ${req.firstUser}: a = 1 at src/a.ts:1` };
      }
      return req.turn === 0 ? { toolCalls: [agentCall('alpha'), agentCall('beta'), agentCall('gamma')] } : { text: 'All three agree: a = 1.' };
    });
    const run = await runSeek(['-p', 'what is a?', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.result).toBe('All three agree: a = 1.');
    expect(server.violations).toEqual([]);

    const requests = server.requests.map(view);
    const parent = requests.filter((r) => !r.child);
    expect(parent).toHaveLength(2);
    const toolMessages = parent[1]!.messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(3);
    expect(toolMessages.map((m) => String(m.content).split('\n')[0])).toEqual([
      '[agent: completed] Findings for alpha: a = 1 at src/a.ts:1',
      '[agent: completed] Findings for beta: a = 1 at src/a.ts:1',
      '[agent: completed] Findings for gamma: a = 1 at src/a.ts:1',
    ]);
    // None of the children's own messages (their read_file calls and results) reach the parent.
    expect(JSON.stringify(parent[1]!.messages)).not.toContain('export const a');
    expect(parent[1]!.messages.filter((m) => m.role === 'assistant')).toHaveLength(1);

    const childFirst = requests.filter((r) => r.child && r.turn === 0);
    expect(childFirst).toHaveLength(3);
    for (const child of childFirst) {
      expect(child.messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(['alpha', 'beta', 'gamma']).toContain(child.firstUser);
      expect(child.tools).not.toContain('agent');
      expect(child.system.startsWith(parent[0]!.system)).toBe(true);
    }
    // The three first child requests were in flight together (each arrived before any was answered).
    const firsts = server.requests.filter((r) => view(r).child && view(r).turn === 0);
    const lastArrival = Math.max(...firsts.map((r) => r.receivedAt));
    const firstAnswer = Math.min(...firsts.map((r) => r.respondedAt!));
    expect(lastArrival).toBeLessThan(firstAnswer);

    // The bill: every request's usage, priced with the catalog, is in the result: no hidden cost.
    const perRequest = costOf({ inputTokens: 1000, outputTokens: 100, cacheReadTokens: 600, cacheWriteTokens: 0 }, lookupModel('deepseek-v4-flash').pricing);
    expect(server.requests).toHaveLength(8);
    expect(result.usage).toMatchObject({ input_tokens: 8000, output_tokens: 800, cache_read_input_tokens: 4800 });
    expect(result.total_cost_usd).toBeCloseTo(8 * perRequest, 9);
    expect(result.subagents).toHaveLength(3);
    expect(result.subagents.map((c: { status: string; type: string }) => `${c.type}:${c.status}`)).toEqual(['explore:completed', 'explore:completed', 'explore:completed']);
    expect(result.subagents[0].total_cost_usd).toBeCloseTo(2 * perRequest, 9);

    const events = indexLines(home);
    expect(events.filter((e) => e.event === 'started')).toHaveLength(3);
    expect(events.filter((e) => e.event === 'completed')).toHaveLength(3);
  });

  it('tags the children\'s stream-json lines with their sub-sid', async () => {
    const { root, home } = makeProject();
    route((req) => (req.child ? { text: 'child says hi' } : req.turn === 0 ? { toolCalls: [agentCall('x')] } : { text: 'done' }));
    const run = await runSeek(['-p', 'go', '--output-format', 'stream-json'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const start = lines.find((line) => line.type === 'subagent_start');
    expect(start).toMatchObject({ agent_type: 'explore', description: 'look at x', depth: 1 });
    const childDeltas = lines.filter((line) => line.type === 'text_delta' && line.sub_sid);
    expect(childDeltas.every((line) => line.sub_sid === start.sub_sid)).toBe(true);
    expect(childDeltas.map((line) => line.text).join('')).toBe('child says hi');
    expect(lines.filter((line) => line.type === 'text_delta' && !line.sub_sid).map((line) => line.text).join('')).toBe('done');
    expect(lines.find((line) => line.type === 'subagent_end')).toMatchObject({ sub_sid: start.sub_sid, status: 'completed', turns: 1 });
    expect(lines.at(-1).type).toBe('result');
  });

  it('keeps a yolo parent\'s explore child from writing', async () => {
    const { root, home } = makeProject();
    route((req) => {
      if (!req.child) return req.turn === 0 ? { toolCalls: [agentCall('sneaky')] } : { text: 'done' };
      return req.turn === 0 ? { toolCalls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'x' } }, { name: 'bash', arguments: { command: 'touch y.txt' } }] } : { text: 'I could not write.' };
    });
    const run = await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(existsSync(join(root, 'x.txt'))).toBe(false);
    expect(existsSync(join(root, 'y.txt'))).toBe(false);
  });

  it.skipIf(!hasSandbox)('under --auto: an explore child\'s commands run read-only; an isolated child writes only in its worktree', async () => {
    const { root, home } = makeProject();
    const outside = join(home, '..', 'outside-auto');
    mkdirSync(outside);
    route((req) => {
      if (!req.child) {
        if (req.turn > 0) return { text: 'done' };
        return { toolCalls: [agentCall('reader'), { name: 'agent', arguments: { description: 'editor', prompt: 'edit', subagent_type: 'general-purpose', isolation: 'worktree' } }] };
      }
      if (req.turn > 0) return { text: 'finished' };
      if (req.system.includes('look at reader')) return { toolCalls: [{ name: 'bash', arguments: { command: 'touch from-explore.txt' } }] };
      return { toolCalls: [{ name: 'bash', arguments: { command: `echo edit > from-editor.txt; touch ${join(root, 'into-main-tree.txt')}; touch ${outside}/escaped.txt` } }] };
    });
    const run = await runSeek(['-p', 'go', '--auto', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(root, 'from-explore.txt'))).toBe(false);
    expect(existsSync(join(root, 'into-main-tree.txt'))).toBe(false);
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    // The editor's own write landed in its worktree (kept: it has changes).
    const worktrees = join(home, 'projects', readdirSync(join(home, 'projects'))[0]!, 'worktrees');
    const kept = readdirSync(worktrees).filter((name) => !name.endsWith('.json'));
    expect(kept.some((id) => existsSync(join(worktrees, id, 'from-editor.txt')))).toBe(true);
  });

  it('marks the children of a crashed process orphaned at the next start', async () => {
    const { root, home } = makeProject();
    route((req) => (req.child ? { hang: true } : { toolCalls: [agentCall('forever')] }));
    const run = runSeek(['-p', 'go'], {
      cwd: root,
      env: env(home),
      onSpawn: (child) => {
        void waitFor(() => server.requests.some((r) => view(r).child), 'the child request').then(() => child.kill('SIGKILL'));
      },
    });
    const crashed = await run;
    expect(crashed.signal).toBe('SIGKILL');
    expect(indexLines(home).map((e) => e.event)).toEqual(['started']);

    const list = await runSeek(['subagent', 'list', '--json'], { cwd: root, env: env(home) });
    expect(list.code).toBe(0);
    const records = JSON.parse(list.stdout);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 'orphaned', type: 'explore', description: 'look at forever' });
  });

  it('kills a running child from another seek process', async () => {
    const { root, home } = makeProject();
    route((req) => (req.child ? { hang: true } : req.turn === 0 ? { toolCalls: [agentCall('stuck')] } : { text: 'the child was killed' }));
    const parentRun = runSeek(['-p', 'go'], { cwd: root, env: env(home) });
    await waitFor(() => server.requests.some((r) => view(r).child), 'the child request');
    const started = indexLines(home).find((e) => e.event === 'started')!;
    const kill = await runSeek(['subagent', 'kill', String(started.sub_sid)], { cwd: root, env: env(home) });
    expect(kill.code).toBe(0);
    expect(kill.stdout).toContain(`killed ${started.sub_sid}`);
    const parent = await parentRun;
    expect(parent.code).toBe(0);
    const last = view(server.requests.at(-1)!);
    expect(String(last.messages.at(-1)!.content)).toMatch(/^\[agent: failed reason=killed\]/);
    expect(indexLines(home).map((e) => e.event)).toEqual(['started', 'killed']);
  });

  it('promotes a finished child to a session that continues with its history', async () => {
    const { root, home } = makeProject();
    route((req) => (req.child ? { text: 'The answer is in README.md.' } : req.turn === 0 ? { toolCalls: [agentCall('find it')] } : { text: 'done' }));
    const first = await runSeek(['-p', 'go'], { cwd: root, env: env(home) });
    expect(first.code).toBe(0);
    const subSid = String(indexLines(home).find((e) => e.event === 'started')!.sub_sid);

    server.reset();
    route(() => ({ text: 'continuing from the child' }));
    const resumed = await runSeek(['subagent', 'resume', subSid, '-p', 'and then?'], { cwd: root, env: env(home) });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('continuing from the child\n');
    const request = view(server.requests[0]!);
    expect(request.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(request.messages[1]!.content).toBe('find it');
    expect(request.system).not.toContain('# Subagent'); // it talks as the main agent now
    // A session again: agent is reachable through the catalog of tools on demand.
    const searchTool = (server.requests[0]!.body.tools as Array<{ function: { name: string; description: string } }>).find((tool) => tool.function.name === 'tool_search');
    expect(searchTool?.function.description).toMatch(/\bagent\b/);
    expect(request.messages[2]!.content).toBe('The answer is in README.md.');
    expect(indexLines(home).map((e) => e.event)).toEqual(['started', 'completed', 'promoted']);
  });

  it('fails fast beyond max_concurrent, and a config timeout ends a hanging child', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ subagents: { max_concurrent: 2, timeout_seconds: 0.5 } }));
    route((req) => (req.child ? { hang: true } : req.turn === 0 ? { toolCalls: [agentCall('a'), agentCall('b'), agentCall('c')] } : { text: 'done' }));
    const run = await runSeek(['-p', 'go', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const results = view(server.requests.at(-1)!).messages.filter((m) => m.role === 'tool').map((m) => String(m.content).split(']')[0]);
    expect(results.sort()).toEqual(['[agent: failed reason=timeout', '[agent: failed reason=timeout', '[agent: failed reason=too_many_subagents']);
  });
});
