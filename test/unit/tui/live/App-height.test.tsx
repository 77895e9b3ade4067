import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { CostTracker } from '../../../../src/cost/tracker.js';
import type { SessionEvent, SessionListener } from '../../../../src/runtime/events.js';
import type { AgentSession } from '../../../../src/runtime/session.js';
import type { AskAnswer, PermissionPrompt as PermissionRequest } from '../../../../src/policy/tool-gate.js';
import { App, type PermissionBridge } from '../../../../src/tui/App.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { makeDiffDisplay } from '../../../../src/tools/diff-display.js';
import type { TodoItem } from '../../../../src/agent/types.js';
import { memoryHistory, waitFor } from '../input/helpers.js';

/** ink-testing-library's terminal has no `rows`: the App assumes 24 (DEFAULT_ROWS). Ink redraws a live area of at most `ROWS - 1` rows in place. */
const ROWS = 24;

function fakeSession(todos: TodoItem[] = []) {
  const listeners = new Set<SessionListener>();
  const session = {
    id: 'sid',
    model: 'deepseek-v4-flash',
    cwd: '/project',
    contextWindow: 128_000,
    history: [],
    tracker: new CostTracker(),
    policy: { mode: 'ask', subscribe: () => () => {}, cycleMode: () => {} },
    todos: { get: () => todos, subscribe: () => () => {} },
    subscribe(listener: SessionListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async prompt() {},
    async close() {},
  };
  const emit = (...events: SessionEvent[]) => events.forEach((event) => listeners.forEach((listener) => listener(event)));
  return { session: session as unknown as AgentSession, emit, subscribed: () => listeners.size > 0 };
}

function renderApp(session: AgentSession, bridge: PermissionBridge = {}) {
  const view = render(
    <App session={session} openSession={async () => session} bridge={bridge} history={memoryHistory()} fileSearch={() => []} color={false} onSessionChange={() => {}} />,
  );
  const frame = () => stripAnsi(view.lastFrame() ?? '');
  /** The live area: ink-testing-library's frame is the printed (static) part, then the live part;
   * the user's message is the last printed row here. */
  const liveArea = () => {
    const rows = frame().split('\n');
    const question = rows.findIndex((row) => row.startsWith('› the question'));
    if (question === -1) throw new Error(`the question is not printed:\n${frame()}`);
    return rows.slice(question + 1);
  };
  /** Sends the user's message once the App listens (its subscription is an effect), and waits
   * until it shows. */
  const ask = async ({ emit, subscribed }: { emit: (...events: SessionEvent[]) => void; subscribed: () => boolean }) => {
    await waitFor(() => expect(subscribed()).toBe(true));
    emit({ type: 'message', message: { role: 'user', content: 'the question' } });
    await waitFor(() => expect(frame()).toContain('› the question'));
  };
  return { view, frame, liveArea, ask };
}

describe('App: the live area stays shorter than the terminal', () => {
  it('clips a streaming paragraph taller than the screen to its newest rows, with a marker', async () => {
    const fake = fakeSession();
    const { session, emit } = fake;
    const { view, frame, liveArea, ask } = renderApp(session);
    await ask(fake);
    const words = Array.from({ length: 400 }, (_, index) => `word${index}`).join(' ');
    emit({ type: 'turn_start', turn: 1 }, { type: 'text_delta', turn: 1, text: words } as SessionEvent);
    await waitFor(() => expect(frame()).toContain('word399'));
    expect(frame()).toMatch(/↑ \d+ more lines \(printed in full when finished\)/);
    expect(liveArea().length).toBeLessThanOrEqual(ROWS - 1);
    expect(frame()).not.toContain('word0 ');
    view.unmount();
  });

  it('fits a 200-line diff approval, its todo list and the running call in the screen', async () => {
    const todos: TodoItem[] = Array.from({ length: 12 }, (_, index) => ({ content: `step ${index}`, status: index === 3 ? 'in_progress' : index < 3 ? 'completed' : 'pending' }));
    const fake = fakeSession(todos);
    const { session, emit } = fake;
    const bridge: PermissionBridge = {};
    const { view, frame, liveArea, ask } = renderApp(session, bridge);
    await ask(fake);
    const before = Array.from({ length: 100 }, (_, index) => `old ${index}`).join('\n');
    const after = Array.from({ length: 100 }, (_, index) => `new ${index}`).join('\n');
    emit(
      { type: 'turn_start', turn: 1 },
      { type: 'turn_end', turn: 1 } as SessionEvent,
      { type: 'tool_start', turn: 1, toolCall: { id: 'c1', name: 'write_file', arguments: '{}' }, args: { path: 'big.txt' } } as SessionEvent,
    );
    const request: PermissionRequest = {
      tool: 'write_file',
      callId: 'c1',
      action: { kind: 'write', paths: ['/project/big.txt'], summary: 'overwrite big.txt', preview: makeDiffDisplay('big.txt', before, after) },
      cwd: '/project',
      reason: 'write_file needs approval',
      alwaysRule: { tool: 'write_file', pattern: 'big.txt', decision: 'allow', source: 'session' },
    };
    const answer: Promise<AskAnswer> = bridge.ask!(request);
    await waitFor(() => expect(frame()).toContain('pgup/pgdn to scroll'));
    const live = liveArea();
    expect(live.length).toBeLessThanOrEqual(ROWS - 1);
    expect(live.join('\n')).toContain('Allow overwrite big.txt?');
    expect(live.join('\n')).toContain('n) No (esc)');
    expect(live.join('\n')).toMatch(/Todos 3\/12 \(3 above, 8 below\)/); // beside a question: the title and the current item
    expect(live.join('\n')).toContain('◐ step 3');
    view.stdin.write('y');
    await expect(answer).resolves.toBe('yes');
    view.unmount();
  });
});
