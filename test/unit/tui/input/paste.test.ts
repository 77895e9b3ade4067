import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PasteCollector,
  countLines,
  expandPlaceholders,
  needsPlaceholder,
  placeholderEndingAt,
  placeholderToken,
} from '../../../../src/tui/input/paste.js';

const lines = (count: number): string => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

describe('paste placeholders', () => {
  it('counts lines, ignoring one trailing newline', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('a\nb\n')).toBe(2);
  });

  it('uses a placeholder above 10 lines or 2,000 characters', () => {
    expect(needsPlaceholder(lines(10))).toBe(false);
    expect(needsPlaceholder(lines(11))).toBe(true);
    expect(needsPlaceholder('x'.repeat(2_000))).toBe(false);
    expect(needsPlaceholder('x'.repeat(2_001))).toBe(true);
  });

  it('names the paste by lines, or by characters when it has few lines', () => {
    expect(placeholderToken(1, lines(120))).toBe('[pasted text #1: 120 lines]');
    expect(placeholderToken(2, 'x'.repeat(4_312))).toBe('[pasted text #2: 4312 chars]');
  });

  it('expands intact tokens and leaves edited or unknown ones as typed', () => {
    const pasted = lines(20);
    const pastes = new Map([[1, pasted]]);
    const token = placeholderToken(1, pasted);
    expect(expandPlaceholders(`see ${token} please`, pastes)).toBe(`see ${pasted} please`);
    expect(expandPlaceholders('[pasted text #1: 19 lines]', pastes)).toBe('[pasted text #1: 19 lines]');
    expect(expandPlaceholders('[pasted text #7: 20 lines]', pastes)).toBe('[pasted text #7: 20 lines]');
  });

  it('expands text containing $ patterns literally', () => {
    const pasted = `${lines(11)}\n$& $1 $$`;
    const pastes = new Map([[1, pasted]]);
    expect(expandPlaceholders(placeholderToken(1, pasted), pastes)).toBe(pasted);
  });

  it('finds the token that ends at the cursor', () => {
    const pasted = lines(12);
    const pastes = new Map([[3, pasted]]);
    const value = `ab ${placeholderToken(3, pasted)}`;
    expect(placeholderEndingAt(value, value.length, pastes)).toBe(3);
    expect(placeholderEndingAt(value, value.length - 1, pastes)).toBeNull();
    expect(placeholderEndingAt('[x]', 3, pastes)).toBeNull();
  });
});

describe('PasteCollector', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('joins chunks that arrive before the paste settles', () => {
    vi.useFakeTimers();
    const done: string[] = [];
    const collector = new PasteCollector((text) => done.push(text), 30);
    collector.push('first\r');
    vi.advanceTimersByTime(20);
    collector.push('\r');
    vi.advanceTimersByTime(20);
    collector.push('second');
    expect(collector.active).toBe(true);
    vi.advanceTimersByTime(30);
    expect(done).toEqual(['first\r\rsecond']);
    expect(collector.active).toBe(false);
  });

  it('waits for the end marker of a bracketed paste', () => {
    vi.useFakeTimers();
    const done: string[] = [];
    const collector = new PasteCollector((text) => done.push(text), 30);
    collector.beginBracketed();
    collector.push('a');
    vi.advanceTimersByTime(500);
    collector.push('b');
    expect(done).toEqual([]);
    collector.finish();
    expect(done).toEqual(['ab']);
  });

  it('closes a bracketed paste whose end marker never comes', () => {
    vi.useFakeTimers();
    const done: string[] = [];
    const collector = new PasteCollector((text) => done.push(text), 30);
    collector.beginBracketed();
    collector.push('lost end');
    vi.advanceTimersByTime(5_000);
    expect(done).toEqual(['lost end']);
  });

  it('drops a paste in progress on dispose', () => {
    vi.useFakeTimers();
    const done: string[] = [];
    const collector = new PasteCollector((text) => done.push(text), 30);
    collector.push('abc');
    collector.dispose();
    vi.advanceTimersByTime(100);
    expect(done).toEqual([]);
  });
});
