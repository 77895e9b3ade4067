import { describe, expect, it } from 'vitest';
import { acceptCompletion, completionContext } from '../../../../src/tui/input/completion.js';
import type { EditorState } from '../../../../src/tui/input/editor-state.js';
import { createSlashCompleter } from '../../../../src/tui/input/slash-completer.js';
import type { Completer } from '../../../../src/tui/types.js';

const slash = createSlashCompleter([
  { name: 'help', description: 'show help' },
  {
    name: 'model',
    description: 'switch model',
    args: (partial) => ['deepseek-v4-flash', 'deepseek-v4-pro', 'gpt-5'].filter((id) => id.startsWith(partial)).map((value) => ({ value })),
  },
  { name: 'compact', description: 'compact history' },
  { name: 'exit', description: 'quit' },
]);

const files = (query: string) =>
  ['src/', 'src/main.ts', 'README.md'].filter((path) => path.includes(query)).map((value) => ({ value }));

const completer: Completer = { slash, files };

const at = (value: string, cursor = value.length): EditorState => ({ value, cursor });

describe('createSlashCompleter', () => {
  it('lists commands matching the typed name: exact, then prefix, then substring', () => {
    expect(slash('/').map((item) => item.label)).toEqual(['/help', '/model', '/compact', '/exit']);
    expect(slash('/m').map((item) => item.label)).toEqual(['/model', '/compact']);
    expect(slash('/mo').map((item) => item.label)).toEqual(['/model']);
    expect(slash('/ex').map((item) => item.label)).toEqual(['/exit']);
    expect(slash('/o').map((item) => item.label)).toEqual(['/model', '/compact']);
    expect(slash('/MO').map((item) => item.label)).toEqual(['/model']);
  });

  it('completes commands with arguments with a trailing space and others bare', () => {
    expect(slash('/mo')[0]).toEqual({ value: '/model ', label: '/model', description: 'switch model' });
    expect(slash('/he')[0]?.value).toBe('/help');
  });

  it('asks the command for its arguments after the name', () => {
    expect(slash('/model ').map((item) => item.value)).toEqual(['deepseek-v4-flash', 'deepseek-v4-pro', 'gpt-5']);
    expect(slash('/model deepseek-v4-p').map((item) => item.value)).toEqual(['deepseek-v4-pro']);
    expect(slash('/help ')).toEqual([]);
    expect(slash('/nope ')).toEqual([]);
    expect(slash('not a command')).toEqual([]);
  });
});

describe('completionContext', () => {
  it('completes the slash command name at the end of a one-line input', () => {
    expect(completionContext(at('/mo'), completer)).toMatchObject({ kind: 'slash', start: 0, end: 3, typed: '/mo' });
    expect(completionContext(at('/mo', 1), completer)).toBeNull();
    expect(completionContext(at('/mo\nx'), completer)).toBeNull();
    expect(completionContext(at('hello /mo'), completer)).toBeNull();
  });

  it('completes the argument after the command name', () => {
    expect(completionContext(at('/model deep'), completer)).toMatchObject({ kind: 'slash', start: 7, typed: 'deep' });
  });

  it('offers nothing when the only candidate is already typed', () => {
    expect(completionContext(at('/help'), completer)).toBeNull();
    expect(completionContext(at('/model gpt-5'), completer)).toBeNull();
    // `/model` is typed, but accepting it still adds the space that opens its arguments.
    expect(completionContext(at('/model'), completer)).not.toBeNull();
  });

  it('completes an @ word at the start or after whitespace, not inside a word', () => {
    expect(completionContext(at('look at @mai'), completer)).toMatchObject({ kind: 'file', start: 9, typed: 'mai' });
    expect(completionContext(at('@'), completer)?.items).toHaveLength(3);
    expect(completionContext(at('mail me@src'), completer)).toBeNull();
    expect(completionContext(at('@src '), completer)).toBeNull();
  });

  it('completes an @ word with the cursor inside it, replacing the whole word', () => {
    const context = completionContext(at('@srcxyz tail', 4), completer);
    expect(context).toMatchObject({ kind: 'file', start: 1, end: 7, typed: 'src' });
  });
});

describe('acceptCompletion', () => {
  it('replaces a slash command name and reports whether it is complete', () => {
    const help = completionContext(at('/he'), completer)!;
    expect(acceptCompletion(at('/he'), help, help.items[0]!)).toEqual({ state: at('/help'), complete: true });
    const model = completionContext(at('/mo'), completer)!;
    expect(acceptCompletion(at('/mo'), model, model.items[0]!)).toEqual({ state: at('/model '), complete: false });
  });

  it('replaces only the argument being typed', () => {
    const context = completionContext(at('/model deepseek-v4-p'), completer)!;
    expect(acceptCompletion(at('/model deepseek-v4-p'), context, context.items[0]!)).toEqual({
      state: at('/model deepseek-v4-pro'),
      complete: true,
    });
  });

  it('inserts a file path after @ followed by a space, and a directory without one', () => {
    const state = at('read @mai');
    const context = completionContext(state, completer)!;
    expect(acceptCompletion(state, context, { value: 'src/main.ts' }).state).toEqual(at('read @src/main.ts '));
    expect(acceptCompletion(state, context, { value: 'src/' }).state).toEqual(at('read @src/'));
  });

  it('reuses the space after a word completed in the middle of the text', () => {
    const state = at('@ma and more', 3);
    const context = completionContext(state, completer)!;
    const accepted = acceptCompletion(state, context, { value: 'src/main.ts' });
    expect(accepted.state).toEqual({ value: '@src/main.ts and more', cursor: 13 });
    expect(accepted.complete).toBe(false);
  });
});
