import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { ToolDisplay } from '../../../../src/agent/types.js';
import { CostTracker } from '../../../../src/cost/tracker.js';
import type { SessionEvent, SessionListener } from '../../../../src/runtime/events.js';
import type { AgentSession } from '../../../../src/runtime/session.js';
import { App } from '../../../../src/tui/App.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { flush, KEYS, memoryHistory, waitFor } from '../input/helpers.js';

const CTRL_T = '\u0014';

function fakeSession() {
  const listeners = new Set<SessionListener>();
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
    async prompt() {},
    async close() {},
  };
  const emit = (...events: SessionEvent[]) => events.forEach((event) => listeners.forEach((listener) => listener(event)));
  return { session: session as unknown as AgentSession, emit };
}

function toolRun(id: string, command: string, output: string, exitCode = 0): SessionEvent[] {
  const toolCall = { id, name: 'bash', arguments: JSON.stringify({ command }) };
  const display: ToolDisplay = { kind: 'command', command, cwd: '/project', exitCode, output };
  return [
    { type: 'tool_start', turn: 1, toolCall, args: { command } },
    { type: 'tool_end', turn: 1, toolCall, result: { content: output, display }, durationMs: 5, message: { role: 'tool', toolCallId: id, toolName: 'bash', content: output, isError: false } },
  ];
}

describe('Ctrl+T: the whole output of a tool row', () => {
  it('opens on the last row with all of its output, steps to the row before with ←, scrolls, and closes with Ctrl+T again', async () => {
    const { session, emit } = fakeSession();
    const view = render(
      <App session={session} openSession={async () => session} bridge={{}} history={memoryHistory()} fileSearch={() => []} color={false} onSessionChange={() => {}} />,
    );
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    await flush();
    const long = Array.from({ length: 12 }, (_, index) => `row ${index + 1}`).join('\n');
    emit(
      { type: 'message', message: { role: 'user', content: 'run them' } },
      { type: 'turn_start', turn: 1 },
      ...toolRun('c1', 'echo first', 'first output'),
      ...toolRun('c2', 'seq 12', long),
      { type: 'loop_end', reason: 'completed', turns: 1, finalText: '' },
    );
    await waitFor(() => expect(frame()).toContain('… 9 more lines · ctrl+t shows all'));
    expect(frame()).not.toContain('row 12');
    view.stdin.write(CTRL_T);
    await waitFor(() => expect(frame()).toContain('tool 2 of 2'));
    expect(frame()).toContain('row 12'); // the whole output, the rows the transcript left out included
    expect(frame()).not.toContain('ask seek'); // the box has the keys, not the input line
    view.stdin.write(KEYS.left);
    await waitFor(() => expect(frame()).toContain('tool 1 of 2'));
    expect(frame()).toMatch(/│ ✓ bash echo first/);
    view.stdin.write(CTRL_T);
    await waitFor(() => expect(frame()).not.toContain('tool 1 of 2'));
    expect(frame()).toContain('ask seek');
    view.unmount();
  });

  it('scrolls output taller than the box and says how much is above and below', async () => {
    const { session, emit } = fakeSession();
    const view = render(
      <App session={session} openSession={async () => session} bridge={{}} history={memoryHistory()} fileSearch={() => []} color={false} onSessionChange={() => {}} />,
    );
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    await flush();
    const tall = Array.from({ length: 80 }, (_, index) => `line ${index + 1}`).join('\n');
    emit({ type: 'turn_start', turn: 1 }, ...toolRun('c1', 'seq 80', tall), { type: 'loop_end', reason: 'completed', turns: 1, finalText: '' });
    // The row is on the screen (events reach it in batches) before the panel opens.
    await waitFor(() => expect(frame()).toContain('ctrl+t shows all'));
    view.stdin.write(CTRL_T);
    await waitFor(() => expect(frame()).toMatch(/tool 1 of 1 .* below/));
    expect(frame()).not.toContain('line 80');
    view.stdin.write(KEYS.end);
    await waitFor(() => expect(frame()).toContain('line 80'));
    expect(frame()).toMatch(/above · esc close/);
    view.stdin.write(KEYS.escape);
    await waitFor(() => expect(frame()).toContain('ask seek'));
    view.unmount();
  });

  it('a key pressed the moment the output fills a panel opened before it scrolls that output (not the empty panel of the frame before)', async () => {
    const { session, emit } = fakeSession();
    const view = render(
      <App session={session} openSession={async () => session} bridge={{}} history={memoryHistory()} fileSearch={() => []} color={false} onSessionChange={() => {}} />,
    );
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    await flush();
    const tall = Array.from({ length: 80 }, (_, index) => `line ${index + 1}`).join('\n');
    // End goes in right after the first frame that shows the output is written, before React runs
    // that frame's effects (which attach the panel's key handler of that frame).
    const stdout = view.stdout as unknown as { write: (frame: string) => void };
    const write = stdout.write.bind(stdout);
    let sent = false;
    stdout.write = (text: string) => {
      write(text);
      if (!sent && stripAnsi(text).includes('63 below')) {
        sent = true;
        queueMicrotask(() => view.stdin.write(KEYS.end));
      }
    };
    // Ctrl+T before the tool's events reach the screen (they come in batches): the panel opens
    // (and renders) with no rows, then fills in.
    emit({ type: 'turn_start', turn: 1 }, ...toolRun('c1', 'seq 80', tall), { type: 'loop_end', reason: 'completed', turns: 1, finalText: '' });
    view.stdin.write(CTRL_T);
    await waitFor(() => expect(frame()).toContain('line 80'));
    expect(sent).toBe(true);
    expect(frame()).toMatch(/63 above · esc close/);
    view.unmount();
  });
});
