import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import type { TmuxSeek } from '../support/tmux.js';

const h = tuiHarness();

const SHELL = Array.from({ length: 30 }, (_, index) => `shell-line-${index + 1}`);

/** The pane's history from the first shell line on, up to seek's header: what the shell printed. */
function shellPart(t: TmuxSeek): string[] {
  const rows = t.history().split('\n');
  const first = rows.indexOf('shell-line-1');
  const header = rows.findIndex((row) => row.startsWith('seek 0.'));
  return first === -1 || header === -1 ? rows : rows.slice(first, header);
}

/** Everything seek printed into the scrollback stays: the shell's lines unchanged and in order,
 * then the conversation, whatever full-screen view was opened and closed meanwhile. */
function expectKept(t: TmuxSeek, step: string): void {
  expect(shellPart(t), `after ${step}:\n${t.history()}`).toEqual(SHELL);
  const history = t.history();
  expect(history.split('\n').filter((row) => row === 'The first answer.').length, `after ${step}`).toBe(1);
}

describe.skipIf(!hasTmux)('seek never clears the scrollback (tmux, 80x24)', () => {
  it('the shell lines before seek and the conversation stay, unchanged, after Ctrl+O and back, /rewind and back, and /clear', async () => {
    const { root, home } = makeProject({ 'notes.txt': 'one\n' });
    h.server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }, { text: 'The first answer.' });
    const t = h.start(root, home, { width: 80, height: 24, before: `for i in $(seq 1 30); do echo shell-line-$i; done` });
    await t.waitFor('ask seek');
    t.type('read the notes');
    t.keys('Enter');
    await t.waitFor(/The first answer\.[\s\S]*ask seek/);
    expectKept(t, 'the first turn');

    // Ctrl+O: the transcript, full screen on the alternate screen, with the tool's output.
    t.keys('C-o');
    const transcript = await t.waitFor('esc or ctrl+o close');
    expect(t.visible()).toContain('transcript');
    expect(transcript).toContain('read notes.txt');
    t.keys('Escape');
    await t.waitFor(/ask seek/);
    await waitGone(t, 'esc or ctrl+o close');
    expectKept(t, 'Ctrl+O and back');
    expect(t.visible()).toMatch(/The first answer\.[\s\S]*› ask seek/);

    // /rewind opens its picker; Esc closes it.
    t.type('/rewind');
    t.keys('Enter');
    await t.waitFor('Rewind to');
    t.keys('Escape');
    await waitGone(t, 'Rewind to');
    expectKept(t, '/rewind and back');

    // /clear: a new conversation below a marker; nothing above it is erased.
    t.type('/clear');
    t.keys('Enter');
    await t.waitFor(/── new conversation · session \w+/);
    expectKept(t, '/clear');
    expect(t.history()).toMatch(/The first answer\.[\s\S]*── new conversation · session/);
  });
});

/** Waits until the visible screen no longer shows `text`. */
async function waitGone(t: TmuxSeek, text: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (t.visible().includes(text)) {
    if (Date.now() > deadline) throw new Error(`still showing ${text}:\n${t.visible()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
