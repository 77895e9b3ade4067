import { Text, useInput, useStdin } from 'ink';
import { render } from 'ink-testing-library';
import { useEffect, useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { actionForKey, type EditorAction } from '../../../../src/tui/input/key-bindings.js';
import { flush, keyOf } from './helpers.js';

/** Feeds each sequence through Ink's real parser and records the action it maps to. */
function Probe(props: { actions: EditorAction[]; withRaw: boolean }) {
  const { internal_eventEmitter: emitter } = useStdin();
  const raw = useRef<string | undefined>(undefined);
  useEffect(() => {
    const record = (sequence: string) => {
      raw.current = sequence;
    };
    emitter.on('input', record);
    return () => {
      emitter.off('input', record);
    };
  }, [emitter]);
  useInput((input, key) => {
    props.actions.push(actionForKey(input, key, props.withRaw ? raw.current : undefined));
  });
  return <Text>probe</Text>;
}

async function actionsFor(sequences: string[], withRaw = true): Promise<EditorAction[]> {
  const actions: EditorAction[] = [];
  const { stdin, unmount } = render(<Probe actions={actions} withRaw={withRaw} />);
  await flush();
  for (const sequence of sequences) {
    stdin.write(sequence);
    await flush();
  }
  unmount();
  return actions;
}

const TABLE: Array<[string, string, EditorAction]> = [
  ['Enter', '\r', { type: 'enter' }],
  ['Alt+Enter', '\u001b\r', { type: 'newline' }],
  ['Ctrl+J', '\n', { type: 'newline' }],
  ['Shift+Enter (kitty protocol)', '\u001b[13;2u', { type: 'newline' }],
  ['Shift+Enter (modifyOtherKeys)', '\u001b[27;2;13~', { type: 'newline' }],
  ['Tab', '\t', { type: 'tab' }],
  ['Shift+Tab', '\u001b[Z', { type: 'ignore' }],
  ['Backspace (DEL)', '\u007f', { type: 'backspace' }],
  ['Ctrl+H', '\b', { type: 'backspace' }],
  ['Delete', '\u001b[3~', { type: 'delete' }],
  ['Alt+Backspace', '\u001b\u007f', { type: 'deleteWordBackward' }],
  ['Ctrl+W', '\u0017', { type: 'deleteWordBackward' }],
  ['Alt+D', '\u001bd', { type: 'deleteWordForward' }],
  ['Ctrl+D', '\u0004', { type: 'delete' }],
  ['Ctrl+K', '\u000b', { type: 'killToLineEnd' }],
  ['Ctrl+U', '\u0015', { type: 'killToLineStart' }],
  ['Ctrl+A', '\u0001', { type: 'lineStart' }],
  ['Ctrl+E', '\u0005', { type: 'lineEnd' }],
  ['Home', '\u001b[H', { type: 'lineStart' }],
  ['End', '\u001b[F', { type: 'lineEnd' }],
  ['Home (rxvt)', '\u001b[1~', { type: 'lineStart' }],
  ['End (rxvt)', '\u001b[4~', { type: 'lineEnd' }],
  ['Ctrl+Home', '\u001b[1;5H', { type: 'bufferStart' }],
  ['Left', '\u001b[D', { type: 'left' }],
  ['Right', '\u001b[C', { type: 'right' }],
  ['Up', '\u001b[A', { type: 'up' }],
  ['Down', '\u001b[B', { type: 'down' }],
  ['Ctrl+Left', '\u001b[1;5D', { type: 'wordLeft' }],
  ['Alt+Right', '\u001b[1;3C', { type: 'wordRight' }],
  ['Option+Left (macOS, ESC b)', '\u001bb', { type: 'wordLeft' }],
  ['Option+Right (macOS, ESC f)', '\u001bf', { type: 'wordRight' }],
  ['Escape', '\u001b', { type: 'escape' }],
  ['Ctrl+C', '\u0003', { type: 'interrupt' }],
  ['Ctrl+O', '\u000f', { type: 'ignore' }],
  ['Page Up', '\u001b[5~', { type: 'ignore' }],
  ['Shift+F5', '\u001b[15;2~', { type: 'ignore' }],
  ['a letter', 'a', { type: 'insert', text: 'a' }],
  ['a capital', 'Q', { type: 'insert', text: 'Q' }],
  ['a CJK character', '中', { type: 'insert', text: '中' }],
  ['an emoji', '👍', { type: 'insert', text: '👍' }],
  ['a letter under the kitty protocol', '\u001b[97u', { type: 'insert', text: 'a' }],
  ['a multi-character chunk', 'hello\rworld', { type: 'paste', text: 'hello\rworld' }],
  ['three Backspaces read at once', '\u007f\u007f\u007f', { type: 'keys', text: '\u007f\u007f\u007f', actions: [{ type: 'backspace' }, { type: 'backspace' }, { type: 'backspace' }] }],
  ['typing then Ctrl+U read at once', 'ab\u0015', { type: 'keys', text: 'ab\u0015', actions: [{ type: 'insert', text: 'ab' }, { type: 'killToLineStart' }] }],
  ['bracketed paste start', '\u001b[200~', { type: 'pasteStart' }],
  ['bracketed paste end', '\u001b[201~', { type: 'pasteEnd' }],
];

describe('actionForKey through Ink 6.8 parsing', () => {
  it('maps what terminals send to editor actions', async () => {
    const actions = await actionsFor(TABLE.map(([, sequence]) => sequence));
    const named = TABLE.map(([name], index) => [name, actions[index]]);
    expect(named).toEqual(TABLE.map(([name, , action]) => [name, action]));
  });

  it('takes both Backspace and Delete for Backspace when the raw sequence is unknown', async () => {
    expect(await actionsFor(['\u007f', '\u001b[3~'], false)).toEqual([{ type: 'backspace' }, { type: 'backspace' }]);
  });

  it('does not type an unrecognised escape sequence even without the raw sequence', async () => {
    expect(await actionsFor(['\u001b[15;2~', '\u001b[27;2;13~'], false)).toEqual([{ type: 'ignore' }, { type: 'ignore' }]);
  });
});

describe('actionForKey', () => {
  it('ignores key releases (kitty protocol event types)', () => {
    expect(actionForKey('a', keyOf({ eventType: 'release' }))).toEqual({ type: 'ignore' });
  });

  it('maps Ctrl+Backspace under the kitty protocol to deleting a word', () => {
    expect(actionForKey('', keyOf({ delete: true, ctrl: true }), '\u001b[127;5u')).toEqual({ type: 'deleteWordBackward' });
  });
});
