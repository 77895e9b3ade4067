import { describe, expect, it } from 'vitest';
import { columnAt, layoutRows, offsetAtColumn, rowIndexAt } from '../../../../src/tui/input/text-layout.js';
import { graphemeWidth, graphemes, textWidth } from '../../../../src/tui/input/text-width.js';

function rowTexts(text: string, columns: number): string[] {
  return layoutRows(text, columns).map((row) => text.slice(row.start, row.end));
}

describe('text width', () => {
  it('counts cells like a terminal', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('中文')).toBe(4);
    expect(textWidth('한국어')).toBe(6);
    expect(textWidth('ｶﾀｶﾅ')).toBe(4); // halfwidth katakana
    expect(textWidth('Ａ')).toBe(2); // fullwidth latin
    expect(textWidth('👍🏽')).toBe(2);
    expect(textWidth('👨‍👩‍👧‍👦')).toBe(2);
    expect(textWidth('🇯🇵')).toBe(2);
    expect(textWidth('é')).toBe(1);
    expect(textWidth('a\u200bb')).toBe(2); // zero-width space
    expect(graphemeWidth('\t')).toBe(4);
  });

  it('splits into grapheme clusters', () => {
    expect(graphemes('a👨‍👩‍👧b🇫🇷')).toEqual(['a', '👨‍👩‍👧', 'b', '🇫🇷']);
  });
});

describe('layoutRows', () => {
  it('gives one empty row for empty text and one row per logical line', () => {
    expect(layoutRows('', 10)).toEqual([{ start: 0, end: 0, line: 0, lineEnd: true }]);
    expect(rowTexts('ab\n\ncd', 10)).toEqual(['ab', '', 'cd']);
    expect(rowTexts('ab\n', 10)).toEqual(['ab', '']);
  });

  it('keeps the last column free for the cursor', () => {
    expect(rowTexts('abcd', 5)).toEqual(['abcd']);
    expect(rowTexts('abcde', 5)).toEqual(['abcd', 'e']);
  });

  it('breaks after the last space and lets the break space hang', () => {
    expect(rowTexts('hello world again', 6)).toEqual(['hello ', 'world ', 'again']);
    expect(rowTexts('the quick brown fox', 12)).toEqual(['the quick ', 'brown fox']);
  });

  it('breaks words longer than a row', () => {
    expect(rowTexts('abcdefghij', 4)).toEqual(['abc', 'def', 'ghi', 'j']);
  });

  it('does not split a wide character across rows', () => {
    // 5 columns: 4 for text; 中 needs 2.
    expect(rowTexts('a中文字', 5)).toEqual(['a中', '文字']);
    expect(rowTexts('👍👍👍', 5)).toEqual(['👍👍', '👍']);
  });

  it('never leaves a row wider than its columns', () => {
    const text = 'lorem ipsum 中文 dolor sit 👍🏽 amet, consectetur adipiscing elit  with  double  spaces';
    for (let columns = 3; columns <= 20; columns++) {
      const rows = layoutRows(text, columns);
      for (const row of rows) expect(textWidth(text.slice(row.start, row.end))).toBeLessThanOrEqual(columns);
      // Rows cover the text exactly once, in order.
      expect(rows.map((row) => text.slice(row.start, row.end)).join('')).toBe(text);
    }
  });

  it('maps offsets to rows, handing a wrapped row end to the next row', () => {
    const rows = layoutRows('abcdef', 4); // "abc" | "def"
    expect(rowIndexAt(rows, 0)).toBe(0);
    expect(rowIndexAt(rows, 2)).toBe(0);
    expect(rowIndexAt(rows, 3)).toBe(1);
    expect(rowIndexAt(rows, 6)).toBe(1);
    const lines = layoutRows('ab\ncd', 10);
    expect(rowIndexAt(lines, 2)).toBe(0); // end of the first line stays on it
    expect(rowIndexAt(lines, 3)).toBe(1);
  });

  it('converts between offsets and columns', () => {
    const text = 'a中b';
    const [row] = layoutRows(text, 10);
    expect(columnAt(text, row!, 2)).toBe(3);
    expect(offsetAtColumn(text, row!, 0)).toBe(0);
    expect(offsetAtColumn(text, row!, 2)).toBe(1);
    expect(offsetAtColumn(text, row!, 3)).toBe(2);
    expect(offsetAtColumn(text, row!, 99)).toBe(3);
  });
});
