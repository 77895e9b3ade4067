import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { CostTracker } from '../../../../src/cost/tracker.js';
import type { SessionEvent, SessionListener } from '../../../../src/runtime/events.js';
import type { AgentSession } from '../../../../src/runtime/session.js';
import { App } from '../../../../src/tui/App.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { flush, KEYS, memoryHistory, waitFor } from '../input/helpers.js';

/**
 * A session whose `prompt` the test finishes by hand: the turn's events (user message, loop_end)
 * and the promise's resolution come apart, as in the real session, which still flushes its file
 * after the loop has ended.
 */
function deferredSession() {
  const listeners = new Set<SessionListener>();
  const prompts: Array<{ text: string; signal: AbortSignal; finish: () => void }> = [];
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
    prompt(text: string, signal: AbortSignal) {
      return new Promise<void>((resolve) => prompts.push({ text, signal, finish: resolve }));
    },
    async close() {},
  };
  const emit = (...events: SessionEvent[]) => events.forEach((event) => listeners.forEach((listener) => listener(event)));
  return { session: session as unknown as AgentSession, emit, prompts };
}

const mounted: Array<ReturnType<typeof render>> = [];
afterEach(() => {
  for (const view of mounted.splice(0)) view.unmount();
});

function renderApp(session: AgentSession) {
  const view = render(
    <App
      session={session}
      openSession={async () => session}
      bridge={{}}
      history={memoryHistory()}
      fileSearch={() => []}
      color={false}
      onSessionChange={() => {}}
    />,
  );
  mounted.push(view);
  return { ...view, frame: () => stripAnsi(view.lastFrame() ?? '') };
}

async function submit(view: ReturnType<typeof renderApp>, text: string) {
  view.stdin.write(text);
  await flush();
  view.stdin.write(KEYS.enter);
  await flush();
}

describe('App: the prompt queue', () => {
  it('sends a prompt submitted after the turn ended but before its run finished (no state changes then)', async () => {
    const { session, emit, prompts } = deferredSession();
    const view = renderApp(session);
    await flush();
    await submit(view, 'first');
    expect(prompts.map((p) => p.text)).toEqual(['first']);
    emit({ type: 'message', message: { role: 'user', content: 'first' } }, { type: 'loop_end', reason: 'completed', turns: 1, finalText: '' });
    await flush();
    await submit(view, 'follow2'); // the UI looks idle, the run has not returned yet: queued
    expect(view.frame()).toContain('follow2 (queued)');
    prompts[0]!.finish();
    await waitFor(() => expect(prompts.map((p) => p.text)).toEqual(['first', 'follow2']));
    await waitFor(() => expect(view.frame()).not.toContain('(queued)'));
  });

  it('Esc cancels the run and puts the queued prompts back into the input; nothing more is sent', async () => {
    const { session, emit, prompts } = deferredSession();
    const view = renderApp(session);
    await flush();
    await submit(view, 'first');
    emit({ type: 'message', message: { role: 'user', content: 'first' } });
    await flush();
    await submit(view, 'second');
    await submit(view, 'third');
    expect(view.frame()).toContain('third (queued)');
    view.stdin.write(KEYS.escape);
    await flush();
    expect(prompts[0]!.signal.aborted).toBe(true);
    emit({ type: 'loop_end', reason: 'aborted', turns: 1, finalText: '' });
    prompts[0]!.finish();
    await flush();
    expect(view.frame()).toContain('› second\n  third');
    expect(view.frame()).not.toContain('(queued)');
    expect(prompts).toHaveLength(1);
  });
});
