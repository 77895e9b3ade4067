/**
 * Esc in the middle of a plan, then `--resume` (a real session, injected stream, real files under
 * a temporary SEEK_HOME): the finished task is journaled, and the model calling delegate_tasks
 * again with the same tasks runs only what had not finished.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolResultMessage } from '../../../src/providers/types.js';
import { openSession, type AgentSession } from '../../../src/runtime/session.js';
import { routedStream, type FakeReply, type RouteInfo } from '../../support/fake-stream.js';
import { makeProject } from '../../support/seek-process.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

const TASKS = [
  { id: 'map', task: 'map the code', role: 'explorer' },
  { id: 'deep', task: 'dig deeper', role: 'explorer', depends_on: ['map'] },
];
const taskOf = (info: RouteInfo) => /^## Your task \(([^,]+),/m.exec(info.firstUser)?.[1];
const delegate: FakeReply = { toolCalls: [{ name: 'delegate_tasks', arguments: { tasks: TASKS } }] };

async function open(project: ReturnType<typeof makeProject>, route: (info: RouteInfo) => FakeReply, resume?: string) {
  const stream = routedStream(route);
  const session = await openSession({
    cwd: project.root,
    env: { SEEK_HOME: project.home, DEEPSEEK_API_KEY: 't' },
    interactive: false,
    yolo: true,
    maxTurns: 10,
    stream,
    ...(resume ? { resume } : {}),
  });
  sessions.push(session);
  return { session, stream };
}

describe('an orchestration cancelled with Esc', () => {
  it('reports what finished and what was cancelled, and after --resume only the unfinished task runs', async () => {
    const project = makeProject();
    const controller = new AbortController();
    const first = await open(project, (info) => {
      const task = taskOf(info);
      if (task === 'map') return { text: 'the code is in src/' };
      if (task === 'deep') {
        setTimeout(() => controller.abort(), 20); // Esc while the second task works
        return { text: 'never seen', delayMs: 10_000 };
      }
      return info.turn === 0 ? delegate : { text: 'unexpected' };
    });
    await first.session.prompt('study this', controller.signal);
    const cancelledChildren = first.stream.requests.filter((r) => r.system.includes('\n# Subagent\n')).length;
    expect(cancelledChildren).toBe(2);
    // The turn ended there: no parent request after the cancelled call.
    expect(first.stream.requests.filter((r) => !r.system.includes('\n# Subagent\n'))).toHaveLength(1);
    await first.session.close();

    const second = await open(project, (info) => {
      const task = taskOf(info);
      if (task === 'deep') return { text: 'dug deeper' };
      if (task === 'map') return { text: 'map ran twice' };
      const results = info.request.messages.filter((m): m is ToolResultMessage => m.role === 'tool');
      return results.at(-1)?.content.startsWith('[delegate_tasks: completed]') ? { text: 'finished' } : delegate;
    }, first.session.id);
    await second.session.prompt('continue');
    const childTasks = second.stream.requests.filter((r) => r.system.includes('\n# Subagent\n')).map((r) => /^## Your task \(([^,]+),/m.exec(String(r.messages.find((m) => m.role === 'user')?.content))?.[1]);
    expect(childTasks).toEqual(['deep']);
    const deepPrompt = String(second.stream.requests.find((r) => r.system.includes('\n# Subagent\n'))!.messages.find((m) => m.role === 'user')?.content);
    expect(deepPrompt).toContain('the code is in src/'); // the journaled result of map flows on
    const parent = second.stream.requests.filter((r) => !r.system.includes('\n# Subagent\n')).at(-1)!;
    const result = (parent.messages.filter((m) => m.role === 'tool').at(-1) as ToolResultMessage).content;
    expect(result.startsWith('[delegate_tasks: completed] 2 tasks (graph): 2 completed\nmap explorer completed turns=1 model_calls=1 tool_calls=0 tokens=110 reused\n')).toBe(true);
    // The model saw the cancelled call's result when it decided to call again.
    const earlier = parent.messages.filter((m): m is ToolResultMessage => m.role === 'tool').map((m) => m.content.split('\n')[0]);
    expect(earlier).toEqual(['[delegate_tasks: canceled] 2 tasks (graph): 1 completed, 1 canceled', '[delegate_tasks: completed] 2 tasks (graph): 2 completed']);
  });
});
