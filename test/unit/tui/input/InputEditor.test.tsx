import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputEditor, type InputEditorProps } from '../../../../src/tui/input/InputEditor.js';
import { createFileIndex } from '../../../../src/tui/input/file-index.js';
import { createSlashCompleter } from '../../../../src/tui/input/slash-completer.js';
import type { Completer } from '../../../../src/tui/types.js';
import { KEYS, flush, memoryHistory, plain, staticCompleter, waitFor } from './helpers.js';

type Rendered = ReturnType<typeof render>;
const mounted: Rendered[] = [];

afterEach(() => {
  for (const instance of mounted.splice(0)) instance.unmount();
});

function mount(overrides: Partial<InputEditorProps> = {}) {
  const submitted: string[] = [];
  const props: InputEditorProps = {
    onSubmit: (text) => submitted.push(text),
    history: memoryHistory(),
    completer: staticCompleter(),
    active: true,
    width: 40,
    placeholder: 'ask seek',
    ...overrides,
  };
  const instance = render(<InputEditor {...props} />);
  mounted.push(instance);
  const type = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      instance.stdin.write(chunk);
      await flush();
    }
  };
  const frame = () => plain(instance.lastFrame());
  return { ...instance, submitted, type, frame, props };
}

const slashCompleter: Completer = {
  slash: createSlashCompleter([
    { name: 'help', description: 'show help' },
    {
      name: 'model',
      description: 'switch model',
      args: (partial) => ['deepseek-v4-flash', 'deepseek-v4-pro'].filter((id) => id.startsWith(partial)).map((value) => ({ value })),
    },
    { name: 'compact', description: 'compact the history' },
  ]),
  files: () => [],
};

describe('InputEditor: typing and submitting', () => {
  it('shows the placeholder, echoes typing and submits the trimmed text on Enter', async () => {
    const editor = mount();
    await flush();
    expect(editor.frame()).toContain('› ask seek');
    await editor.type('h', 'i', ' ', 'there', '  ');
    expect(editor.frame()).toContain('› hi there');
    await editor.type(KEYS.enter);
    expect(editor.submitted).toEqual(['hi there']);
    expect(editor.frame()).toContain('› ask seek');
  });

  it('submits typing that arrived in one read together with Enter (typed ahead, automation)', async () => {
    const editor = mount();
    await flush();
    await editor.type('make a file\r');
    expect(editor.submitted).toEqual(['make a file']);
    expect(editor.frame()).toContain('› ask seek');
  });

  it('does not submit blank input', async () => {
    const editor = mount();
    await editor.type('   ', KEYS.enter);
    expect(editor.submitted).toEqual([]);
  });

  it('edits at the cursor', async () => {
    const editor = mount();
    await editor.type('acd', KEYS.left, KEYS.left, 'b', KEYS.end, 'e', KEYS.home, '>', KEYS.enter);
    expect(editor.submitted).toEqual(['>abcde']);
  });

  it('tells Backspace from Delete and deletes words with Ctrl+W', async () => {
    const editor = mount();
    await editor.type('abcd', KEYS.left, KEYS.left, KEYS.backspace, KEYS.delete, KEYS.end, ' two words', KEYS.ctrlW, KEYS.enter);
    expect(editor.submitted).toEqual(['ad two']);
  });

  it('reports changes through onChange', async () => {
    const changes: string[] = [];
    const editor = mount({ onChange: (text) => changes.push(text) });
    await editor.type('ab', KEYS.backspace, KEYS.enter);
    expect(changes).toEqual(['ab', 'a', '']);
  });

  it('wraps long input to the width', async () => {
    const editor = mount({ width: 16 });
    await editor.type('the quick brown fox jumps');
    // Ink drops trailing spaces (a hanging break space, the cursor cell without colour).
    const rows = editor.frame().split('\n').map((row) => row.trimEnd());
    expect(rows).toEqual(['› the quick', '  brown fox', '  jumps']);
  });
});

describe('InputEditor: newlines', () => {
  it('inserts a newline with Alt+Enter, Ctrl+J and a trailing backslash', async () => {
    const editor = mount();
    await editor.type('one', KEYS.altEnter, 'two', KEYS.ctrlJ, 'three\\', KEYS.enter, 'four');
    expect(editor.frame()).toContain('› one\n  two\n  three\n  four');
    expect(editor.submitted).toEqual([]);
    await editor.type(KEYS.enter);
    expect(editor.submitted).toEqual(['one\ntwo\nthree\nfour']);
  });

  it('moves between lines with Up/Down before walking the history', async () => {
    const history = memoryHistory(['older']);
    const editor = mount({ history });
    await editor.type('ab', KEYS.ctrlJ, 'cd', KEYS.up, 'X');
    await editor.type(KEYS.down, 'Y', KEYS.enter);
    expect(editor.submitted).toEqual(['abX\ncdY']);
  });
});

describe('InputEditor: history', () => {
  it('walks the history with Up/Down and restores the draft', async () => {
    const editor = mount({ history: memoryHistory(['first', 'second']) });
    await editor.type('my draft', KEYS.up);
    expect(editor.frame()).toContain('› second');
    await editor.type(KEYS.up);
    expect(editor.frame()).toContain('› first');
    await editor.type(KEYS.up);
    expect(editor.frame()).toContain('› first');
    await editor.type(KEYS.down);
    expect(editor.frame()).toContain('› second');
    await editor.type(KEYS.down);
    expect(editor.frame()).toContain('› my draft');
    await editor.type(KEYS.down, '!', KEYS.enter);
    expect(editor.submitted).toEqual(['my draft!']);
  });

  it('submits an edited history entry', async () => {
    const editor = mount({ history: memoryHistory(['run the tests']) });
    await editor.type(KEYS.up, ' again', KEYS.enter);
    expect(editor.submitted).toEqual(['run the tests again']);
  });

  it('does not record submissions itself (the App does)', async () => {
    const history = memoryHistory();
    const editor = mount({ history });
    await editor.type('text', KEYS.enter);
    expect(history.added).toEqual([]);
  });
});

describe('InputEditor: paste', () => {
  const manyLines = Array.from({ length: 30 }, (_, index) => `row ${index + 1}`);

  it('shows a large paste as a placeholder and expands it on submit', async () => {
    const editor = mount();
    await editor.type('explain ');
    await editor.type(manyLines.join('\r'));
    await waitFor(() => expect(editor.frame()).toContain('› explain [pasted text #1: 30 lines]'));
    await editor.type(' briefly', KEYS.enter);
    expect(editor.submitted).toEqual([`explain ${manyLines.join('\n')} briefly`]);
  });

  it('gathers a paste split over several chunks, a lone CR included', async () => {
    const editor = mount();
    editor.stdin.write(manyLines.slice(0, 15).join('\r'));
    editor.stdin.write('\r');
    editor.stdin.write(manyLines.slice(15).join('\r'));
    await waitFor(() => expect(editor.frame()).toContain('[pasted text #1: 30 lines]'));
    expect(editor.submitted).toEqual([]);
    await editor.type(KEYS.enter);
    expect(editor.submitted).toEqual([manyLines.join('\n')]);
  });

  it('inserts a small multi-line paste as text without submitting', async () => {
    const editor = mount();
    await editor.type('a\rb\r');
    await waitFor(() => expect(editor.frame()).toContain('› a\n  b'));
    expect(editor.submitted).toEqual([]);
  });

  it('understands bracketed paste markers', async () => {
    const editor = mount();
    await editor.type(`${KEYS.pasteStart}x\ry${KEYS.pasteEnd}`);
    expect(editor.frame()).toContain('› x\n  y');
  });

  it('deletes a placeholder whole with Backspace', async () => {
    const editor = mount();
    await editor.type(manyLines.join('\r'));
    await waitFor(() => expect(editor.frame()).toContain('[pasted text #1: 30 lines]'));
    await editor.type(KEYS.backspace);
    expect(editor.frame()).toContain('› ask seek');
  });
});

describe('InputEditor: slash menu', () => {
  it('filters commands, accepts with Tab, then completes arguments', async () => {
    const editor = mount({ completer: slashCompleter });
    await editor.type('/');
    expect(editor.frame()).toMatch(/\/help\s+show help/);
    expect(editor.frame()).toContain('/compact');
    await editor.type('mo');
    expect(editor.frame()).toContain('/model');
    expect(editor.frame()).not.toContain('/help');
    await editor.type(KEYS.tab);
    expect(editor.frame()).toMatch(/› \/model\s*\n\s+deepseek-v4-flash\n\s+deepseek-v4-pro/);
    await editor.type('deepseek-v4-');
    expect(editor.frame()).toContain('› /model deepseek-v4-');
    await editor.type(KEYS.down, KEYS.enter);
    expect(editor.submitted).toEqual(['/model deepseek-v4-pro']);
  });

  it('submits a command without arguments on Enter right away', async () => {
    const editor = mount({ completer: slashCompleter });
    await editor.type('/he', KEYS.enter);
    expect(editor.submitted).toEqual(['/help']);
  });

  it('moves the selection with Up/Down, wrapping around', async () => {
    const editor = mount({ completer: slashCompleter });
    await editor.type('/', KEYS.up, KEYS.enter);
    expect(editor.submitted).toEqual(['/compact']);
  });

  it('closes the menu with Esc, then passes Esc to onEscape', async () => {
    const onEscape = vi.fn(() => true);
    const editor = mount({ completer: slashCompleter, onEscape });
    await editor.type('/');
    expect(editor.frame()).toContain('/help');
    await editor.type(KEYS.escape);
    expect(editor.frame()).not.toContain('/help');
    expect(onEscape).not.toHaveBeenCalled();
    await editor.type(KEYS.escape);
    expect(onEscape).toHaveBeenCalledTimes(1);
    // Typing reopens the menu.
    await editor.type('c');
    expect(editor.frame()).toContain('/compact');
  });

  it('shows at most 8 rows and follows the selection', async () => {
    const commands = Array.from({ length: 12 }, (_, index) => ({ name: `cmd${index}`, description: `number ${index}` }));
    const editor = mount({ completer: { slash: createSlashCompleter(commands), files: () => [] } });
    await editor.type('/');
    expect(editor.frame()).toContain('/cmd7');
    expect(editor.frame()).not.toContain('/cmd8');
    await editor.type(...Array.from({ length: 9 }, () => KEYS.down));
    expect(editor.frame()).toContain('/cmd9');
    expect(editor.frame()).not.toContain('/cmd1 ');
  });
});

describe('InputEditor: @file menu', () => {
  let root: string | undefined;

  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
    root = undefined;
  });

  it('completes project files, leaving out ignored ones', async () => {
    root = await mkdtemp(join(tmpdir(), 'seek-input-files-'));
    const touch = async (relPath: string, content = '') => {
      await mkdir(dirname(join(root!, relPath)), { recursive: true });
      await writeFile(join(root!, relPath), content);
    };
    await touch('.gitignore', 'secret-loop.ts\nbuild/\n');
    await touch('src/agent/loop.ts');
    await touch('secret-loop.ts');
    await touch('build/loop.js');
    const index = createFileIndex(root);
    await index.ready;
    const editor = mount({ completer: { slash: () => [], files: (query) => index.search(query) } });

    await editor.type('read @loo');
    expect(editor.frame()).toContain('src/agent/loop.ts');
    expect(editor.frame()).not.toContain('secret-loop.ts');
    expect(editor.frame()).not.toContain('build/loop.js');
    await editor.type(KEYS.tab);
    expect(editor.frame()).toContain('› read @src/agent/loop.ts');
    await editor.type('and explain', KEYS.enter);
    expect(editor.submitted).toEqual(['read @src/agent/loop.ts and explain']);
  });

  it('accepts with Enter without submitting', async () => {
    const editor = mount({ completer: staticCompleter({ files: () => [{ value: 'README.md' }] }) });
    await editor.type('@r', KEYS.enter);
    expect(editor.submitted).toEqual([]);
    expect(editor.frame()).toContain('› @README.md');
  });
});

describe('InputEditor: inactive', () => {
  it('ignores keys while inactive and accepts them again once active', async () => {
    const editor = mount({ active: false });
    await editor.type('ignored', KEYS.enter);
    expect(editor.submitted).toEqual([]);
    expect(editor.frame()).toContain('› ask seek');
    editor.rerender(<InputEditor {...editor.props} active />);
    await flush();
    await editor.type('now', KEYS.enter);
    expect(editor.submitted).toEqual(['now']);
  });
});
