import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { CostTracker } from '../../../../src/cost/tracker.js';
import { PermissionPolicy } from '../../../../src/policy/policy.js';
import type { AgentSession } from '../../../../src/runtime/session.js';
import type { AskAnswer, PermissionPrompt } from '../../../../src/policy/tool-gate.js';
import { App, type PermissionBridge } from '../../../../src/tui/App.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { tempDir } from '../../../support/temp-dirs.js';
import { flush, memoryHistory, waitFor } from '../input/helpers.js';

const REQUEST: PermissionPrompt = {
  tool: 'bash',
  callId: 'c1',
  action: { kind: 'bash', paths: ['/x'], command: 'npm test', summary: 'bash: npm test' },
  cwd: '/x',
  reason: 'bash needs approval',
  alwaysRule: { tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' },
};

function renderApp() {
  const root = tempDir('seek-approval-int-');
  const fake = {
    id: 'sid',
    model: 'deepseek-v4-flash',
    cwd: root,
    contextWindow: 128_000,
    history: [],
    tracker: new CostTracker(),
    policy: new PermissionPolicy({ root, sandbox: { available: true } }),
    todos: { get: () => [], subscribe: () => () => {} },
    subscribe: () => () => {},
    async prompt() {},
    async close() {},
  } as unknown as AgentSession;
  const bridge: PermissionBridge = {};
  const view = render(
    <App session={fake} openSession={async () => fake} bridge={bridge} history={memoryHistory()} fileSearch={() => []} color={false} onSessionChange={() => {}} />,
  );
  return { view, bridge, frame: () => stripAnsi(view.lastFrame() ?? '') };
}

describe('the approval prompt and interrupts', () => {
  it('Ctrl+C at the prompt denies the action (ending the turn), the box goes, and the next y reaches the input', async () => {
    const { view, bridge, frame } = renderApp();
    await flush();
    const answer: Promise<AskAnswer> = bridge.ask!(REQUEST);
    await waitFor(() => expect(frame()).toContain('Allow bash: npm test?'));
    await flush();
    view.stdin.write('\u0003');
    await expect(answer).resolves.toEqual({ decline: 'stop' });
    await waitFor(() => expect(frame()).not.toContain('Allow bash: npm test?'));
    await waitFor(() => expect(frame()).toContain('ask seek'));
    await flush();
    view.stdin.write('y');
    await waitFor(() => expect(frame()).toContain('› y'));
    view.unmount();
  });

  it('a call cancelled elsewhere (its signal aborts) takes its question off the screen, answered no', async () => {
    const { view, bridge, frame } = renderApp();
    await flush();
    const controller = new AbortController();
    const answer = bridge.ask!(REQUEST, controller.signal);
    await waitFor(() => expect(frame()).toContain('Allow bash: npm test?'));
    controller.abort();
    await expect(answer).resolves.toBe('no');
    await waitFor(() => expect(frame()).not.toContain('Allow bash: npm test?'));
    expect(frame()).toContain('ask seek');
    view.unmount();
  });
});
