import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

/** Tools on demand in the terminal UI: a call through call_tool is shown as the tool it runs,
 * live and after a resume (the session file keeps the proxy call the model made). */
describe.skipIf(!hasTmux)('tools on demand in tmux', () => {
  it('shows agent and todo_write rows, and the child, for calls made through call_tool; never the proxy', async () => {
    const { root, home } = makeProject();
    h.server.enqueue(
      { toolCalls: [{ name: 'tool_search', arguments: { query: 'agent todo_write' } }] },
      { toolCalls: [{ name: 'call_tool', arguments: { name: 'todo_write', arguments: { items: [{ content: 'Count the files', status: 'in_progress' }] } } }] },
      { toolCalls: [{ name: 'call_tool', arguments: { name: 'agent', arguments: { description: 'count files', prompt: 'count the files', subagent_type: 'explore' } } }] },
      { text: 'There is one file.' }, // the child
      { text: 'The child counted one file.' },
    );
    const t = h.start(root, home, { width: 100, height: 40, args: ['--yolo'] });
    await t.waitFor('ask seek');
    t.type('count the files');
    t.keys('Enter');
    const live = await t.waitFor('The child counted one file.');
    expect(live).toMatch(/tool_search/);
    expect(live).toMatch(/Count the files/);
    expect(live).toMatch(/agent[^\n]*count files/);
    expect(live).not.toContain('call_tool');
    // Leave as a user does, and wait for the exit: a killed pane can leave seek still closing (its
    // session open) when the next one starts under load.
    t.type('/exit');
    t.keys('Enter');
    await t.waitFor('[seek exited 0]');
    t.kill();

    const resumed = h.start(root, home, { width: 100, height: 40, args: ['--continue'] });
    const shown = await resumed.waitFor(/The child counted one file\.[\s\S]*ask seek/);
    expect(shown).toMatch(/agent[^\n]*count files/);
    expect(shown).not.toContain('call_tool');
  });
});
