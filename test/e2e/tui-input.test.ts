import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { waitUntil, type TmuxSeek } from '../support/tmux.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

const SIZES = [
  { width: 80, height: 24 },
  { width: 120, height: 40 },
] as const;

/** An SGR sequence (colour or style) as `tmux capture-pane -e` writes it. */
const SGR = /\u001b\[[\d;]*m/;
/** An SGR sequence that sets attribute `code` (2 dim, 7 inverse, 3x a colour). */
const sgrWith = (code: string) => new RegExp(`\u001b\\[(?:[\\d;]*;)?${code}(?:;[\\d;]*)?m`);

/** The row of the last visible line that starts with `start`. */
function rowOf(t: TmuxSeek, start: string): number {
  const lines = t.visibleLines();
  for (let row = lines.length - 1; row >= 0; row -= 1) if (lines[row]!.startsWith(start)) return row;
  return -1;
}

/** Waits until the terminal's cursor is shown at column `x` of the row that starts with `rowStart`. */
async function expectCursorAt(t: TmuxSeek, rowStart: string, x: number): Promise<void> {
  let last = '';
  try {
    await waitUntil(() => {
      const cursor = t.cursor();
      const row = rowOf(t, rowStart);
      last = `cursor ${JSON.stringify(cursor)}, row of ${JSON.stringify(rowStart)}: ${row}`;
      return cursor.visible && row >= 0 && cursor.y === row && cursor.x === x;
    }, `the cursor at column ${x} of the row starting ${JSON.stringify(rowStart)}`);
  } catch (error) {
    throw new Error(`${(error as Error).message}; ${last}; the screen:\n${t.visibleLines().join('\n')}`, { cause: error });
  }
}

describe.skipIf(!hasTmux)('terminal UI input (tmux)', () => {
  describe.each(SIZES)('at $width x $height', ({ width, height }) => {
    it('shows the terminal cursor at the insertion point: empty prompt, after typing, moving left, in a multi-line draft', async () => {
      const { root, home } = makeProject();
      const t = h.start(root, home, { width, height });
      await t.waitFor('ask seek');
      await expectCursorAt(t, '› ask seek', 2);
      t.type('hello wörld');
      await expectCursorAt(t, '› hello wörld', 13);
      t.keys('Left', 'Left', 'Left');
      await expectCursorAt(t, '› hello wörld', 10);
      t.keys('End', 'C-j');
      t.type('second line');
      await t.waitFor('  second line');
      await expectCursorAt(t, '  second line', 13);
      t.keys('Up');
      await expectCursorAt(t, '› hello wörld', 13);
    });

    it('draws colours and styles: the dim placeholder, the selected slash-menu row, the approval box', async () => {
      const { root, home } = makeProject();
      h.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch styled' } }] }, { text: 'Not run.' });
      // A CI variable in the user's shell must not turn the styling off.
      const t = h.start(root, home, { width, height, env: { CI: 'true' } });
      await t.waitFor('ask seek');
      const prompt = t.styledScreen().split('\n').find((line) => line.includes('ask seek')) ?? '';
      expect(prompt).toMatch(new RegExp(`${sgrWith('2').source}ask seek`)); // dim
      t.type('/');
      await t.waitFor('/resume');
      const menu = t.styledScreen().split('\n').filter((line) => /^ +\/[a-z]/.test(line.replace(/\u001b\[[\d;]*m/g, '')));
      expect(menu.length).toBeGreaterThan(1);
      expect(menu.filter((line) => sgrWith('7').test(line))).toHaveLength(1); // inverse: the selected row only
      t.keys('C-u');
      await t.waitFor('ask seek');
      t.type('make a file');
      t.keys('Enter');
      await t.waitFor('$ touch styled');
      const box = t.styledScreen().split('\n').filter((line) => line.includes('╭') || line.includes('│'));
      expect(box.length).toBeGreaterThan(0);
      expect(box.some((line) => SGR.test(line))).toBe(true);
      t.type('n');
      await t.waitFor('Not run.');
    });
  });
});
