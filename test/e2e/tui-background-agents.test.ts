/**
 * Background subagents in the terminal UI (tmux): Ctrl+B moves a running foreground child to the
 * background, the status bar counts it, the parent's turn goes on, and once the child ends the
 * idle session starts a turn by itself to take the result (and says so).
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/scripted-server/index.js';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import { waitUntil } from '../support/tmux.js';

const h = tuiHarness();
const isChild = (request: RecordedRequest) => String(request.body.messages[0]?.content ?? '').includes('\n# Subagent\n');
const hasBackgroundResult = (request: RecordedRequest) => JSON.stringify(request.body.messages).includes('<context source=\\"background-agents\\">');

describe.skipIf(!hasTmux)('background subagents in the terminal UI (tmux, 110x36)', () => {
  it('Ctrl+B moves the running child to the background; its result starts a turn of the idle session', async () => {
    const { root, home } = makeProject();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    h.server.setFallback((request) => {
      if (isChild(request)) return { text: 'the slow look found 7 files', pauseAfterChunks: { chunks: 1, until: held } };
      const assistants = request.body.messages.filter((m: { role: string }) => m.role === 'assistant').length;
      if (assistants === 0) return { toolCalls: [{ name: 'agent', arguments: { description: 'slow look', prompt: 'Count the files', subagent_type: 'explore' } }] };
      return hasBackgroundResult(request) ? { text: 'The background look says 7 files.' } : { text: 'Moved on while it works.' };
    });
    const t = h.start(root, home, { width: 110, height: 36 });
    await t.waitFor('ask seek');
    t.type('count the files');
    t.keys('Enter');
    // The child is running in the foreground (its model call is held).
    await t.waitFor(/slow look/);
    await waitUntil(() => h.server.requests.some(isChild), 'the child request');
    t.keys('C-b');
    await t.waitFor('moved "slow look" to the background');
    await t.waitFor('Moved on while it works.');
    await t.waitFor('⤴ 1 agent');
    const second = h.server.requests.filter((r) => !isChild(r))[1]!;
    expect(JSON.stringify(second.body.messages)).toContain('[agent: moved to background] slow look');
    release();
    await t.waitFor('seek takes its result now');
    await t.waitFor('The background look says 7 files.');
    const last = h.server.requests.filter((r) => !isChild(r)).at(-1)!;
    expect(hasBackgroundResult(last)).toBe(true);
    expect(JSON.stringify(last.body.messages)).toContain('[agent: completed] the slow look found 7 files');
  });
});
