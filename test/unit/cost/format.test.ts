import { describe, expect, it } from 'vitest';
import { formatCost, formatPercent, formatTokens } from '../../../src/cost/format.js';

describe('formatCost', () => {
  it.each<[number, string]>([
    [0, '$0.00'],
    [-1, '$0.00'],
    [Number.NaN, '$0.00'],
    [0.000042, '<$0.0001'],
    [0.0001, '$0.0001'],
    [0.00042, '$0.0004'],
    [0.1234, '$0.1234'],
    [1, '$1.00'],
    [12.345, '$12.35'],
    [1234.5, '$1,234.50'],
  ])('%s -> %s', (usd, text) => expect(formatCost(usd)).toBe(text));
});

describe('formatTokens', () => {
  it.each<[number, string]>([
    [0, '0'],
    [999, '999'],
    [1000, '1k'],
    [1234, '1.2k'],
    [9_960, '10k'],
    [12_345, '12k'],
    [999_499, '999k'],
    [999_999, '1M'],
    [1_250_000, '1.3M'],
    [45_000_000, '45M'],
    [2_000_000_000, '2B'],
  ])('%s -> %s', (n, text) => expect(formatTokens(n)).toBe(text));
});

describe('formatPercent', () => {
  it('rounds and clamps', () => {
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(0.856)).toBe('86%');
    expect(formatPercent(2)).toBe('100%');
  });
});
