import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import { waitUntil, type TmuxSeek } from '../support/tmux.js';

const h = tuiHarness();

/** An answer of short lines and lines wider than the narrowest terminal (words, so they wrap). */
const LONG = (n: number) => `Long line ${n}: ${Array.from({ length: 10 }, (_, index) => `word${n}x${index}`).join(' ')} end${n}.`;
const ANSWER_LINES = [
  'First paragraph of the answer.',
  '',
  LONG(1),
  '',
  ...Array.from({ length: 6 }, (_, index) => `- item ${index + 1} of the list`),
  '',
  LONG(2),
  '',
  'Last line of the answer: all done.',
];
const ANSWER = ANSWER_LINES.join('\n');

const occurrences = (text: string, pattern: RegExp) => text.split('\n').filter((row) => pattern.test(row)).length;

/** Every line of the answer, once, in the pane and its scrollback (tmux rejoins what it wrapped
 * itself once the terminal is wide again; a line seek broke would stay broken). */
function expectWholeAnswer(t: TmuxSeek): void {
  const history = t.history();
  for (const line of ANSWER_LINES.filter((line) => line.trim() !== '')) {
    const shown = line.replace(/^- /, '• ');
    expect(occurrences(history, new RegExp(`^\\s*${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`)), `${line}\n--- history ---\n${history}`).toBe(1);
  }
}

/** Waits until seek has drawn its live area for `width` columns: the status bar, the bottom row,
 * spans the whole width (before the redraw, the terminal's own reflow leaves it split in two). */
async function drawnAt(t: TmuxSeek, width: number): Promise<void> {
  await waitUntil(() => {
    const last = t.visibleLines().filter((row) => row.trim() !== '').at(-1) ?? '';
    // At 40 columns the bar has no room for its hint: it is drawn once it starts the last row.
    if (width === 40) return /^ask · /.test(last) && last.length <= width;
    return last.length === width && /(esc to cancel|\/help)$/.test(last);
  }, `the status bar drawn at ${width} columns`).catch((error: Error) => {
    throw new Error(`${error.message}; the screen shows:\n${t.visible()}`);
  });
}

describe.skipIf(!hasTmux)('resizing the terminal loses nothing (tmux)', () => {
  it('120 → 80 → 40 → 120 during an answer and after it: every line of the answer stays, no prompt row is left twice', async () => {
    const { root, home } = makeProject();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Frames: the role, then the answer in three pieces; the stream waits after the second piece.
    h.server.enqueue({ text: ANSWER, pauseAfterChunks: { chunks: 3, until: gate } });
    const before = 'for i in $(seq 1 30); do echo shell-line-$i; done';
    const t = h.start(root, home, { width: 120, height: 40, before });
    await t.waitFor('ask seek');
    t.type('answer at length');
    t.keys('Enter');
    await t.waitFor('item 3 of the list');
    for (const width of [80, 40, 120]) {
      t.resize(width, 40);
      await drawnAt(t, width);
    }
    release();
    await t.waitFor('Last line of the answer: all done.');
    await t.waitFor('ask seek');
    for (const width of [80, 40, 120]) {
      t.resize(width, 40);
      await drawnAt(t, width);
    }
    expectWholeAnswer(t);
    const history = t.history();
    for (let index = 1; index <= 30; index++) expect(occurrences(history, new RegExp(`^shell-line-${index}$`)), `shell-line-${index}`).toBe(1);
    expect(occurrences(history, /› (ask seek|type to queue)/), history).toBe(1);
    expect(occurrences(history, /› answer at length/), history).toBe(1);
  });
});
