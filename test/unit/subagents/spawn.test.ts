/**
 * The subagent pillar end to end inside one process: a real session (openSession) with an injected
 * routed stream, real files under a temporary SEEK_HOME and a real git repository.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSession, type AgentSession } from '../../../src/runtime/session.js';
import type { SessionEvent } from '../../../src/runtime/events.js';
import type { ModelRequest, ToolResultMessage } from '../../../src/providers/types.js';
import { makeProject } from '../../support/seek-process.js';
import { routedStream, type FakeReply, type RouteInfo } from '../../support/fake-stream.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

interface Setup {
  route: (info: RouteInfo) => FakeReply;
  config?: Record<string, unknown>;
  files?: Record<string, string>;
  yolo?: boolean;
  interactive?: boolean;
  ask?: Parameters<typeof openSession>[0]['ask'];
}

async function setup(options: Setup) {
  const { root, home } = makeProject(options.files ?? { 'README.md': '# demo\n' });
  if (options.config) writeFileSync(join(home, 'config.json'), JSON.stringify(options.config));
  const stream = routedStream(options.route);
  const session = await openSession({
    cwd: root,
    env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test' },
    interactive: options.interactive ?? false,
    yolo: options.yolo ?? false,
    maxTurns: 50,
    stream,
    ...(options.ask ? { ask: options.ask } : {}),
  });
  sessions.push(session);
  const events: SessionEvent[] = [];
  session.subscribe((event) => events.push(event));
  return { root, home, session, stream, events };
}

const agentCall = (prompt: string, type = 'explore', extra: Record<string, unknown> = {}) => ({
  name: 'agent',
  arguments: { description: `task ${prompt}`, prompt, subagent_type: type, ...extra },
});

/** The catalog of tools a request reaches on demand (tool_search's description). */
const catalog = (request: ModelRequest): string => request.tools.find((tool) => tool.name === 'tool_search')?.description ?? '';

function toolResults(info: RouteInfo): ToolResultMessage[] {
  return info.request.messages.filter((message): message is ToolResultMessage => message.role === 'tool');
}

describe('spawning subagents', () => {
  it('runs three explore children in one turn; the parent sees three results and none of their messages', async () => {
    const { session, stream } = await setup({
      route: (info) => {
        if (info.child) return info.turn === 0 ? { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } : { text: `Summary for ${info.firstUser}` };
        return info.turn === 0 ? { toolCalls: [agentCall('one'), agentCall('two'), agentCall('three')] } : { text: 'all done' };
      },
    });
    const summary = await session.prompt('investigate');
    expect(summary.reason).toBe('completed');
    const parentRequests = stream.requests.filter((request) => !request.system.includes('\n# Subagent\n'));
    expect(parentRequests).toHaveLength(2);
    const second = parentRequests[1]!;
    const results = second.messages.filter((m) => m.role === 'tool') as ToolResultMessage[];
    expect(results.map((r) => r.content.split('\n')[0])).toEqual([
      '[agent: completed] Summary for one',
      '[agent: completed] Summary for two',
      '[agent: completed] Summary for three',
    ]);
    expect(results[0]!.content).toMatch(/\n\n— sub-sid: [0-9a-f]{6} · turns: 2 · tokens: 220$/);
    expect(JSON.stringify(second.messages)).not.toContain('# demo'); // the children's file reads stay with them

    const childFirst = stream.requests.filter((request) => request.system.includes('\n# Subagent\n') && request.messages.length === 1);
    expect(childFirst).toHaveLength(3);
    for (const request of childFirst) {
      expect(request.system.startsWith(parentRequests[0]!.system)).toBe(true);
      expect(request.messages).toEqual([{ role: 'user', content: expect.stringMatching(/^(one|two|three)$/) }]);
      // memory_recall is loaded on demand: declared are the read-only tools and the two fixed ones.
      expect(request.tools.map((tool) => tool.name)).toEqual(['read_file', 'glob', 'grep', 'list_dir', 'git', 'tool_search', 'call_tool']);
      expect(catalog(request)).toMatch(/^Load more tools' definitions \(query: names or words\) to call via call_tool: memory_recall \(project memory\)\.$/);
    }
    expect(summary.subagents.map((child) => child.status)).toEqual(['completed', 'completed', 'completed']);
  });

  it('rolls every child cost into the session and the run summary', async () => {
    const { session, stream } = await setup({
      route: (info) => (info.child ? { text: 'found' } : info.turn === 0 ? { toolCalls: [agentCall('a'), agentCall('b')] } : { text: 'ok' }),
    });
    const summary = await session.prompt('go');
    // fake-stream bills every response 100 in / 10 out / $0.001.
    expect(stream.requests).toHaveLength(4);
    expect(summary.usage.inputTokens).toBe(400);
    expect(summary.costUsd).toBeCloseTo(0.004, 9);
    expect(session.tracker.cumulative().costUsd).toBeCloseTo(0.004, 9);
    expect(summary.subagents.reduce((sum, child) => sum + child.costUsd, 0)).toBeCloseTo(0.002, 9);
  });

  it('fails calls beyond subagents.max_concurrent fast with too_many_subagents', async () => {
    const { session, stream } = await setup({
      config: { subagents: { max_concurrent: 2 } },
      route: (info) => (info.child ? { text: 'done', delayMs: 50 } : info.turn === 0 ? { toolCalls: [agentCall('a'), agentCall('b'), agentCall('c')] } : { text: 'ok' }),
    });
    await session.prompt('go');
    const results = toolResults({ request: stream.requests.at(-1)!, child: false, firstUser: '', turn: 1 });
    const heads = results.map((r) => r.content.split(']')[0]);
    expect(heads.filter((h) => h === '[agent: completed')).toHaveLength(2);
    expect(results.find((r) => r.content.startsWith('[agent: failed reason=too_many_subagents] 2 active'))).toBeDefined();
  });

  it('stops a child at its turn limit with max_turns_exceeded', async () => {
    const files = { 'README.md': '# demo\n', '.seek/agents/looper.md': '---\nname: looper\ndescription: loops\nmax_turns: 2\n---\nKeep reading.\n' };
    let n = 0;
    const { session, stream } = await setup({
      files,
      route: (info) => (info.child ? { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md', offset: ++n } }] } : info.turn === 0 ? { toolCalls: [agentCall('loop', 'looper')] } : { text: 'ok' }),
    });
    await session.prompt('go');
    const result = toolResults({ request: stream.requests.at(-1)!, child: false, firstUser: '', turn: 1 })[0]!;
    expect(result.content).toMatch(/^\[agent: failed reason=max_turns_exceeded\] the subagent reached its limit of 2 turns/);
    expect(result.isError).toBe(true);
  });

  it('times a child out by wall clock', async () => {
    const { session, stream } = await setup({
      config: { subagents: { timeout_seconds: 0.2 } },
      route: (info) => (info.child ? { text: 'late', delayMs: 5_000 } : info.turn === 0 ? { toolCalls: [agentCall('slow')] } : { text: 'ok' }),
    });
    await session.prompt('go');
    const result = toolResults({ request: stream.requests.at(-1)!, child: false, firstUser: '', turn: 1 })[0]!;
    expect(result.content).toMatch(/^\[agent: failed reason=timeout\]/);
  });

  it('tells a child to wrap up at 90% of its token budget, and fails it past the budget', async () => {
    let wrapUpSeen = false;
    const { session, stream } = await setup({
      config: { subagents: { budget_tokens: 1000 } },
      route: (info) => {
        if (!info.child) return info.turn === 0 ? { toolCalls: [agentCall('thrifty'), agentCall('greedy')] } : { text: 'ok' };
        const told = info.request.messages.some((m) => m.role === 'user' && m.content.includes('token budget'));
        if (info.firstUser === 'thrifty' && told) {
          wrapUpSeen = true;
          return { text: 'partial summary' };
        }
        return { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md', offset: info.turn + 1 } }] };
      },
    });
    await session.prompt('go');
    expect(wrapUpSeen).toBe(true);
    const results = toolResults({ request: stream.requests.at(-1)!, child: false, firstUser: '', turn: 1 });
    expect(results[0]!.content).toMatch(/^\[agent: completed\] partial summary/);
    expect(results[1]!.content).toMatch(/^\[agent: failed reason=budget_exceeded\] the subagent used \d+ of its 1000-token budget/);
  });

  it('cancels children with the parent turn; each transcript ends with the final marker', async () => {
    const controller = new AbortController();
    const { session, events } = await setup({
      route: (info) => (info.child ? { text: 'never', delayMs: 5_000 } : { toolCalls: [agentCall('a'), agentCall('b')] }),
    });
    const started = new Promise<void>((resolve) => session.subscribe((event) => event.type === 'subagent_start' && resolve()));
    const run = session.prompt('go', controller.signal);
    await started;
    controller.abort();
    const summary = await run;
    expect(summary.reason).toBe('aborted');
    const ends = events.filter((event) => event.type === 'subagent_end');
    expect(ends.map((event) => event.type === 'subagent_end' && event.outcome.reason)).toEqual(['canceled', 'canceled']);
    for (const event of ends) {
      if (event.type !== 'subagent_end') continue;
      const lines = readFileSync(event.outcome.transcriptPath!, 'utf8').trim().split('\n');
      expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: 'event', name: 'subagent_end', data: { status: 'failed', reason: 'canceled' } });
    }
  });

  it('kills a child on request and through a kill file written by another process', async () => {
    const { session, stream, events } = await setup({
      route: (info) => (info.child ? { text: 'never', delayMs: 5_000 } : info.turn === 0 ? { toolCalls: [agentCall('a'), agentCall('b')] } : { text: 'ok' }),
    });
    const ids: string[] = [];
    session.subscribe((event) => {
      if (event.type !== 'subagent_start') return;
      ids.push(event.subSid);
      if (ids.length === 1) setTimeout(() => session.killSubagent(event.subSid), 20);
      else setTimeout(() => writeFileSync(join(event.transcriptPath!, '..', 'kill'), '{}'), 20);
    });
    await session.prompt('go');
    const results = toolResults({ request: stream.requests.at(-1)!, child: false, firstUser: '', turn: 1 });
    expect(results.map((r) => r.content.split(']')[0])).toEqual(['[agent: failed reason=killed', '[agent: failed reason=killed']);
    expect(events.filter((e) => e.type === 'subagent_end').map((e) => e.type === 'subagent_end' && e.outcome.status)).toEqual(['killed', 'killed']);
  });

  it('keeps a yolo parent\'s explore child read-only, by its tools and by its policy', async () => {
    const { root, session, stream } = await setup({
      yolo: true,
      route: (info) => {
        if (!info.child) return info.turn === 0 ? { toolCalls: [agentCall('write')] } : { text: 'ok' };
        return info.turn === 0 ? { toolCalls: [{ name: 'write_file', arguments: { path: 'pwned.txt', content: 'x' } }] } : { text: 'could not write' };
      },
    });
    await session.prompt('go');
    expect(existsSync(join(root, 'pwned.txt'))).toBe(false);
    const childSecond = stream.requests.find((r) => r.system.includes('\n# Subagent\n') && r.messages.length === 3)!;
    const denial = childSecond.messages[2] as ToolResultMessage;
    expect(denial.isError).toBe(true);
    expect(denial.content).toMatch(/unknown tool|not available/i);
  });

  it('gives general-purpose children the agent tool only when subagents.max_depth allows', async () => {
    const shallow = await setup({ route: (info) => (info.child ? { text: 'x' } : info.turn === 0 ? { toolCalls: [agentCall('a', 'general-purpose')] } : { text: 'ok' }) });
    await shallow.session.prompt('go');
    const shallowChild = shallow.stream.requests.find((r) => r.system.includes('\n# Subagent\n'))!;
    expect(shallowChild.tools.map((t) => t.name)).toEqual(['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'list_dir', 'git', 'tool_search', 'call_tool']);
    expect(catalog(shallowChild)).toContain('memory_observe, memory_remember, memory_recall, memory_amend, memory_archive (project memory)');
    expect(catalog(shallowChild)).not.toMatch(/\bagent\b/);

    const deep = await setup({
      config: { subagents: { max_depth: 2 } },
      route: (info) => {
        if (!info.child) return info.turn === 0 ? { toolCalls: [agentCall('outer', 'general-purpose')] } : { text: 'ok' };
        if (info.firstUser === 'outer') return info.turn === 0 ? { toolCalls: [agentCall('inner', 'general-purpose')] } : { text: 'outer done' };
        return { text: 'inner done' };
      },
    });
    const summary = await deep.session.prompt('go');
    const outer = deep.stream.requests.find((r) => r.messages[0]?.role === 'user' && r.messages[0].content === 'outer')!;
    const inner = deep.stream.requests.find((r) => r.messages[0]?.role === 'user' && r.messages[0].content === 'inner')!;
    expect(catalog(outer)).toMatch(/\bagent\b/);
    expect(catalog(inner)).not.toMatch(/\bagent\b/);
    // Three levels of spend, each response $0.001: parent 2, outer 2, inner 1.
    expect(summary.costUsd).toBeCloseTo(0.005, 9);
    expect(summary.subagents.map((c) => c.status)).toEqual(['completed', 'completed']);
  });

  it('records started and completed in the index and the child transcript on disk', async () => {
    const { home, session } = await setup({ route: (info) => (info.child ? { text: 'found it' } : info.turn === 0 ? { toolCalls: [agentCall('a')] } : { text: 'ok' }) });
    await session.prompt('go');
    const indexFile = join(home, 'projects', session.projectId, 'subagents.jsonl');
    const lines = readFileSync(indexFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => line.event)).toEqual(['started', 'completed']);
    expect(lines[0]).toMatchObject({ parent_sid: session.id, type: 'explore', description: 'task a', depth: 1, pid: process.pid });
    expect(lines[1]).toMatchObject({ tokens: { prompt: 100, completion: 10, cache_hit: 50 }, turns: 1 });
  });

  it('routes a child\'s permission request to the user, labelled with the child', async () => {
    const asked: Array<{ tool: string; subagent?: { id: string; description: string } }> = [];
    const { root, session } = await setup({
      interactive: true,
      ask: async (request) => {
        asked.push({ tool: request.tool, ...(request.subagent ? { subagent: request.subagent } : {}) });
        return 'yes';
      },
      route: (info) => {
        if (!info.child) return info.turn === 0 ? { toolCalls: [agentCall('write it', 'general-purpose')] } : { text: 'ok' };
        return info.turn === 0 ? { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'hi\n' } }] } : { text: 'written' };
      },
    });
    await session.prompt('go');
    expect(asked).toEqual([{ tool: 'write_file', subagent: { id: expect.stringMatching(/^\d{8}-\d{6}-[0-9a-f]{6}$/), description: 'task write it' } }]);
    expect(readFileSync(join(root, 'out.txt'), 'utf8')).toBe('hi\n');
  });

  it('asks the user one question at a time when two children need approval at once', async () => {
    let open = 0;
    let maxOpen = 0;
    const asked: string[] = [];
    const { root, session } = await setup({
      interactive: true,
      ask: async (request) => {
        open += 1;
        maxOpen = Math.max(maxOpen, open);
        asked.push(request.subagent!.description);
        await new Promise((resolve) => setTimeout(resolve, 30));
        open -= 1;
        return 'yes';
      },
      route: (info) => {
        if (!info.child) return info.turn === 0 ? { toolCalls: [agentCall('one', 'general-purpose'), agentCall('two', 'general-purpose')] } : { text: 'ok' };
        return info.turn === 0 ? { toolCalls: [{ name: 'write_file', arguments: { path: `${info.firstUser}.txt`, content: 'x' } }] } : { text: 'written' };
      },
    });
    await session.prompt('go');
    expect(asked.sort()).toEqual(['task one', 'task two']);
    expect(maxOpen).toBe(1);
    expect(existsSync(join(root, 'one.txt')) && existsSync(join(root, 'two.txt'))).toBe(true);
  });

  // isolation "worktree" outside git (spawn_error) is in test/unit/worktree-session.
  it('rejects a prompt over 32 KiB before anything starts', async () => {
    const { session, stream, events } = await setup({
      route: (info) => (info.turn === 0 ? { toolCalls: [agentCall('x'.repeat(33 * 1024))] } : { text: 'ok' }),
    });
    await session.prompt('go');
    const results = toolResults({ request: stream.requests.at(-1)!, child: false, firstUser: '', turn: 1 });
    expect(results).toHaveLength(1);
    expect(results[0]!.content).toMatch(/^\[agent: failed reason=prompt_too_long\] prompt exceeds 32 KB/);
    expect(events.some((event) => event.type === 'subagent_start')).toBe(false);
  });
});

describe('hooks and subagents', () => {
  it('denies a spawn by a pre_tool hook with hooks_denied, and gives child hooks SEEK_SUBAGENT_ID', async () => {
    const { root, home } = makeProject();
    const log = join(root, '..', 'hook.log');
    writeFileSync(
      join(home, 'hooks.toml'),
      [
        '[[pre_tool]]',
        'name = "no-plan-agents"',
        `command = 'echo "$SEEK_TOOL_ARGS_JSON" | grep -q "\\"plan\\"" && { echo "no plan agents"; exit 1; } || exit 0'`,
        'match = { tool = "agent" }',
        '',
        '[[post_tool]]',
        'name = "who"',
        `command = 'echo "$SEEK_TOOL_NAME:$SEEK_SUBAGENT_ID" >> ${log}'`,
        'match = { tool = "read_file" }',
      ].join('\n'),
    );
    mkdirSync(join(root, '.seek'), { recursive: true });
    const stream = routedStream((info) => {
      if (info.child) return info.turn === 0 ? { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } : { text: 'read' };
      return info.turn === 0 ? { toolCalls: [agentCall('p', 'plan'), agentCall('e', 'explore')] } : { text: 'ok' };
    });
    const session = await openSession({ cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 't' }, interactive: false, maxTurns: 10, stream });
    sessions.push(session);
    await session.prompt('go');
    const results = stream.requests.at(-1)!.messages.filter((m) => m.role === 'tool') as ToolResultMessage[];
    expect(results[0]!.content).toMatch(/^\[agent: failed reason=hooks_denied\] \[denied by pre_tool hook "no-plan-agents"\] no plan agents/);
    expect(results[1]!.content).toMatch(/^\[agent: completed\]/);
    expect(readFileSync(log, 'utf8').trim()).toMatch(/^read_file:\d{8}-\d{6}-[0-9a-f]{6}$/);
  });
});
