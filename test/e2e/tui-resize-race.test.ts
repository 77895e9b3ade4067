import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import { waitUntil, type TmuxSeek } from '../support/tmux.js';

const h = tuiHarness();

/**
 * Round `round`'s answer: short list items and two paragraphs wider than the narrowest terminal.
 * Every word is a token found nowhere else (`t3n7w2`), so a token counted in the whole history
 * says whether its row was lost (0) or left twice (2), wherever the terminal or seek wrapped it.
 */
function answerOf(round: number): { text: string; tokens: string[] } {
  const long = (line: number) => Array.from({ length: 12 }, (_, word) => `t${round}n${line}w${word}`);
  const lines = [
    `t${round}n0 first line`,
    '',
    long(1).join(' '),
    '',
    ...Array.from({ length: 8 }, (_, index) => `- t${round}n${index + 2} item`),
    '',
    long(10).join(' '),
    '',
    `t${round}n11 last line`,
  ];
  const tokens = lines.flatMap((line) => line.split(/\s+/).filter((word) => /^t\d+n\d+/.test(word)));
  return { text: lines.join('\n'), tokens };
}

const rowsMatching = (text: string, pattern: RegExp) => text.split('\n').filter((row) => pattern.test(row)).length;
const tokenCount = (text: string, token: string) => text.match(new RegExp(`\\b${token}\\b`, 'g'))?.length ?? 0;

/** The whole history, lines the terminal wrapped joined (what a user scrolling back reads). */
function expectEachOnce(t: TmuxSeek, tokens: readonly string[], prompts: readonly string[], when: string): void {
  const history = t.joinedHistory();
  const wrong = tokens.filter((token) => tokenCount(history, token) !== 1).map((token) => `${token}×${tokenCount(history, token)}`);
  expect(wrong, `${when}: answer words lost or doubled\n--- history ---\n${history}`).toEqual([]);
  for (const prompt of prompts) expect(rowsMatching(history, new RegExp(`› ${prompt}$`)), `${when}: "› ${prompt}"\n${history}`).toBe(1);
  // The input's row and the status bar live only in the live area: once, at the bottom.
  expect(rowsMatching(history, /› (ask seek|type to queue)/), `${when}: the prompt row\n${history}`).toBe(1);
  expect(rowsMatching(history, /^ask · /), `${when}: the status bar\n${history}`).toBe(1);
}

/** The bottom row, the status bar, as seek draws it at `width` columns: from the row's start and
 * filling it (the terminal's own reflow of a bar drawn for another width splits or cuts it). */
function barDrawnAt(t: TmuxSeek, width: number): boolean {
  const last = t.visibleLines().filter((row) => row.trim() !== '').at(-1) ?? '';
  // At 40 columns the bar has no room for its hint.
  return width === 40 ? /^ask · /.test(last) && last.length <= width : last.length === width && /\/help$/.test(last);
}

/**
 * Waits until the turn is over and seek has drawn its live area for `width` columns. The screen
 * of a terminal that reflowed the old frame can look the same (120 → 40 → 120), so a key typed
 * into the input proves it: its frame is drawn after the resize, then Backspace takes it away.
 */
async function idleAt(t: TmuxSeek, width: number): Promise<void> {
  const live = (probe: string) => () => barDrawnAt(t, width) && t.visibleLines().some((row) => row.startsWith(`› ${probe}`));
  const fail = (error: Error) => {
    throw new Error(`${error.message}; the screen shows:\n${t.visible()}`);
  };
  await waitUntil(live('ask seek'), `the idle live area at ${width} columns`, 30_000).catch(fail);
  t.type('z');
  await waitUntil(live('z'), `the typed probe at ${width} columns`, 30_000).catch(fail);
  t.keys('BSpace');
  await waitUntil(live('ask seek'), `the probe erased at ${width} columns`, 30_000).catch(fail);
}

/** Polls the screen as fast as tmux answers until `token` shows (the answer's last line drawn),
 * so that what follows lands while seek moves the finished answer into the scrollback. */
async function whenShown(t: TmuxSeek, token: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!t.visible().includes(token)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${token}; the screen shows:\n${t.visible()}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe.skipIf(!hasTmux)('a resize at any moment duplicates or loses no row (tmux stress)', () => {
  // Resized once each answer's end is drawn and the live area is idle. A resize that meets bytes
  // seek has written but the terminal has not read yet (the last frame of an answer, in flight as
  // the window changes) is laid out by the terminal for the new width, which seek cannot know: a
  // CI run under load once left the input's row twice that way, so that moment is not asserted
  // here (docs/terminal-ui.md, limits). The second test resizes while frames are being written.
  it('narrowed after each answer, 12 rounds in one session: 80 → 40, and 120 → 40 → 120 at once', async () => {
    const { root, home } = makeProject();
    const t = h.start(root, home, { width: 80, height: 30 });
    await t.waitFor('ask seek');
    const tokens: string[] = [];
    const prompts: string[] = [];
    let width = 80;
    for (let round = 1; round <= 12; round++) {
      const answer = answerOf(round);
      h.server.enqueue({ text: answer.text });
      const wide = round % 2 === 0;
      if (wide !== (width === 120)) {
        width = wide ? 120 : 80;
        t.resize(width, 30);
        await idleAt(t, width);
      }
      t.type(`round ${round} please`);
      t.keys('Enter');
      await whenShown(t, answer.tokens.at(-1)!);
      await idleAt(t, width);
      t.resize(40, 30);
      if (wide) t.resize(120, 30);
      else width = 40;
      await idleAt(t, width);
      tokens.push(...answer.tokens);
      prompts.push(`round ${round} please`);
      expectEachOnce(t, tokens, prompts, `round ${round}`);
    }
  });

  it('resized back and forth while an answer streams and as it ends', async () => {
    const { root, home } = makeProject();
    const t = h.start(root, home, { width: 120, height: 30 });
    await t.waitFor('ask seek');
    const tokens: string[] = [];
    const prompts: string[] = [];
    for (let round = 1; round <= 4; round++) {
      const answer = answerOf(round);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      // The role, then the first third of the answer; the rest waits for the gate.
      h.server.enqueue({ text: answer.text, pauseAfterChunks: { chunks: 2, until: gate } });
      t.type(`stream ${round} please`);
      t.keys('Enter');
      await whenShown(t, answer.tokens[0]!);
      for (const width of [80, 40, 120, 40, 80, 120]) t.resize(width, 30);
      release();
      for (const width of [40, 120]) t.resize(width, 30);
      await whenShown(t, answer.tokens.at(-1)!);
      t.resize(40, 30);
      t.resize(120, 30);
      await idleAt(t, 120);
      tokens.push(...answer.tokens);
      prompts.push(`stream ${round} please`);
      expectEachOnce(t, tokens, prompts, `round ${round}`);
    }
  });
});
