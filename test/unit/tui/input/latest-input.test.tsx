import { describe, expect, it } from 'vitest';
import { Picker } from '../../../../src/tui/components/Picker.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { KEYS, renderAttached, waitFor } from './helpers.js';

/**
 * A key read right after a frame is drawn, before React has run that frame's effects (where Ink
 * attaches a render's key handler), must act on what that frame shows. The rewind picker once
 * restored code and conversation on Enter while the screen's cursor was on "show the diff first".
 */
describe('useLatestInput', () => {
  it('Enter right after the frame that moved the cursor picks the row the cursor is on', async () => {
    const picked: string[] = [];
    const items = ['restore code and conversation', 'restore code only', 'restore conversation only', 'show the diff first'].map((label, i) => ({ value: `v${i}`, label }));
    const view = await renderAttached(<Picker spec={{ title: 'Turn 1', items, onSelect: (value) => void picked.push(value) }} width={60} color={false} onDone={() => {}} />);
    const stdout = view.stdout as unknown as { write: (frame: string) => void };
    const write = stdout.write.bind(stdout);
    let sent = false;
    stdout.write = (text: string) => {
      write(text);
      // Enter goes in as soon as the frame with the cursor on the last row is written.
      if (!sent && /❯ show the diff first/.test(stripAnsi(text))) {
        sent = true;
        view.stdin.write(KEYS.enter);
      }
    };
    view.stdin.write(KEYS.down);
    view.stdin.write(KEYS.down);
    view.stdin.write(KEYS.down);
    await waitFor(() => expect(picked).toHaveLength(1));
    expect(sent).toBe(true);
    expect(picked).toEqual(['v3']);
    view.unmount();
  });
});
