import { describe, expect, it } from 'vitest';
import { editLine, pastedLine } from '../../../../src/tui/input/typed-line.js';
import { keyOfCharacter, keysOfRead, NO_KEY } from '../../../../src/tui/input/line-keys.js';

const none = {};

describe('editLine: one key or one paste', () => {
  it('Enter submits the text as it is; typed text is added without controls', () => {
    expect(editLine('kept', '', { return: true })).toEqual({ text: 'kept', submit: true });
    expect(editLine('a', 'b', none)).toEqual({ text: 'ab', submit: false });
    expect(editLine('a', 'x\u0007y', none)).toEqual({ text: 'axy', submit: false });
    expect(editLine('a', '\r', { meta: true })).toEqual({ text: 'a', submit: false });
  });

  it('a paste is one line (breaks and tabs become spaces) and never submits, whatever it holds', () => {
    expect(editLine('x ', 'one\r\ntwo\rthree\nfour\r', { paste: true })).toEqual({ text: 'x one two three four ', submit: false });
    expect(editLine('', 'a\tb\u001b[31mc\u007f', { paste: true })).toEqual({ text: 'a bc', submit: false });
    expect(pastedLine('\rann@example.com\r')).toBe(' ann@example.com ');
  });

  it('Backspace and Delete drop the last character (a whole emoji), Ctrl+U clears, Ctrl+W drops a word', () => {
    expect(editLine('ab😀', '', { backspace: true }).text).toBe('ab');
    expect(editLine('ab', '', { delete: true }).text).toBe('a');
    expect(editLine('git push', 'u', { ctrl: true }).text).toBe('');
    expect(editLine('git push  ', 'w', { ctrl: true }).text).toBe('git ');
    expect(editLine('git push', 'a', { ctrl: true }).text).toBe('git push');
    expect(editLine('ab', 'f', { meta: true }).text).toBe('ab');
  });
});

describe('keysOfRead: a read of several keys, key by key', () => {
  const keys = (raw: string) => keysOfRead(raw, NO_KEY, raw).map(({ input, key }) => (key.return ? 'Enter' : key.delete ? 'DEL' : key.backspace ? 'BS' : key.ctrl ? `^${input}` : key.tab ? 'Tab' : input));

  it('splits Enter, text, Enter and Backspaces the way each key reads alone', () => {
    expect(keys('\rann@example.com\r')).toEqual(['Enter', ...'ann@example.com', 'Enter']);
    expect(keys('\u007f\u007f7\r')).toEqual(['DEL', 'DEL', '7', 'Enter']);
    expect(keys('a\b\u0015\u0017\t')).toEqual(['a', 'BS', '^u', '^w', 'Tab']);
    expect(keys('😀x')).toEqual(['😀', 'x']);
  });

  it('leaves a single key and an escape sequence as Ink reported them', () => {
    const up = { ...NO_KEY, upArrow: true };
    expect(keysOfRead('', up, '\u001b[A')).toEqual([{ input: '', key: up }]);
    expect(keysOfRead('a', NO_KEY, 'a')).toEqual([{ input: 'a', key: NO_KEY }]);
    // Without the raw sequence a run of text is split all the same.
    expect(keysOfRead('ab', NO_KEY, undefined).map((one) => one.input)).toEqual(['a', 'b']);
    expect(keysOfRead('', { ...NO_KEY, return: true }, undefined)).toHaveLength(1);
  });

  it('reports each character as Ink reports it read alone', () => {
    expect(keyOfCharacter('A')).toEqual({ input: 'A', key: { ...NO_KEY, shift: true } });
    expect(keyOfCharacter('\n')).toEqual({ input: '', key: NO_KEY });
    expect(keyOfCharacter('\u0000')).toEqual({ input: '', key: NO_KEY });
  });
});
