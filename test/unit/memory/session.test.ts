/**
 * Memory inside real sessions (injected stream, real files under a temporary SEEK_HOME): the tools'
 * result strings, injection as user-role context (system prompt untouched, same bytes across
 * sessions), the observation check, permissions, and what children see.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectId } from '../../../src/config/paths.js';
import { JUDGE_SYSTEM_PROMPT } from '../../../src/memory/observer.js';
import { SUMMARISER_SYSTEM_PROMPT } from '../../../src/runtime/compaction.js';
import { rememberEntry } from '../../../src/memory/operations.js';
import { MemoryStore } from '../../../src/memory/store.js';
import type { ModelRequest, ToolResultMessage, UserMessage } from '../../../src/providers/types.js';
import type { SessionEvent } from '../../../src/runtime/events.js';
import { openSession, type AgentSession } from '../../../src/runtime/session.js';
import { readSession } from '../../../src/session/reader.js';
import { routedStream, type FakeReply, type RouteInfo } from '../../support/fake-stream.js';
import { makeProject } from '../../support/seek-process.js';
import { ensureProjectManifest } from '../../../src/config/paths.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

type Project = ReturnType<typeof makeProject>;
const isJudge = (request: ModelRequest) => request.system === JUDGE_SYSTEM_PROMPT;
const storeOf = (project: Project) => new MemoryStore({ seekHome: project.home, projectId: projectId(project.root) });

async function open(project: Project, route: (info: RouteInfo) => FakeReply, options: { yolo?: boolean; plan?: boolean; interactive?: boolean; resume?: string; ask?: () => Promise<'yes' | 'no'>; env?: Record<string, string> } = {}) {
  const stream = routedStream(route);
  const events: SessionEvent[] = [];
  const session = await openSession({
    cwd: project.root,
    env: { SEEK_HOME: project.home, DEEPSEEK_API_KEY: 't', ...options.env },
    interactive: options.interactive ?? false,
    yolo: options.yolo ?? false,
    plan: options.plan ?? false,
    maxTurns: 10,
    stream,
    ...(options.resume ? { resume: options.resume } : {}),
    ...(options.ask ? { ask: async () => options.ask!() } : {}),
  });
  session.subscribe((event) => events.push(event));
  sessions.push(session);
  return { session, stream, events };
}

const toolResults = (stream: ReturnType<typeof routedStream>): string[] => {
  const last = stream.requests.filter((r) => !isJudge(r)).at(-1)!;
  return last.messages.filter((m): m is ToolResultMessage => m.role === 'tool').map((m) => m.content);
};
const calls = (...list: Array<[string, Record<string, unknown>]>) => ({ toolCalls: list.map(([name, args]) => ({ name, arguments: args })) });
const ENTRY = { name: 'use-pnpm', tagline: 'The repo uses pnpm workspaces', content: 'Decided in March: npm hoisting broke the monorepo.', tags: ['tooling'] };

describe('memory in a session', () => {
  it('every tool answers with its result string', async () => {
    const project = makeProject();
    const { session, stream } = await open(project, (info) => {
      if (isJudge(info.request)) return { text: '{"decision":"REJECT","reason":"already recorded"}' };
      if (info.turn === 0) return calls(['memory_remember', ENTRY]);
      if (info.turn === 1) return calls(['memory_recall', { name: 'use-pnpm' }], ['memory_recall', { query: 'pnpm' }], ['memory_recall', { name: 'nope' }]);
      if (info.turn === 2) return calls(['memory_amend', { name: 'use-pnpm', append_content: 'Still true.' }]);
      if (info.turn === 3) return calls(['memory_observe', { ...ENTRY, name: 'pnpm-again' }]);
      if (info.turn === 4) return calls(['memory_archive', { name: 'use-pnpm', reason: 'moved to bun' }], ['memory_recall', { name: 'use-pnpm' }]);
      return { text: 'done' };
    }, { yolo: true });
    await session.prompt('work with memory');
    const all = stream.requests.filter((r) => !isJudge(r)).map((r) => r.messages.filter((m): m is ToolResultMessage => m.role === 'tool').map((m) => m.content));
    expect(all[1]).toEqual(['remembered "use-pnpm" in project memory']);
    const [byName, byQuery, missing] = all[2]!.slice(1);
    expect(JSON.parse(byName!)).toMatchObject({ name: 'use-pnpm', recall_count: 1, content: ENTRY.content });
    expect(byQuery).toBe('memory: 1 entry matching "pnpm":\n  use-pnpm: The repo uses pnpm workspaces\n    tags: [tooling]');
    expect(missing).toBe('memory: no entry named "nope"');
    expect(all[3]!.at(-1)).toBe('appended to "use-pnpm"');
    expect(all[4]!.at(-1)).toBe('observation "pnpm-again" queued: a background check decides whether it is saved to project memory, and the user is told the outcome. Do not repeat it.');
    const [archived, recalled] = toolResults(stream).slice(-2);
    expect(archived).toBe('archived "use-pnpm" (reason: moved to bun)');
    expect(recalled).toMatch(/^memory: "use-pnpm" is archived \(\d{4}-\d\d-\d\d, reason: moved to bun\)/);
  });

  it('injects soul and index as user-role context before the first prompt; the system prompt is unchanged; same bytes next session', async () => {
    const project = makeProject();
    const plain = await open(project, () => ({ text: 'ok' }));
    await plain.session.prompt('hello');
    const systemWithout = plain.stream.requests[0]!.system;
    expect(plain.stream.requests[0]!.messages.map((m) => m.role)).toEqual(['user']); // nothing to inject yet

    await rememberEntry(storeOf(project), ENTRY);
    writeFileSync(join(project.home, 'soul.md'), '## Stable\n- **Answers in English**\n');
    const first = await open(project, () => ({ text: 'ok' }));
    await first.session.prompt('hello again');
    const request = first.stream.requests[0]!;
    expect(request.system).toBe(systemWithout);
    const [soul, index, prompt] = request.messages as UserMessage[];
    expect(soul).toEqual({ role: 'user', content: '<context source="memory.soul">\n- **Answers in English**\n</context>' });
    expect(index!.role).toBe('user');
    expect(index!.content).toContain('- use-pnpm: The repo uses pnpm workspaces');
    expect(index!.content).not.toContain(ENTRY.content);
    expect(prompt!.content.startsWith('hello again')).toBe(true);

    const second = await open(project, () => ({ text: 'ok' }));
    await second.session.prompt('third');
    const hash = (m: unknown) => createHash('sha256').update(JSON.stringify(m)).digest('hex');
    expect(hash(second.stream.requests[0]!.messages.slice(0, 2))).toBe(hash(request.messages.slice(0, 2)));

    // A resumed session already holds its context: nothing is injected again.
    const resumed = await open(project, () => ({ text: 'ok' }), { resume: first.session.id });
    await resumed.session.prompt('more');
    expect(resumed.stream.requests[0]!.messages.filter((m) => m.role === 'user' && m.content.startsWith('<context')).length).toBe(2);
  });

  it('a compaction in the middle of a turn keeps the memory context right after the brief, and a resume rebuilds the same history', async () => {
    const project = makeProject();
    await rememberEntry(storeOf(project), ENTRY);
    let mainRequests = 0;
    const { session, stream } = await open(
      project,
      (info) => {
        if (info.request.system === SUMMARISER_SYSTEM_PROMPT) return { text: 'BRIEF: read the README' };
        mainRequests += 1;
        return mainRequests === 1 ? calls(['read_file', { path: 'README.md' }]) : { text: 'done' };
      },
      { env: { SEEK_COMPACT_THRESHOLD: '0.0001' } },
    );
    await session.prompt('look at the readme');
    const after = stream.requests.filter((r) => r.system !== SUMMARISER_SYSTEM_PROMPT).at(-1)!;
    const index = (m: { role: string; content?: unknown }) => m.role === 'user' && String(m.content).startsWith('<context source="memory.index">');
    expect(after.messages).toHaveLength(2);
    expect(String((after.messages[0] as UserMessage).content)).toContain('BRIEF: read the README');
    expect(index(after.messages[1]!)).toBe(true);

    const resumed = await open(project, () => ({ text: 'ok' }), { resume: session.id });
    await resumed.session.prompt('more');
    const sent = resumed.stream.requests[0]!.messages;
    expect(sent.slice(0, 2)).toEqual(after.messages);
    expect(sent.filter(index)).toHaveLength(1); // not injected again
  });

  it("a child's compaction keeps its memory context too, in its requests and its transcript", async () => {
    const project = makeProject();
    await rememberEntry(storeOf(project), ENTRY);
    let childRequests = 0;
    let parentRequests = 0;
    const { session, stream, events } = await open(
      project,
      (info) => {
        if (info.request.system === SUMMARISER_SYSTEM_PROMPT) return { text: 'BRIEF: child read the README' };
        if (info.child) return ++childRequests === 1 ? calls(['read_file', { path: 'README.md' }]) : { text: 'looked' };
        return ++parentRequests === 1 ? calls(['agent', { description: 'look', prompt: 'look around', subagent_type: 'explore' }]) : { text: 'done' };
      },
      { env: { SEEK_COMPACT_THRESHOLD: '0.0001' } },
    );
    await session.prompt('go');
    const child = stream.requests.filter((r) => r.system.includes('\n# Subagent\n')).at(-1)!;
    expect(child.messages).toHaveLength(2);
    expect(String(child.messages[0]!.content)).toContain('BRIEF: child read the README');
    expect(String(child.messages[1]!.content).startsWith('<context source="memory.index">')).toBe(true);
    const start = events.find((e) => e.type === 'subagent_start');
    const transcript = await readSession(start?.type === 'subagent_start' ? start.transcriptPath! : '');
    expect(transcript.messages.slice(0, 2)).toEqual(child.messages);
  });

  it('children start with the same memory context, and their transcripts keep it', async () => {
    const project = makeProject();
    await rememberEntry(storeOf(project), ENTRY);
    const { session, stream, events } = await open(project, (info) => {
      if (info.child) return { text: 'looked' };
      return info.turn === 0 ? calls(['agent', { description: 'look', prompt: 'look around', subagent_type: 'explore' }]) : { text: 'done' };
    });
    await session.prompt('go');
    const parent = stream.requests[0]!.messages[0] as UserMessage;
    const child = stream.requests.find((r) => r.system.includes('\n# Subagent\n'))!;
    expect(child.messages[0]).toEqual(parent);
    expect(child.messages.at(-1)).toEqual({ role: 'user', content: 'look around' });
    // memory_recall is loaded on demand: the child's catalog (tool_search) lists it.
    expect(child.tools.find((t) => t.name === 'tool_search')?.description).toContain('memory_recall');
    const start = events.find((e) => e.type === 'subagent_start');
    const transcript = await readSession(start?.type === 'subagent_start' ? start.transcriptPath! : '');
    expect(transcript.messages.slice(0, 2)).toEqual([parent, { role: 'user', content: 'look around' }]);
  });

  it('an accepted observation is saved (unconfirmed) before a headless run returns; rejected, unparseable and failing checks save nothing and say why', async () => {
    const project = makeProject();
    const verdicts = ['{"decision":"ACCEPT","reason":"durable convention"}', '{"decision":"REJECT","reason":"temporary"}', 'I think it is fine', 'FAIL'];
    let judged = 0;
    const { session, events } = await open(project, (info) => {
      if (isJudge(info.request)) {
        const verdict = verdicts[judged++]!;
        return verdict === 'FAIL' ? { error: { kind: 'server', message: 'flash model down' } } : { text: verdict };
      }
      return info.turn === 0
        ? calls(...['a-one', 'b-two', 'c-three', 'd-four'].map((name) => ['memory_observe', { ...ENTRY, name }] as [string, Record<string, unknown>]))
        : { text: 'done' };
    });
    await session.prompt('observe things');
    const entries = (await storeOf(project).load()).entries;
    expect(entries.map((e) => [e.name, e.auto_sourced])).toEqual([['a-one', true]]);
    const notices = events.filter((e) => e.type === 'notice').map((e) => (e as { text: string }).text);
    expect(notices).toContain('memory: saved observation "a-one" — The repo uses pnpm workspaces (unconfirmed; seek memory archive a-one drops it)');
    expect(notices).toContain('memory: observation "b-two" not saved — temporary');
    expect(notices.find((n) => n.startsWith('memory: observation "c-three" dropped'))).toContain('was not {"decision": "ACCEPT"|"REJECT", ...}');
    expect(notices.find((n) => n.startsWith('memory: observation "d-four" dropped'))).toContain('flash model down');
  });

  it('allows at most 10 observations a session', async () => {
    const project = makeProject();
    const { session, stream } = await open(project, (info) => {
      if (isJudge(info.request)) return { text: '{"decision":"REJECT","reason":"no"}' };
      return info.turn === 0 ? calls(...Array.from({ length: 11 }, (_, i) => ['memory_observe', { ...ENTRY, name: `obs-${i}` }] as [string, Record<string, unknown>])) : { text: 'done' };
    });
    await session.prompt('observe a lot');
    const results = toolResults(stream);
    expect(results.slice(0, 10).every((r) => r.startsWith('observation "obs-'))).toBe(true);
    expect(results[10]).toBe('memory_observe: the limit of 10 observations per session is reached; "obs-10" was not recorded. Use memory_remember (the user confirms it) for anything that must be kept.');
  });

  it('memory_remember asks in ask mode, is denied headless without --yolo and in plan mode', async () => {
    const remember = (info: RouteInfo) => (info.turn === 0 ? calls(['memory_remember', ENTRY]) : { text: 'done' });
    const headless = makeProject();
    const denied = await open(headless, remember);
    await denied.session.prompt('remember it');
    expect(toolResults(denied.stream)[0]).toContain('--yolo');
    expect((await storeOf(headless).load()).entries).toEqual([]);

    const planned = makeProject();
    const plan = await open(planned, remember, { plan: true, yolo: true });
    await plan.session.prompt('remember it');
    expect((await storeOf(planned).load()).entries).toEqual([]);

    const asked = makeProject();
    let questions = 0;
    const ask = await open(asked, remember, { interactive: true, ask: async () => (questions++, 'yes') });
    await ask.session.prompt('remember it');
    expect(questions).toBe(1);
    expect((await storeOf(asked).load()).entries.map((e) => e.name)).toEqual(['use-pnpm']);
  });

  it('memory and the subagent index agree on the project id after a project moved (.seek/project-id)', async () => {
    const project = makeProject({ 'README.md': '# x\n', '.seek/project-id': '0123456789abcdef\n' });
    // seek's own record says this directory is that project (it kept its id when it moved here):
    // only then is the pointer followed (config/paths.ts projectIdentity).
    await ensureProjectManifest(project.home, '0123456789abcdef', project.root);
    const { session } = await open(project, (info) => {
      if (info.child) return { text: 'ok' };
      return info.turn === 0 ? calls(['memory_remember', ENTRY], ['agent', { description: 'x', prompt: 'x', subagent_type: 'explore' }]) : { text: 'done' };
    }, { yolo: true });
    await session.prompt('go');
    const store = new MemoryStore({ seekHome: project.home, projectId: '0123456789abcdef' });
    expect((await store.load()).entries.map((e) => e.name)).toEqual(['use-pnpm']);
    const { readSubagentIndex } = await import('../../../src/subagents/index-log.js');
    expect((await readSubagentIndex(project.home, '0123456789abcdef')).records).toHaveLength(1);
  });
});
