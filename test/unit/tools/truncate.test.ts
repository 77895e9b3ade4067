import { describe, expect, it } from 'vitest';
import { HeadTailBuffer, LineBudget, truncateHeadTail, truncateLine } from '../../../src/tools/truncate.js';

describe('HeadTailBuffer', () => {
  it('keeps short output whole', () => {
    const buffer = new HeadTailBuffer(100);
    buffer.push('hello ');
    buffer.push('world');
    expect(buffer.toString()).toBe('hello world');
    expect(buffer.omittedChars).toBe(0);
  });

  it('keeps head and tail around a marker, however the text is chunked', () => {
    const text = Array.from({ length: 1000 }, (_, index) => `line ${index}`).join('\n');
    const whole = truncateHeadTail(text, 200);
    const streamed = new HeadTailBuffer(200);
    for (let at = 0; at < text.length; at += 7) streamed.push(text.slice(at, at + 7));
    expect(streamed.toString()).toBe(whole);
    expect(whole.startsWith(text.slice(0, 100))).toBe(true);
    expect(whole.endsWith(text.slice(-100))).toBe(true);
    expect(whole).toContain(`[… ${text.length - 200} chars omitted …]`);
  });
});

describe('line caps', () => {
  it('cuts long lines with a marker', () => {
    expect(truncateLine('abcdef', 10)).toBe('abcdef');
    expect(truncateLine('abcdefghij', 4)).toBe('abcd… [+6 chars]');
  });

  it('stops at the line or char budget and counts the rest', () => {
    const byLines = new LineBudget(2);
    expect(['a', 'b', 'c', 'd'].map((line) => byLines.add(line))).toEqual([true, true, false, false]);
    expect(byLines.lines).toEqual(['a', 'b']);
    expect(byLines.omitted).toBe(2);

    const byChars = new LineBudget(100, 10);
    byChars.add('12345');
    byChars.add('12345'); // 6 + 6 > 10
    byChars.add('1'); // refused too: nothing is added once the budget is spent
    expect(byChars.lines).toEqual(['12345']);
    expect(byChars.omitted).toBe(2);
  });
});
