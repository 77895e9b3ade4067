import { render } from 'ink-testing-library';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

// Colour must be forced before chalk (through Ink) is first imported, to see the inverse cursor.
const previousForceColor = vi.hoisted(() => {
  const previous = process.env.FORCE_COLOR;
  process.env.FORCE_COLOR = '1';
  return previous;
});

afterAll(() => {
  if (previousForceColor === undefined) delete process.env.FORCE_COLOR;
  else process.env.FORCE_COLOR = previousForceColor;
});

const { InputEditor } = await import('../../../../src/tui/input/InputEditor.js');
const { KEYS, flush, memoryHistory, staticCompleter } = await import('./helpers.js');

const INVERSE = '\u001b[7m';
const mounted: Array<ReturnType<typeof render>> = [];

afterEach(() => {
  for (const instance of mounted.splice(0)) instance.unmount();
});

function mount(active = true, width = 40) {
  const instance = render(
    <InputEditor onSubmit={() => {}} history={memoryHistory()} completer={staticCompleter()} active={active} width={width} placeholder="ask" />,
  );
  mounted.push(instance);
  return instance;
}

/** The characters drawn in inverse video. */
function inverseCells(frame: string | undefined): string[] {
  const cells: string[] = [];
  const pattern = /\u001b\[7m([^\u001b]*)\u001b\[27m/g;
  for (let match = pattern.exec(frame ?? ''); match; match = pattern.exec(frame ?? '')) cells.push(match[1]!);
  return cells;
}

describe('InputEditor rendering', () => {
  it('draws the cursor as one inverse cell', async () => {
    const editor = mount();
    await flush();
    expect(inverseCells(editor.lastFrame())).toEqual(['a']); // on the placeholder's first letter
    editor.stdin.write('abc');
    await flush();
    expect(inverseCells(editor.lastFrame())).toEqual([' ']);
    editor.stdin.write(KEYS.left);
    await flush();
    expect(inverseCells(editor.lastFrame())).toEqual(['c']);
  });

  it('puts the cursor on a whole wide character', async () => {
    const editor = mount();
    await flush();
    editor.stdin.write('中文');
    await flush();
    editor.stdin.write(KEYS.left);
    await flush();
    expect(inverseCells(editor.lastFrame())).toEqual(['文']);
  });

  it('draws no cursor and dims the text when inactive', async () => {
    const editor = mount(false);
    await flush();
    expect(editor.lastFrame()).not.toContain(INVERSE);
    expect(editor.lastFrame()).toContain('\u001b[2m');
  });

  it('scrolls a long text around the cursor', async () => {
    const instance = render(
      <InputEditor onSubmit={() => {}} history={memoryHistory()} completer={staticCompleter()} active width={20} maxRows={3} />,
    );
    mounted.push(instance);
    await flush();
    instance.stdin.write(`\u001b[200~${Array.from({ length: 8 }, (_, index) => `line${index}`).join('\r')}\u001b[201~`);
    await flush();
    const frame = (instance.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
    expect(frame).toContain('↑ 5 more rows');
    expect(frame).toContain('line7');
    expect(frame).not.toContain('line4');
  });
});
