import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import { waitUntil, type TmuxSeek } from '../support/tmux.js';

const h = tuiHarness();

const SHELL = Array.from({ length: 30 }, (_, index) => `shell-line-${index + 1}`);

/** Everything the pane holds before the view opened, as it was. */
function mainScreen(t: TmuxSeek): string {
  return t.history().trimEnd();
}

/** Opens a view with `open`, checks it is drawn on the alternate screen, closes it with Esc, and
 * checks the main screen and its scrollback came back exactly as they were. */
async function opensOnAlternate(t: TmuxSeek, what: string, open: () => void | Promise<void>, shows: string): Promise<void> {
  const before = mainScreen(t);
  expect(t.onAlternateScreen()).toBe(false);
  await open();
  await t.waitFor(shows);
  expect(t.onAlternateScreen(), `${what} is on the alternate screen`).toBe(true);
  t.keys('Escape');
  await waitUntil(() => !t.onAlternateScreen(), `${what} left the alternate screen`);
  await t.waitFor('› ask seek');
  expect(mainScreen(t), `after ${what}`).toBe(before);
  expect(t.history()).toContain(SHELL.join('\n'));
}

describe.skipIf(!hasTmux)('pickers on the alternate screen (tmux, 80x24)', () => {
  it('the rewind picker (a picker, as /model and /resume are) opens there and leave the scrollback untouched', async () => {
    const { root, home } = makeProject({ 'notes.txt': 'one\n' });
    h.server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }, { text: 'The first answer.' });
    const t = h.start(root, home, { width: 80, height: 24, before: `for i in $(seq 1 30); do echo shell-line-$i; done` });
    await t.waitFor('ask seek');
    t.type('read the notes');
    t.keys('Enter');
    await t.waitFor(/The first answer\.[\s\S]*ask seek/);

    await opensOnAlternate(
      t,
      'the rewind picker',
      () => {
        t.type('/rewind');
        t.keys('Enter');
      },
      'Rewind to',
    );
  });
});
