import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { Line } from '../../../../src/tui/markdown/ansi.js';
import { fitColumnWidths } from '../../../../src/tui/markdown/table.js';
import { hardWrapLine, lineWidth, ONE_COLUMN_TEXT, textWidth, truncateLine, wrapSegments } from '../../../../src/tui/markdown/width.js';

const texts = (lines: Line[]): string[] => lines.map((line) => line.map((segment) => segment.text).join(''));

describe('textWidth', () => {
  it('counts wide characters as two columns and combining marks as none', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('中文')).toBe(4);
    expect(textWidth('e\u0301')).toBe(1);
  });
});

describe('wrapSegments', () => {
  it('wraps at spaces and keeps a word whose parts have different styles together', () => {
    const bold = { bold: true };
    const lines = wrapSegments([{ text: 'aaa bbb ' }, { text: 'cc', style: bold }, { text: 'dd eee' }], 8);
    expect(texts(lines)).toEqual(['aaa bbb', 'ccdd eee']);
    expect(lines[1]?.[0]).toEqual({ text: 'cc', style: bold });
  });

  it('cuts a word longer than the line and honours hard breaks', () => {
    expect(texts(wrapSegments([{ text: 'x abcdefghij y' }], 4))).toEqual(['x', 'abcd', 'efgh', 'ij y']);
    expect(texts(wrapSegments([{ text: 'a\n  indented\n' }], 20))).toEqual(['a', '  indented', '']);
  });

  it('keeps every kind of space: no-break spaces join words, others are break points', () => {
    expect(texts(wrapSegments([{ text: 'a\u00a0b c\u3000d' }], 80))).toEqual(['a\u00a0b c\u3000d']);
    expect(texts(wrapSegments([{ text: 'aaaa\u00a0bbbb cc' }], 9))).toEqual(['aaaa\u00a0bbbb', 'cc']);
  });

  it('gives no lines for empty text', () => {
    expect(wrapSegments([{ text: '' }], 10)).toEqual([]);
  });
});

describe('truncateLine', () => {
  it('cuts at the width with … keeping styles, and leaves lines that fit alone', () => {
    const line: Line = [{ text: 'abc', style: { bold: true } }, { text: '中文字' }];
    expect(truncateLine(line, 9)).toBe(line);
    const cut = truncateLine(line, 7);
    expect(texts([cut])).toEqual(['abc中…']);
    expect(lineWidth(cut)).toBe(6); // a wide character does not fit in the last free column
    expect(cut[0]?.style).toEqual({ bold: true });
  });
});

describe('fitColumnWidths', () => {
  it('keeps natural widths that fit and shrinks the wide columns first', () => {
    expect(fitColumnWidths([3, 5], 20)).toEqual([3, 5]);
    expect(fitColumnWidths([3, 50, 4], 30)).toEqual([3, 23, 4]);
    expect(fitColumnWidths([40, 40], 30)).toEqual([15, 15]);
  });
});

describe('the one-column fast path', () => {
  it('agrees with string-width for every character it covers', () => {
    const disagreements: string[] = [];
    for (let code = 0x20; code <= 0x2fff; code += 1) {
      const char = String.fromCodePoint(code);
      if (ONE_COLUMN_TEXT.test(char) && stringWidth(char) !== 1) disagreements.push(code.toString(16));
    }
    expect(disagreements).toEqual([]);
  });
});

describe('hardWrapLine', () => {
  it('cuts at any column, keeps styles and every character', () => {
    const line = [{ text: 'abcdef', style: { bold: true } }, { text: 'ghij' }];
    expect(hardWrapLine(line, 4)).toEqual([[{ text: 'abcd', style: { bold: true } }], [{ text: 'ef', style: { bold: true } }, { text: 'gh' }], [{ text: 'ij' }]]);
    expect(hardWrapLine(line, 10)).toEqual([line]);
  });
  it('never splits a wide character', () => {
    expect(hardWrapLine([{ text: 'a漢字' }], 2).map((row) => row.map((segment) => segment.text).join(''))).toEqual(['a', '漢', '字']);
  });
});
