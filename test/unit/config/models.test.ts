import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/config.js';
import { configureModels, costOf, isPriced, lookupModel, UNKNOWN_CONTEXT_WINDOW } from '../../../src/providers/catalog.js';

afterEach(() => configureModels(undefined));

describe('the config models table', () => {
  it('parses prices and windows per model id', () => {
    const config = parseConfig(JSON.stringify({ models: { 'qwen3-coder:30b': { input: 0, output: 0, context_window: 262_144 } } }), 'c.json');
    expect(config.models).toEqual({ 'qwen3-coder:30b': { input: 0, output: 0, context_window: 262_144 } });
  });

  it('rejects a negative price or a fractional window, naming the field', () => {
    expect(() => parseConfig(JSON.stringify({ models: { m: { input: -1, output: 1 } } }), 'c.json')).toThrow(/models\.m\.input/);
    expect(() => parseConfig(JSON.stringify({ models: { m: { context_window: 1.5 } } }), 'c.json')).toThrow(/models\.m\.context_window/);
  });

  it('prices an unknown model once configured, and its cost follows the configured prices', () => {
    expect(isPriced('my-model')).toBe(false);
    configureModels({ 'my-model': { input: 2, output: 8, cache_read: 0.5, context_window: 64_000 } });
    expect(isPriced('my-model')).toBe(true);
    const info = lookupModel('my-model');
    expect(info.contextWindow).toBe(64_000);
    const usage = { inputTokens: 1_000_000, cacheReadTokens: 500_000, cacheWriteTokens: 0, outputTokens: 1_000_000 };
    expect(costOf(usage, info.pricing)).toBeCloseTo(0.5 * 2 + 0.5 * 0.5 + 8, 9);
  });

  it('a window alone does not make a model priced; a catalog model keeps its prices when only its window is set', () => {
    configureModels({ 'local-only': { context_window: 32_768 }, 'deepseek-v4-flash': { context_window: 500_000 } });
    expect(isPriced('local-only')).toBe(false);
    expect(lookupModel('local-only').contextWindow).toBe(32_768);
    expect(lookupModel('deepseek-v4-flash')).toMatchObject({ contextWindow: 500_000, pricing: { inputMiss: 0.14, output: 0.28 } });
    configureModels(undefined);
    expect(lookupModel('local-only').contextWindow).toBe(UNKNOWN_CONTEXT_WINDOW);
  });
});
