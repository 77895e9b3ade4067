import type { Usage } from './types.js';

/** Prices in US dollars per million tokens. */
export interface ModelPricing {
  /** Prompt tokens not served from cache. */
  inputMiss: number;
  /** Prompt tokens served from the provider's prefix cache. */
  inputHit: number;
  output: number;
  /** Prompt tokens written to the cache (Anthropic charges a premium); defaults to inputMiss. */
  cacheWrite?: number;
}

export interface ModelInfo {
  id: string;
  provider: 'deepseek' | 'openai' | 'anthropic';
  contextWindow: number;
  maxOutputTokens: number;
  pricing: ModelPricing;
  /** Emits reasoning text (DeepSeek thinking models, reasoning models). */
  reasoning?: boolean;
}

const M = 1_000_000;

/** Anthropic prices follow one rule: cache hits at 0.1x input, 5-minute cache writes at 1.25x. */
function anthropicModels(rows: Array<[id: string, input: number, output: number]>): ModelInfo[] {
  return rows.map(([id, input, output]) => ({
    id,
    provider: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    pricing: { inputMiss: input, inputHit: input / 10, output, cacheWrite: input * 1.25 },
  }));
}

/** Known models. Unknown names still work: see `lookupModel`. Prices as published by each vendor. */
export const MODEL_CATALOG: readonly ModelInfo[] = [
  {
    id: 'deepseek-v4-flash',
    provider: 'deepseek',
    contextWindow: 1_000_000,
    maxOutputTokens: 16_384,
    pricing: { inputMiss: 0.14, inputHit: 0.0028, output: 0.28 },
  },
  {
    id: 'deepseek-v4-pro',
    provider: 'deepseek',
    contextWindow: 1_000_000,
    maxOutputTokens: 16_384,
    pricing: { inputMiss: 0.435, inputHit: 0.003625, output: 0.87 },
    reasoning: true,
  },
  ...anthropicModels([
    ['claude-opus-5', 5, 25],
    ['claude-opus-4-8', 5, 25],
    ['claude-opus-4-7', 5, 25],
    ['claude-opus-4-6', 5, 25],
    ['claude-opus-4-5', 5, 25],
    ['claude-sonnet-5', 2, 10],
    ['claude-sonnet-4-6', 3, 15],
    ['claude-sonnet-4-5', 3, 15],
    ['claude-haiku-4-5', 1, 5],
  ]),
  {
    id: 'gpt-5',
    provider: 'openai',
    contextWindow: 400_000,
    maxOutputTokens: 32_000,
    pricing: { inputMiss: 1.25, inputHit: 0.125, output: 10 },
  },
  {
    id: 'gpt-5-mini',
    provider: 'openai',
    contextWindow: 400_000,
    maxOutputTokens: 32_000,
    pricing: { inputMiss: 0.25, inputHit: 0.025, output: 2 },
  },
  {
    id: 'gpt-4.1',
    provider: 'openai',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    pricing: { inputMiss: 2, inputHit: 0.5, output: 8 },
  },
  {
    id: 'gpt-4o-mini',
    provider: 'openai',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    pricing: { inputMiss: 0.15, inputHit: 0.075, output: 0.6 },
  },
];

export const DEFAULT_MODELS = {
  deepseek: 'deepseek-v4-flash',
  anthropic: 'claude-sonnet-4-6',
  openai: 'gpt-5-mini',
} as const;

/** Window assumed for models we do not know (local servers, new releases). */
export const UNKNOWN_CONTEXT_WINDOW = 128_000;

/** Finds a model by exact id, then by prefix (dated snapshots such as claude-sonnet-4-5-20250929).
 * Unknown models get a 128K window and zero prices: cost shows $0 rather than a guess. */
export function lookupModel(id: string): ModelInfo {
  const exact = MODEL_CATALOG.find((m) => m.id === id);
  if (exact) return exact;
  const prefixed = MODEL_CATALOG.filter((m) => id.startsWith(m.id)).sort((a, b) => b.id.length - a.id.length)[0];
  if (prefixed) return { ...prefixed, id };
  return {
    id,
    provider: 'openai',
    contextWindow: UNKNOWN_CONTEXT_WINDOW,
    maxOutputTokens: 8_192,
    pricing: { inputMiss: 0, inputHit: 0, output: 0 },
  };
}

/** Dollar cost of one response. Cache hits, cache writes and misses are priced separately. */
export function costOf(usage: Usage, pricing: ModelPricing): number {
  const miss = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const cost =
    (miss * pricing.inputMiss +
      usage.cacheReadTokens * pricing.inputHit +
      usage.cacheWriteTokens * (pricing.cacheWrite ?? pricing.inputMiss) +
      usage.outputTokens * pricing.output) /
    M;
  return Math.round(cost * 1e9) / 1e9;
}
