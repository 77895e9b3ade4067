import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { CostTracker } from '../../../../src/cost/tracker.js';
import type { SessionEvent, SessionListener } from '../../../../src/runtime/events.js';
import type { AgentSession } from '../../../../src/runtime/session.js';
import { App, type PermissionBridge } from '../../../../src/tui/App.js';
import { buildPlan } from '../../../../src/orchestrator/plan.js';
import { reviewRequest, type PlanReviewRequest } from '../../../../src/orchestrator/review.js';
import { roleCatalog } from '../../../../src/orchestrator/roles.js';
import { BUILTIN_SUBAGENT_TYPES } from '../../../../src/subagents/builtin-types.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { flush, KEYS, memoryHistory, waitFor } from '../input/helpers.js';
import { completedResult } from '../../../../src/subagents/result-format.js';
import { end, start, SUB_A, toolStart, turn } from './events.js';

/** The parts of AgentSession the App reads, over a list of listeners the test emits to. */
function fakeSession() {
  const listeners = new Set<SessionListener>();
  const killed: string[] = [];
  const session = {
    id: 'sid',
    model: 'deepseek-v4-flash',
    cwd: '/project',
    contextWindow: 128_000,
    history: [],
    tracker: new CostTracker(),
    policy: { mode: 'ask', subscribe: () => () => {}, cycleMode: () => {} },
    todos: { get: () => [], subscribe: () => () => {} },
    subscribe(listener: SessionListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    killSubagent(subSid: string) {
      killed.push(subSid);
      return true;
    },
    async prompt() {},
    async close() {},
  };
  const emit = (...events: SessionEvent[]) => events.forEach((event) => listeners.forEach((listener) => listener(event)));
  return { session: session as unknown as AgentSession, emit, killed };
}

function renderApp(session: AgentSession, bridge: PermissionBridge = {}) {
  return render(
    <App
      session={session}
      openSession={async () => session}
      bridge={bridge}
      history={memoryHistory()}
      fileSearch={() => []}
      color={false}
      onSessionChange={() => {}}
    />,
  );
}

const AGENT_TOOL_CALL = { id: 'call-agent-1', name: 'agent', arguments: '{}' };
const AGENT_CALL: SessionEvent = {
  type: 'tool_start',
  turn: 1,
  toolCall: AGENT_TOOL_CALL,
  args: { description: 'find the parser', prompt: 'look', subagent_type: 'explore' },
};

describe('App with subagents', () => {
  it('shows the running child under its agent row and ⤴ 1 agent; /agents works mid-turn and kills', async () => {
    const { session, emit, killed } = fakeSession();
    const view = renderApp(session);
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    await flush();
    emit(
      { type: 'message', message: { role: 'user', content: 'find it' } },
      { type: 'turn_start', turn: 1 },
      AGENT_CALL,
      start(SUB_A),
      turn(SUB_A, 1),
      toolStart(SUB_A, 'c1', 'grep', { pattern: 'parse', path: 'src' }),
    );
    await waitFor(() => expect(frame()).toContain('⤷ a1b2c3 explore · turn 1 · grep parse in src'));
    expect(frame()).toContain('⋯ agent find the parser');
    expect(frame()).toMatch(/ask · ⤴ 1 agent · deepseek-v4-flash/);

    for (const char of '/agents') view.stdin.write(char);
    await flush();
    view.stdin.write(KEYS.enter);
    await waitFor(() => expect(frame()).toContain('Subagents 1 · 1 running'));
    expect(frame()).toMatch(/❯ a1b2c3 explore running +1t +0 tok/);
    view.stdin.write('k');
    await waitFor(() => expect(frame()).toContain('kill a1b2c3? y/n'));
    view.stdin.write('y');
    await waitFor(() => expect(killed).toEqual([SUB_A]));
    view.stdin.write(KEYS.escape);
    await waitFor(() => expect(frame()).not.toContain('Subagents 1'));
    view.unmount();
  });

  it('commits a finished agent row with its child\'s numbers and says ✓ agent done', async () => {
    const { session, emit } = fakeSession();
    const view = renderApp(session);
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    await flush();
    const content = completedResult({ summary: 'Parser is in src/parse.ts', subSid: SUB_A, turns: 3, tokens: 12_345 });
    emit({ type: 'message', message: { role: 'user', content: 'find it' } }, { type: 'turn_start', turn: 1 }, AGENT_CALL, start(SUB_A), turn(SUB_A, 1));
    await waitFor(() => expect(frame()).toContain('⤴ 1 agent'));
    emit(end(SUB_A), {
      type: 'tool_end',
      turn: 1,
      toolCall: AGENT_TOOL_CALL,
      result: { content },
      durationMs: 4_200,
      message: { role: 'tool', toolCallId: 'call-agent-1', toolName: 'agent', content, isError: false },
    });
    await waitFor(() => expect(frame()).toContain('✓ agent find the parser  4.2s\n  └ completed · 3 turns · 12k tokens · $0.0123'));
    expect(frame()).toMatch(/ask · ✓ agent done · deepseek-v4-flash/);
    expect(frame()).not.toContain('⤴');
    view.unmount();
  });

  it('asks for plan review through the bridge in place of the input, and answers with the decision', async () => {
    const { session } = fakeSession();
    const bridge: PermissionBridge = {};
    const view = renderApp(session, bridge);
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    await flush();
    const catalog = roleCatalog(BUILTIN_SUBAGENT_TYPES);
    const request = (tasks: Parameters<typeof buildPlan>[0]): PlanReviewRequest =>
      reviewRequest(buildPlan(tasks, catalog.resolve, catalog.names), false, catalog.names, (next) => request(next));
    const decision = bridge.reviewPlan!(request([{ task: 'look', role: 'explorer' }, { task: 'change', role: 'editor' }]));
    await waitFor(() => expect(frame()).toContain('Run this plan? (2 subagent tasks)'));
    expect(frame()).not.toContain('ask seek, / for commands');
    view.stdin.write('x'); // not a review key: nothing happens, the input does not get it either
    await flush(); // separate chunks, as typed (one chunk "x\r" would read as pasted text)
    view.stdin.write(KEYS.enter);
    await expect(decision).resolves.toEqual({ kind: 'run', tasks: [{ id: 't1', task: 'look', role: 'explorer' }, { id: 't2', task: 'change', role: 'editor' }] });
    await waitFor(() => expect(frame()).toContain('ask seek, / for commands'));
    view.unmount();
  });
});
