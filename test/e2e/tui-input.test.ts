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
      h.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch styled' } }] });
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
      // A no ends the turn: the row says so and the prompt is back.
      await t.waitFor(/⊘ bash touch styled[\s\S]*ask seek/);
      expect(h.server.requests).toHaveLength(1);
    });

    it('runs a prompt queued during a turn once the turn ends', async () => {
      const { root, home } = makeProject();
      h.server.enqueue({ text: 'first answer, streamed slowly', chunkDelayMs: 300 }, { text: 'second answer' });
      const t = h.start(root, home, { width, height });
      await t.waitFor('ask seek');
      t.type('one');
      t.keys('Enter');
      await t.waitFor('esc to cancel');
      t.type('follow2');
      t.keys('Enter');
      await t.waitFor('second answer');
      expect(h.server.requests).toHaveLength(2);
      expect(h.server.requests[1]!.body.messages.at(-1).content).toBe('follow2');
      await t.waitFor(/^› ask seek/m); // idle again, nothing left queued
      expect(t.screen()).not.toContain('(queued)');
    });

    it('Esc cancels the turn and puts the queued prompts back into the input instead of sending them', async () => {
      const { root, home } = makeProject();
      h.server.enqueue({ hang: true });
      const t = h.start(root, home, { width, height });
      await t.waitFor('ask seek');
      t.type('this will hang');
      t.keys('Enter');
      await t.waitFor('esc to cancel');
      await waitUntil(() => h.server.requests.length === 1, 'the hanging request reached the server');
      await expectCursorAt(t, '› type to queue', 2); // shown mid-turn too, the spinner ticking
      t.type('queued later');
      t.keys('Enter');
      await t.waitFor('queued later (queued)');
      t.keys('Escape');
      await t.waitFor('cancelled');
      await t.waitFor(/^› queued later/m);
      expect(t.screen()).not.toContain('(queued)');
      expect(h.server.requests).toHaveLength(1);
    });

    it('Ctrl+C clears a draft, exits only from an empty prompt pressed twice; the hint goes at the next key', async () => {
      const { root, home } = makeProject();
      const t = h.start(root, home, { width, height });
      await t.waitFor('ask seek');
      t.type('a draft to drop');
      await t.waitFor('› a draft to drop');
      t.keys('C-c');
      await t.waitFor(/^› ask seek/m);
      expect(t.screen()).not.toContain('press ctrl+c again');
      t.keys('C-c');
      await t.waitFor('press ctrl+c again to exit');
      t.type('x');
      await t.waitFor('› x');
      await waitUntil(() => !t.screen().includes('press ctrl+c again'), 'the exit hint went away');
      t.type(' y z');
      t.keys('C-w');
      await t.waitFor(/^› x y$/m);
      t.keys('C-a');
      t.type('>');
      await t.waitFor('› >x y');
      t.keys('C-e', 'C-u');
      await t.waitFor(/^› ask seek/m);
      t.keys('C-c');
      await t.waitFor('press ctrl+c again to exit');
      t.keys('C-c');
      await t.waitFor('[seek exited 0]');
    });

    it('keeps a partial answer cut by Esc, marked, for the next request and after a resume', async () => {
      const { root, home } = makeProject();
      // Three pieces of 12 characters, one every 2.5 s: Esc comes after the first.
      h.server.enqueue({ text: 'Seen half of the answer and the rest', chunkDelayMs: 2500 });
      const first = h.start(root, home, { width, height });
      await first.waitFor('ask seek');
      first.type('explain');
      first.keys('Enter');
      await first.waitFor('Seen half of');
      first.keys('Escape');
      await first.waitFor('[interrupted by the user]');
      await first.waitFor('cancelled');
      first.keys('C-c', 'C-c');
      await first.waitFor('[seek exited 0]');
      first.kill();

      h.server.enqueue({ text: 'carrying on' });
      const resumed = h.start(root, home, { width, height, args: ['--continue'] });
      await resumed.waitFor('[interrupted by the user]');
      resumed.type('go on');
      resumed.keys('Enter');
      await resumed.waitFor('carrying on');
      const messages = h.server.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
      expect(messages.slice(1).map((m) => [m.role, m.content])).toEqual([
        ['user', 'explain'],
        ['assistant', 'Seen half of\n\n[interrupted by the user]'],
        ['user', 'go on'],
      ]);
    });
  });
});
