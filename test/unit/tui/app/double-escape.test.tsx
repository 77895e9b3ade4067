import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { CostTracker } from '../../../../src/cost/tracker.js';
import type { SessionEvent, SessionListener } from '../../../../src/runtime/events.js';
import type { AgentSession } from '../../../../src/runtime/session.js';
import { App } from '../../../../src/tui/App.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { flush, KEYS, memoryHistory, waitFor } from '../input/helpers.js';

/** A session with one checkpoint to rewind to, whose turns the test finishes by hand. */
function fakeSession() {
  const listeners = new Set<SessionListener>();
  const prompts: Array<{ signal: AbortSignal; finish: () => void }> = [];
  let listed = 0;
  const point = { turn: 1, kind: 'turn', prompt: 'fix the bug', at: new Date().toISOString(), changedSince: [{ path: 'a.ts', added: 2, removed: 1 }], entryIndex: 0 };
  const emit = (event: SessionEvent) => listeners.forEach((listener) => listener(event));
  const session = {
    id: 'sid',
    model: 'deepseek-v4-flash',
    cwd: '/project',
    contextWindow: 128_000,
    history: [],
    tracker: new CostTracker(),
    policy: { mode: 'ask', subscribe: () => () => {}, cycleMode: () => {} },
    todos: { get: () => [], subscribe: () => () => {} },
    rewind: {
      points: async () => {
        listed += 1;
        return [point];
      },
    },
    subscribe(listener: SessionListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    prompt(_text: string, signal: AbortSignal) {
      return new Promise<void>((resolve) => prompts.push({ signal, finish: resolve }));
    },
    async close() {},
  };
  return { session: session as unknown as AgentSession, prompts, emit, listed: () => listed };
}

const mounted: Array<ReturnType<typeof render>> = [];
afterEach(() => {
  for (const view of mounted.splice(0)) view.unmount();
});

function renderApp(session: AgentSession) {
  const view = render(
    <App session={session} openSession={async () => session} bridge={{}} history={memoryHistory()} fileSearch={() => []} color={false} onSessionChange={() => {}} />,
  );
  mounted.push(view);
  return { ...view, frame: () => stripAnsi(view.lastFrame() ?? '') };
}

async function escape(view: ReturnType<typeof renderApp>) {
  view.stdin.write(KEYS.escape);
  await flush();
}

describe('App: Esc Esc opens /rewind', () => {
  it('on an empty idle prompt: the first Esc shows the hint, the second opens the list', async () => {
    const { session, listed } = fakeSession();
    const view = renderApp(session);
    await flush();
    await escape(view);
    expect(view.frame()).toContain('press esc again to rewind');
    expect(listed()).toBe(0);
    await escape(view);
    await waitFor(() => expect(view.frame()).toMatch(/Rewind to[\s\S]*❯ +\d+s ago +1 file \+2 −1 +fix the bug a\.ts/));
    expect(view.frame()).not.toContain('press esc again to rewind');
    expect(listed()).toBe(1);
  });

  it('not with text in the prompt', async () => {
    const { session, listed } = fakeSession();
    const view = renderApp(session);
    await flush();
    view.stdin.write('draft');
    await flush();
    await escape(view);
    await escape(view);
    expect(view.frame()).not.toContain('press esc again to rewind');
    expect(view.frame()).toContain('› draft');
    expect(listed()).toBe(0);
  });

  it('not while a turn runs: Esc cancels it and does not count', async () => {
    const { session, prompts, listed } = fakeSession();
    const view = renderApp(session);
    await flush();
    view.stdin.write('go');
    await flush();
    view.stdin.write(KEYS.enter);
    await flush();
    // The run has started, none of its events has come yet (the session checkpoints first).
    expect(prompts).toHaveLength(1);
    await escape(view);
    expect(prompts[0]!.signal.aborted).toBe(true);
    expect(view.frame()).not.toContain('press esc again to rewind');
    expect(listed()).toBe(0);
  });

  it("counts once the turn's events ended, while its run still saves the session", async () => {
    const { session, prompts, emit, listed } = fakeSession();
    const view = renderApp(session);
    await flush();
    view.stdin.write('go');
    await flush();
    view.stdin.write(KEYS.enter);
    await flush();
    emit({ type: 'message', message: { role: 'user', content: 'go' } });
    emit({ type: 'loop_end', reason: 'completed', turns: 1, finalText: '' });
    await flush();
    expect(prompts).toHaveLength(1); // not finished: the run has not returned
    await escape(view);
    expect(view.frame()).toContain('press esc again to rewind');
    await escape(view);
    await waitFor(() => expect(view.frame()).toContain('Rewind to'));
    expect(listed()).toBe(1);
  });
});
