import { EventEmitter } from 'node:events';
// First: hides CI while Ink loads, as the real launcher does (in CI mode Ink writes no intermediate frames).
import { restoreEnvironment } from '../../../../src/tui/terminal-env.js';
import { Box, render, Text, type Instance } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { InputEditor } from '../../../../src/tui/input/InputEditor.js';
import { HIDE_CURSOR, SHOW_CURSOR, TerminalCursor, TerminalCursorContext } from '../../../../src/tui/terminal-cursor.js';
import { KEYS, flush, memoryHistory, staticCompleter } from './helpers.js';

restoreEnvironment();

/** A terminal as Ink sees it: everything written is kept, in order. */
class FakeTerminal extends EventEmitter {
  readonly isTTY = true;
  columns = 40;
  /** The width the terminal itself reports (TIOCGWINSZ), ahead of `columns` until its SIGWINCH is handled. */
  realColumns = 40;
  readonly _handle = {
    getWindowSize: (size: number[]): number => {
      size[0] = this.realColumns;
      size[1] = this.rows;
      return 0;
    },
  };
  rows = 12;
  readonly writes: string[] = [];
  write(chunk: string): boolean {
    this.writes.push(chunk);
    return true;
  }
}

class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  write(data: string): void {
    this.data = data;
    this.emit('readable');
  }
  read(): string | null {
    const data = this.data;
    this.data = null;
    return data;
  }
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

const instances: Instance[] = [];
afterEach(() => {
  for (const instance of instances.splice(0)) instance.unmount();
});

function mount(active = true) {
  const terminal = new FakeTerminal();
  const stdin = new FakeStdin();
  const cursor = new TerminalCursor(terminal as unknown as NodeJS.WriteStream);
  const tree = (isActive: boolean) => (
    <TerminalCursorContext.Provider value={cursor}>
      <Box flexDirection="column">
        <Text>first line</Text>
        <Text>second line</Text>
        <InputEditor onSubmit={() => {}} history={memoryHistory()} completer={staticCompleter()} active={isActive} width={40} placeholder="ask" />
        <Text>status</Text>
      </Box>
    </TerminalCursorContext.Provider>
  );
  const instance = render(tree(active), {
    stdout: cursor.stream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  instances.push(instance);
  return { terminal, stdin, cursor, rerender: (isActive: boolean) => instance.rerender(tree(isActive)) };
}

/** Waits (up to ten seconds, for a saturated CPU) until `condition` holds: Ink writes a frame up to 1/30 s late. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the terminal writes');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The cursor movement that parks it `up` rows above Ink's resting place, at 0-based `column`. */
const parked = (up: number, column: number) => `\u001b[${up}A\u001b[${column + 1}G${SHOW_CURSOR}`;

describe('TerminalCursor', () => {
  it('parks the terminal cursor at the insertion point after each frame, and brings it back before the next', async () => {
    const { terminal, stdin } = mount();
    await flush();
    // Output: 4 lines (the editor is the third); Ink rests on the line below the last one.
    expect(terminal.writes.at(-1)).toBe(parked(2, 2));
    stdin.write('abc');
    await until(() => terminal.writes.some((chunk) => chunk.includes('› abc')) && terminal.writes.at(-1) === parked(2, 5));
    const all = terminal.writes.join('');
    const frame = all.indexOf('› abc');
    const back = all.lastIndexOf(`${HIDE_CURSOR}\u001b[2B\r`, frame); // back down before the frame
    expect(all.lastIndexOf(parked(2, 2), frame)).toBeLessThan(back);
    expect(all.slice(back, frame)).not.toContain(SHOW_CURSOR);
    expect(terminal.writes.at(-1)).toBe(parked(2, 5));
  });

  it('moves the cursor when only the insertion point changes (the frame itself stays the same)', async () => {
    const { terminal, stdin } = mount();
    await flush();
    stdin.write('abc');
    await until(() => terminal.writes.at(-1) === parked(2, 5));
    const before = terminal.writes.length;
    stdin.write(KEYS.left);
    await flush();
    expect(terminal.writes.slice(before)).toEqual([`${HIDE_CURSOR}\u001b[2B\r${parked(2, 4)}`]);
  });

  it('hides the cursor while the editor has no focus, and puts it back on dispose', async () => {
    const { terminal, rerender, cursor } = mount();
    await flush();
    rerender(false);
    await flush();
    expect(terminal.writes.join('').lastIndexOf(SHOW_CURSOR)).toBeLessThan(terminal.writes.join('').lastIndexOf(HIDE_CURSOR));
    rerender(true);
    await flush();
    expect(terminal.writes.at(-1)).toBe(parked(2, 2));
    cursor.dispose();
    expect(terminal.writes.at(-1)).toBe(`${HIDE_CURSOR}\u001b[2B\r`);
  });

  it('a terminal narrowed before its SIGWINCH is handled: the next frame is erased by the rows it was reflowed into, from where the cursor was parked', async () => {
    const { terminal, stdin } = mount();
    await flush();
    expect(terminal.writes.at(-1)).toBe(parked(2, 2));
    terminal.realColumns = 5; // the terminal reflowed the frame; Node still says 40 columns
    const before = terminal.writes.length;
    stdin.write('x');
    await until(() => terminal.writes.some((chunk) => chunk.includes('› x')));
    const after = terminal.writes.slice(before).join('');
    // Parked on the editor's row (column 2): up to its first row as reflowed at 5 columns
    // ('first line' takes 2 rows, 'second line' 3), never back down by the 2 rows counted at 40.
    expect(after.indexOf('\u001b[5A\r\u001b[J')).toBeGreaterThanOrEqual(0);
    expect(after.indexOf('\u001b[5A\r\u001b[J')).toBeLessThan(after.indexOf('› x'));
    expect(after).not.toContain(`${HIDE_CURSOR}\u001b[2B\r`);
  });
});
