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
  {
    id: 'claude-opus-4-5',
    provider: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    pricing: { inputMiss: 5, inputHit: 0.5, output: 25, cacheWrite: 6.25 },
  },
  {
    id: 'claude-sonnet-4-5',
    provider: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    pricing: { inputMiss: 3, inputHit: 0.3, output: 15, cacheWrite: 3.75 },
  },
  {
    id: 'claude-haiku-4-5',
    provider: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    pricing: { inputMiss: 1, inputHit: 0.1, output: 5, cacheWrite: 1.25 },
  },
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
  anthropic: 'claude-sonnet-4-5',
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
