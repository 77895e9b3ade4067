/**
 * A real session spawning two children, one billed by a model without known prices: the child's
 * tracker decides, and the run summary, its JSON result and the subagent_end event carry
 * `costKnown` false for that child only (null / cost_known false in JSON); the priced child keeps
 * its number.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resultObject } from '../../../src/frontends/result.js';
import type { StreamEvent, StreamFn } from '../../../src/providers/types.js';
import type { SessionEvent } from '../../../src/runtime/events.js';
import { openSession, type AgentSession } from '../../../src/runtime/session.js';
import { routedStream, type FakeReply, type RouteInfo } from '../../support/fake-stream.js';
import { makeProject } from '../../support/seek-process.js';

const UNPRICED = 'no-such-model-for-prices';
const sessions: AgentSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

const agentCall = (prompt: string) => ({ name: 'agent', arguments: { description: `task ${prompt}`, prompt, subagent_type: 'explore' } });

/** The routed fake stream, except that a child asked to be "unpriced" answers as a model without
 * known prices: no cost (0) and a model id the catalog does not know. */
function withUnpricedChild(route: (info: RouteInfo) => FakeReply): StreamFn {
  const inner = routedStream(route);
  return async function* (request, signal): AsyncIterable<StreamEvent> {
    const first = request.messages.find((message) => message.role === 'user');
    const unpriced = first?.role === 'user' && first.content === 'unpriced' && request.system.includes('\n# Subagent\n');
    for await (const event of inner(request, signal)) {
      yield unpriced && event.type === 'done' ? { ...event, message: { ...event.message, costUsd: 0, model: UNPRICED } } : event;
    }
  } as StreamFn;
}

describe('a child billed by a model without known prices', () => {
  it('reports its cost as unknown, and a priced sibling as its number', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    const stream = withUnpricedChild((info) => (info.child ? { text: 'found' } : info.turn === 0 ? { toolCalls: [agentCall('unpriced'), agentCall('priced')] } : { text: 'ok' }));
    const session = await openSession({ cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test' }, interactive: false, yolo: false, maxTurns: 50, stream });
    sessions.push(session);
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    const summary = await session.prompt('go');

    const byPrompt = (prompt: string) => summary.subagents.find((child) => child.description === `task ${prompt}`)!;
    expect(byPrompt('unpriced').costKnown).toBe(false);
    expect(byPrompt('priced').costKnown ?? true).toBe(true);
    expect(byPrompt('priced').costUsd).toBeCloseTo(0.001, 9);

    const children = resultObject(summary).subagents as Array<Record<string, unknown>>;
    expect(children.find((child) => child.description === 'task unpriced')).toMatchObject({ total_cost_usd: null, cost_known: false });
    expect(children.find((child) => child.description === 'task priced')).toMatchObject({ total_cost_usd: 0.001, cost_known: true });

    const ends = events.flatMap((event) => (event.type === 'subagent_end' ? [event.outcome] : []));
    expect(ends.find((outcome) => outcome.description === 'task unpriced')!.costKnown).toBe(false);
    expect(ends.find((outcome) => outcome.description === 'task priced')!.costKnown).toBe(true);
  });
});
