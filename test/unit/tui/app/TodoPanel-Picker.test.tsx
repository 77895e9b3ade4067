import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { TodoItem } from '../../../../src/agent/types.js';
import type { PickerSpec } from '../../../../src/tui/commands/types.js';
import { Picker } from '../../../../src/tui/components/Picker.js';
import { TodoPanel } from '../../../../src/tui/components/TodoPanel.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { widestLine } from '../conversation/ink-at-width.js';
import { flush, KEYS, renderAttached } from '../input/helpers.js';

describe('TodoPanel', () => {
  const TODOS: TodoItem[] = [
    { content: 'Read the parser', status: 'completed' },
    { content: 'Fix the off-by-one in tokenize()', status: 'in_progress' },
    { content: 'Add a regression test', status: 'pending' },
    { content: 'Run the whole suite', status: 'pending' },
  ];

  it('renders nothing for an empty list', () => {
    const view = render(<TodoPanel items={[]} width={60} color={false} />);
    expect(view.lastFrame()).toBe('');
    view.unmount();
  });

  it('counts done over total and shows one line per item with its status glyph', () => {
    const view = render(<TodoPanel items={TODOS} width={60} color={false} />);
    expect(stripAnsi(view.lastFrame() ?? '').split('\n')).toEqual([
      'Todos 1/4',
      '  ☑ Read the parser',
      '  ◐ Fix the off-by-one in tokenize()',
      '  ☐ Add a regression test',
      '  ☐ Run the whole suite',
    ]);
    view.rerender(<TodoPanel items={TODOS.map((item) => ({ ...item, status: 'completed' as const }))} width={60} color={false} />);
    const lines = stripAnsi(view.lastFrame() ?? '').split('\n');
    expect(lines[0]).toBe('Todos 4/4');
    expect(lines.slice(1).every((line) => line.startsWith('  ☑ '))).toBe(true);
    view.unmount();
  });

  it('keeps a long item on one line, cut at the width', () => {
    const long: TodoItem[] = [{ content: `Refactor ${'the session store '.repeat(10)}`, status: 'pending' }];
    const view = render(<TodoPanel items={long} width={40} color={false} />);
    const frame = stripAnsi(view.lastFrame() ?? '');
    expect(frame.split('\n')).toHaveLength(2);
    expect(widestLine(frame)).toBeLessThanOrEqual(40);
    expect(frame.split('\n')[1]!.endsWith('…')).toBe(true);
    view.unmount();
  });
});

describe('Picker', () => {
  const MODELS: PickerSpec['items'] = [
    { value: 'deepseek-v4-flash', label: 'deepseek-v4-flash', description: 'fast, cheap' },
    { value: 'deepseek-v4-pro', label: 'deepseek-v4-pro', description: 'reasoning' },
    { value: 'claude-sonnet-4-6', label: 'claude-sonnet-4-6', description: 'anthropic' },
    { value: 'claude-opus-4-7', label: 'claude-opus-4-7', description: 'anthropic, slow' },
  ];

  async function setup(items: PickerSpec['items'] = MODELS) {
    const selected: string[] = [];
    let done = 0;
    const spec: PickerSpec = { title: 'Model', items, onSelect: (value) => void selected.push(value) };
    const view = await renderAttached(<Picker spec={spec} width={60} color={false} onDone={() => (done += 1)} />);
    const lines = () =>
      stripAnsi(view.lastFrame() ?? '')
        .split('\n')
        .slice(1, -1) // the border
        .map((line) => line.replace(/^│ /, '').replace(/ *│$/, ''));
    /** The item rows: the highlighted one starts with ❯. */
    const rows = () => lines().slice(1);
    const highlighted = () => rows().filter((row) => row.startsWith('❯ '));
    async function press(...sequences: string[]): Promise<void> {
      await flush();
      for (const sequence of sequences) {
        view.stdin.write(sequence);
        await flush();
      }
    }
    return { selected, doneCount: () => done, view, lines, rows, highlighted, press };
  }

  it('lists every item with the first highlighted and the usage hint in the title', async () => {
    const { lines, rows, highlighted, view } = await setup();
    expect(lines()[0]).toBe('Model type to filter · enter to pick · esc to close');
    expect(rows()).toEqual([
      '❯ deepseek-v4-flash fast, cheap',
      '  deepseek-v4-pro reasoning',
      '  claude-sonnet-4-6 anthropic',
      '  claude-opus-4-7 anthropic, slow',
    ]);
    expect(highlighted()).toHaveLength(1);
    view.unmount();
  });

  it('filters by typed text over labels and descriptions, case-insensitively, and Backspace widens again', async () => {
    const { lines, rows, press, view } = await setup();
    await press('C', 'l');
    expect(lines()[0]).toBe('Model filter: Cl');
    expect(rows()).toEqual(['❯ claude-sonnet-4-6 anthropic', '  claude-opus-4-7 anthropic, slow']);
    await press('x');
    expect(rows()).toEqual(['nothing matches']);
    await press(KEYS.backspace, KEYS.backspace, KEYS.backspace, 's', 'l', 'o', 'w');
    expect(rows()).toEqual(['❯ claude-opus-4-7 anthropic, slow']);
    await press(KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.backspace);
    expect(rows()).toHaveLength(4);
    view.unmount();
  });

  it('moves with the arrows, stopping at both ends', async () => {
    const { highlighted, press, view } = await setup();
    await press(KEYS.down, KEYS.down);
    expect(highlighted()).toEqual(['❯ claude-sonnet-4-6 anthropic']);
    await press(KEYS.down, KEYS.down, KEYS.down);
    expect(highlighted()).toEqual(['❯ claude-opus-4-7 anthropic, slow']);
    await press(KEYS.up, KEYS.up, KEYS.up, KEYS.up, KEYS.up);
    expect(highlighted()).toEqual(['❯ deepseek-v4-flash fast, cheap']);
    view.unmount();
  });

  it('Enter picks the highlighted value and closes', async () => {
    const { selected, doneCount, press, view } = await setup();
    await press(KEYS.down, KEYS.enter);
    expect(selected).toEqual(['deepseek-v4-pro']);
    expect(doneCount()).toBe(1);
    view.unmount();
  });

  it('Enter picks within the filtered list', async () => {
    const { selected, doneCount, press, view } = await setup();
    await press('o', 'p', 'u', 's', KEYS.enter);
    expect(selected).toEqual(['claude-opus-4-7']);
    expect(doneCount()).toBe(1);
    view.unmount();
  });

  it('Enter on an empty filtered list only closes', async () => {
    const { selected, doneCount, press, view } = await setup();
    await press('z', 'z', KEYS.down, KEYS.enter);
    expect(selected).toEqual([]);
    expect(doneCount()).toBe(1);
    view.unmount();
  });

  it('Esc closes without picking', async () => {
    const { selected, doneCount, press, view } = await setup();
    await press(KEYS.down, KEYS.escape);
    expect(doneCount()).toBe(1);
    expect(selected).toEqual([]);
    view.unmount();
  });

  it('shows ten rows at a time and scrolls to keep the selection visible', async () => {
    const items = Array.from({ length: 15 }, (_, index) => ({ value: `s${index}`, label: `session ${String(index).padStart(2, '0')}` }));
    const { rows, highlighted, press, view } = await setup(items);
    const labels = () => rows().map((row) => row.slice(2));
    expect(labels()).toEqual(items.slice(0, 10).map((item) => item.label));

    await press(...Array.from({ length: 9 }, () => KEYS.down));
    expect(highlighted()).toEqual(['❯ session 09']);
    expect(rows()).toHaveLength(10);

    await press(...Array.from({ length: 3 }, () => KEYS.down));
    expect(highlighted()).toEqual(['❯ session 12']);
    expect(labels()).toEqual(items.slice(5, 15).map((item) => item.label));

    await press(...Array.from({ length: 10 }, () => KEYS.down));
    expect(highlighted()).toEqual(['❯ session 14']); // stays on the last one
    expect(labels()[9]).toBe('session 14');

    await press(...Array.from({ length: 13 }, () => KEYS.up));
    expect(highlighted()).toEqual(['❯ session 01']);
    expect(labels()).toEqual(items.slice(0, 10).map((item) => item.label));
    view.unmount();
  });

  it('ignores Ctrl and Alt chords rather than typing them into the filter', async () => {
    const { lines, rows, press, view } = await setup();
    await press(KEYS.ctrlA, '\u001bf');
    expect(lines()[0]).toBe('Model type to filter · enter to pick · esc to close');
    expect(rows()).toHaveLength(4);
    view.unmount();
  });
});
