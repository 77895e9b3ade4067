import { describe, expect, it } from 'vitest';
import { burstKeys, editLine, typedLine } from '../../../../src/tui/input/typed-line.js';

describe('typedLine', () => {
  it('takes a trailing Enter in the same read as a submit', () => {
    expect(typedLine('a reason\r')).toEqual({ text: 'a reason', submit: true });
    expect(typedLine('x')).toEqual({ text: 'x', submit: false });
  });

  it('reads a pasted block as one line and never submits it', () => {
    expect(typedLine('\u001b[200~one\ntwo\r\n\u001b[201~')).toEqual({ text: 'one two ', submit: false });
    expect(typedLine('one\rtwo\r')).toEqual({ text: 'one two ', submit: false });
  });

  it('drops control characters', () => {
    expect(typedLine('a\u0007b')).toEqual({ text: 'ab', submit: false });
  });
});

describe('editLine', () => {
  const none = {};
  it('replays Backspaces that share a read with typed text, each deleting one character', () => {
    // The read tmux delivered when "42", Backspace twice and "7" came faster than a frame.
    expect(editLine('42', '\u007f\u007f7', none)).toEqual({ text: '7', submit: false });
    expect(editLine('abc', '\b\bx\u007fy', none)).toEqual({ text: 'ay', submit: false });
  });

  it('takes Ctrl+U and Ctrl+W inside a burst and as keys', () => {
    expect(editLine('old text', '\u0015new', none)).toEqual({ text: 'new', submit: false });
    expect(editLine('git push  ', 'x\u0017', none)).toEqual({ text: 'git push  ', submit: false });
    expect(editLine('git push  ', 'x\u0017\u0017', none).text).toBe('git ');
    expect(editLine('git push', 'u', { ctrl: true }).text).toBe('');
    expect(editLine('git push', 'w', { ctrl: true }).text).toBe('git ');
    expect(editLine('git push', 'a', { ctrl: true }).text).toBe('git push');
  });

  it('submits at the Enter of a burst; burstKeys hands on the keys that followed it', () => {
    expect(editLine('4', '\u007f7\r\rnext', none)).toEqual({ text: '7', submit: true });
    expect(burstKeys('\u007f7\r\rnext')).toEqual([
      { input: '', key: { delete: true } },
      { input: '7', key: {} },
      { input: '\r', key: { return: true } },
      { input: '\r', key: { return: true } },
      { input: 'next', key: {} },
    ]);
    expect(burstKeys('\r\r')).toHaveLength(2);
    expect(burstKeys('one\rtwo\r')).toBeUndefined(); // a paste
    expect(burstKeys('\u001b[A\u007f')).toBeUndefined(); // escape sequences are Ink's to parse
    expect(editLine('', 'done\r', none)).toEqual({ text: 'done', submit: true });
    expect(editLine('kept', '\r', { return: true })).toEqual({ text: 'kept', submit: true });
  });

  it('reads Backspace and Delete keys, drops Alt keys, and keeps a paste on one line', () => {
    expect(editLine('ab😀', '', { backspace: true }).text).toBe('ab');
    expect(editLine('ab', '', { delete: true }).text).toBe('a');
    expect(editLine('ab', 'f', { meta: true }).text).toBe('ab');
    expect(editLine('x ', '\u001b[200~one\ntwo\u001b[201~', none)).toEqual({ text: 'x one two', submit: false });
  });
});
