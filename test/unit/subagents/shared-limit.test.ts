/**
 * A limit a child shares with other processes (a fleet run's caps): asked before each request
 * after the first; once reached the child is told to wrap up on its next request, and one that
 * goes on is stopped two requests later. A limit that cannot be read stops nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openSession, type AgentSession } from '../../../src/runtime/session.js';
import type { ModelRequest } from '../../../src/providers/types.js';
import type { SharedLimit } from '../../../src/subagents/types.js';
import { makeProject } from '../../support/seek-process.js';
import { routedStream, type FakeReply, type RouteInfo } from '../../support/fake-stream.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

const WHY = 'The dollar cap of this fleet run is reached ($2.0000 spent by all its jobs, of $1.5000)';
const noticed = (request: ModelRequest): boolean => request.messages.some((m) => m.role === 'user' && m.content.includes(WHY));

async function runTask(route: (info: RouteInfo) => FakeReply, sharedLimit: SharedLimit) {
  const { root, home } = makeProject({ 'README.md': '# demo\nline two\nline three\nline four\nline five\n' });
  const stream = routedStream(route);
  const session = await openSession({ cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test' }, interactive: false, yolo: true, maxTurns: 50, stream });
  sessions.push(session);
  const report = await session.runTask({ id: 't', role: 'explorer', prompt: 'Read the README', sharedLimit }, new AbortController().signal);
  return { report, requests: stream.requests };
}

/** Reached from the `from`-th check on (checks happen before requests 2, 3, …). */
function limitFrom(from: number): SharedLimit & { checks: number } {
  const limit = {
    checks: 0,
    reached: async () => (++limit.checks >= from ? WHY : undefined),
  };
  return limit;
}

const read = (turn: number): FakeReply => ({ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md', offset: turn + 1 } }] });

describe('a limit shared with other processes', () => {
  it('tells the child to wrap up on its next request once the limit is reached; the child answers', async () => {
    const { report, requests } = await runTask((info) => (noticed(info.request) ? { text: 'summary so far' } : read(info.turn)), limitFrom(2));
    expect(report.status).toBe('completed');
    expect(report.summary).toBe('summary so far');
    expect(requests.map(noticed)).toEqual([false, false, true]);
  });

  it('stops a child that goes on two requests after the notice, as budget_exceeded, saying why', async () => {
    const limit = limitFrom(2);
    const { report, requests } = await runTask((info) => read(info.turn), limit);
    expect(requests).toHaveLength(4);
    expect(requests.map(noticed)).toEqual([false, false, true, true]);
    expect(requests[3]!.messages.filter((m) => m.role === 'user' && m.content.includes(WHY))).toHaveLength(1); // told once
    expect(limit.checks).toBe(2); // not asked again once reached
    expect(report).toMatchObject({ status: 'failed', reason: 'budget_exceeded' });
    expect(report.result.content).toContain(`${WHY}; the subagent was stopped 2 requests after being told to wrap up`);
  });

  it('stops nothing when the limit cannot be read', async () => {
    const { report, requests } = await runTask((info) => (info.turn < 4 ? read(info.turn) : { text: 'done' }), {
      reached: async () => {
        throw new Error('Redis is down');
      },
    });
    expect(report.status).toBe('completed');
    expect(requests).toHaveLength(5);
    expect(requests.some(noticed)).toBe(false);
  });
});
