import { describe, expect, it } from 'vitest';
import { isContextOverflow, parseRetryAfter } from '../../../src/providers/errors.js';

const headers = (entries: Record<string, string>) => new Headers(entries);

describe('parseRetryAfter', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': '1.5' }))).toBe(1500);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2024 00:00:07 GMT' }), now)).toBe(0);
  });

  it('ignores missing or garbage values', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});

describe('isContextOverflow', () => {
  it.each([
    "This model's maximum context length is 131072 tokens. However, you requested 140000 tokens",
    'prompt is too long: 210000 tokens > 200000 maximum',
    'context_length_exceeded',
    'the request exceeds the available context size, try increasing it',
    'Input is too long for requested model.',
    'Please reduce the length of the messages or completion.',
  ])('recognises %s', (message) => {
    expect(isContextOverflow(message)).toBe(true);
  });

  it.each(['Rate limit reached for requests', 'Invalid API key', 'model not found'])('does not flag %s', (message) => {
    expect(isContextOverflow(message)).toBe(false);
  });
});
