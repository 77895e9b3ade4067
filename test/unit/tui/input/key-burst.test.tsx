import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { InputEditor, type InputEditorProps } from '../../../../src/tui/input/InputEditor.js';
import { actionForKey, burstActions } from '../../../../src/tui/input/key-bindings.js';
import { KEYS, flush, keyOf, memoryHistory, plain, staticCompleter, waitFor } from './helpers.js';

const mounted: Array<ReturnType<typeof render>> = [];
afterEach(() => {
  for (const instance of mounted.splice(0)) instance.unmount();
});

function mount(overrides: Partial<InputEditorProps> = {}) {
  const submitted: string[] = [];
  const instance = render(
    <InputEditor onSubmit={(text) => submitted.push(text)} history={memoryHistory()} completer={staticCompleter()} active width={60} placeholder="ask" {...overrides} />,
  );
  mounted.push(instance);
  const type = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      instance.stdin.write(chunk);
      await flush();
    }
  };
  /** The editor's first row, without the prompt sign. */
  const text = () => plain(instance.lastFrame()).split('\n')[0]!.replace(/^› /, '').trimEnd();
  return { ...instance, submitted, type, text };
}

describe('key bursts: keys that arrive in one read', () => {
  it('maps each control character of a chunk to its key and keeps the text between', () => {
    expect(burstActions('ab\u007f\u007fc\u0015\u0017\u0001\u0005\u000b\r')).toEqual([
      { type: 'insert', text: 'ab' },
      { type: 'backspace' },
      { type: 'backspace' },
      { type: 'insert', text: 'c' },
      { type: 'killToLineStart' },
      { type: 'deleteWordBackward' },
      { type: 'lineStart' },
      { type: 'lineEnd' },
      { type: 'killToLineEnd' },
      { type: 'enter' },
    ]);
    expect(actionForKey('\u007f\u007f\u007f', keyOf(), '\u007f\u007f\u007f')).toMatchObject({ type: 'keys' });
    // Pasted text (line breaks and tabs only) is still a paste.
    expect(actionForKey('one\ttwo\rthree', keyOf(), 'one\ttwo\rthree')).toEqual({ type: 'paste', text: 'one\ttwo\rthree' });
  });

  it('applies several Backspaces read at once, every one of them', async () => {
    const editor = mount();
    await editor.type('abcdef');
    await editor.type('\u007f\u007f\u007f');
    expect(editor.text()).toBe('abc');
  });

  it('applies typing mixed with Ctrl+W, Ctrl+U, Ctrl+A and Ctrl+E read at once', async () => {
    const editor = mount();
    await editor.type('hello big world');
    await editor.type('\u0017\u0017');
    expect(editor.text()).toBe('hello'); // 'hello ' (the row is shown trimmed)
    await editor.type('there\u0001> \u0005!');
    expect(editor.text()).toBe('> hello there!');
    await editor.type('\u0015');
    expect(editor.text()).toBe('ask'); // empty: the placeholder
  });

  it('ends an unbracketed paste still settling at the next edit key, and applies the key', async () => {
    const editor = mount();
    const pasted = 'x'.repeat(300); // long enough to be collected as a possibly split paste
    editor.stdin.write(pasted);
    editor.stdin.write('\u007f\u007f');
    await waitFor(() => expect(plain(editor.lastFrame()).replace(/[^x]/g, '')).toHaveLength(298));
  });

  it('types, edits and submits a burst ending in Enter', async () => {
    const editor = mount();
    await editor.type('fix itt\u007f\r');
    expect(editor.submitted).toEqual(['fix it']);
  });
});

describe('Ctrl+C and taking queued prompts back', () => {
  it('Ctrl+C clears a draft; only on an empty prompt does it reach onInterrupt', async () => {
    let interrupts = 0;
    const editor = mount({ onInterrupt: () => (interrupts++, true) });
    await editor.type('a draft', '\u0003');
    expect(editor.text()).toBe('ask');
    expect(interrupts).toBe(0);
    await editor.type('\u0003');
    expect(interrupts).toBe(1);
  });

  it('Esc whose parent returns text (prompts taken back) puts it into the input before the draft', async () => {
    const editor = mount({ onEscape: () => 'queued one\nqueued two' });
    await editor.type('draft', KEYS.escape);
    expect(plain(editor.lastFrame())).toContain('› queued one\n  queued two\n  draft');
    await editor.type(KEYS.enter);
    expect(editor.submitted).toEqual(['queued one\nqueued two\ndraft']);
  });
});
