import { describe, expect, it } from 'vitest';
import { typedLine } from '../../../../src/tui/input/typed-line.js';

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
