/**
 * Plan review inside a real session (injected stream): asked only in interactive ask mode; a
 * rejection starts nothing; an edited plan is the one that runs; yolo runs directly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanDecision, PlanReviewRequest } from '../../../src/orchestrator/review.js';
import { dropTask, specsOf } from '../../../src/orchestrator/review.js';
import type { ToolResultMessage } from '../../../src/providers/types.js';
import { openSession, type AgentSession } from '../../../src/runtime/session.js';
import { routedStream } from '../../support/fake-stream.js';
import { makeProject } from '../../support/seek-process.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

const TASKS = [
  { id: 'a', task: 'look', role: 'explorer' },
  { id: 'b', task: 'look more', role: 'explorer', depends_on: ['a'] },
];

async function setup(options: { yolo?: boolean; decide?: (request: PlanReviewRequest) => PlanDecision }) {
  const project = makeProject();
  const reviews: PlanReviewRequest[] = [];
  const stream = routedStream((info) => {
    if (info.child) return { text: `did ${/\(([^,]+),/.exec(info.firstUser)?.[1]}` };
    return info.turn === 0 ? { toolCalls: [{ name: 'delegate_tasks', arguments: { tasks: TASKS } }] } : { text: 'ok' };
  });
  const session = await openSession({
    cwd: project.root,
    env: { SEEK_HOME: project.home, DEEPSEEK_API_KEY: 't' },
    interactive: true,
    yolo: options.yolo === true,
    maxTurns: 10,
    stream,
    ask: async () => 'yes',
    reviewPlan: async (request) => {
      reviews.push(request);
      return options.decide ? options.decide(request) : { kind: 'run', tasks: specsOf(request.plan) };
    },
  });
  sessions.push(session);
  await session.prompt('go');
  const parent = stream.requests.filter((r) => !r.system.includes('\n# Subagent\n')).at(-1)!;
  const result = (parent.messages.filter((m) => m.role === 'tool').at(-1) as ToolResultMessage).content;
  const children = stream.requests.filter((r) => r.system.includes('\n# Subagent\n')).length;
  return { reviews, result, children };
}

describe('plan review', () => {
  it('asks in interactive ask mode with the graph, and runs what was approved', async () => {
    const { reviews, result, children } = await setup({});
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.waves).toEqual([['a'], ['b']]);
    expect(result.startsWith('[delegate_tasks: completed] 2 tasks (graph): 2 completed')).toBe(true);
    expect(children).toBe(2);
  });

  it('a rejection starts no child and tells the model', async () => {
    const { result, children } = await setup({ decide: () => ({ kind: 'reject', reason: 'too broad' }) });
    expect(result).toBe('[delegate_tasks: rejected] the user rejected the plan: too broad; nothing was run');
    expect(children).toBe(0);
  });

  it('runs the edited plan', async () => {
    const { result, children } = await setup({ decide: (request) => ({ kind: 'run', tasks: dropTask(specsOf(request.plan), 'b') }) });
    expect(result.startsWith('[delegate_tasks: completed] 1 task (graph): 1 completed')).toBe(true);
    expect(children).toBe(1);
  });

  it('does not ask under --yolo', async () => {
    const { reviews, children } = await setup({ yolo: true, decide: () => ({ kind: 'reject' }) });
    expect(reviews).toHaveLength(0);
    expect(children).toBe(2);
  });
});
