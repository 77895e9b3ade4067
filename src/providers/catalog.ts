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
  /** Who serves it; 'xai' and 'groq' models are reached through the openai-compatible provider. */
  provider: 'deepseek' | 'openai' | 'anthropic' | 'xai' | 'groq';
  contextWindow: number;
  maxOutputTokens: number;
  pricing: ModelPricing;
  /** Emits reasoning text (DeepSeek thinking models, reasoning models). */
  reasoning?: boolean;
  /** `false`: the model takes text only (DeepSeek's chat models); an image is refused before any
   * request is sent. Absent: it takes images (every Claude, GPT-4o and later model listed here). */
  images?: false;
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

function openAIModels(
  rows: Array<[id: string, contextWindow: number, maxOutputTokens: number, input: number, cachedInput: number, output: number]>,
): ModelInfo[] {
  return rows.map(([id, contextWindow, maxOutputTokens, input, cachedInput, output]) => ({
    id,
    provider: 'openai',
    contextWindow,
    maxOutputTokens,
    pricing: { inputMiss: input, inputHit: cachedInput, output },
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
    images: false,
  },
  {
    id: 'deepseek-v4-pro',
    provider: 'deepseek',
    contextWindow: 1_000_000,
    maxOutputTokens: 16_384,
    pricing: { inputMiss: 0.435, inputHit: 0.003625, output: 0.87 },
    reasoning: true,
    images: false,
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
  // OpenAI, prices: https://platform.openai.com/docs/pricing (standard tier; "cached input" is
  // inputHit); windows and output limits: https://platform.openai.com/docs/models/<id>.
  ...openAIModels([
    ['gpt-5-nano', 400_000, 128_000, 0.05, 0.005, 0.4],
    ['gpt-4.1-mini', 1_047_576, 32_768, 0.4, 0.1, 1.6],
    ['gpt-4.1-nano', 1_047_576, 32_768, 0.1, 0.025, 0.4],
    ['gpt-4o', 128_000, 16_384, 2.5, 1.25, 10],
    ['o3', 200_000, 100_000, 2, 0.5, 8],
    ['o4-mini', 200_000, 100_000, 1.1, 0.275, 4.4],
  ]),
  // Earlier Anthropic models: https://docs.anthropic.com/en/docs/about-claude/pricing and
  // https://docs.anthropic.com/en/docs/about-claude/models/overview (200K windows).
  ...anthropicModels([
    ['claude-opus-4-1', 15, 75],
    ['claude-opus-4', 15, 75],
    ['claude-sonnet-4', 3, 15],
    ['claude-3-7-sonnet', 3, 15],
  ]),
  { ...anthropicModels([['claude-3-5-haiku', 0.8, 4]])[0]!, maxOutputTokens: 8_192 },
  // xAI, prices and windows: https://docs.x.ai/docs/models ("cached input" is inputHit).
  { id: 'grok-4', provider: 'xai', contextWindow: 256_000, maxOutputTokens: 16_384, pricing: { inputMiss: 3, inputHit: 0.75, output: 15 } },
  {
    id: 'grok-code-fast-1',
    provider: 'xai',
    contextWindow: 256_000,
    maxOutputTokens: 16_384,
    pricing: { inputMiss: 0.2, inputHit: 0.02, output: 1.5 },
    reasoning: true,
    images: false,
  },
  // Groq-hosted, prices: https://groq.com/pricing; windows: https://console.groq.com/docs/models.
  // No cache discount is assumed (cache hits priced as misses).
  { id: 'llama-3.3-70b-versatile', provider: 'groq', contextWindow: 131_072, maxOutputTokens: 8_192, pricing: { inputMiss: 0.59, inputHit: 0.59, output: 0.79 }, images: false },
  { id: 'llama-3.1-8b-instant', provider: 'groq', contextWindow: 131_072, maxOutputTokens: 8_192, pricing: { inputMiss: 0.05, inputHit: 0.05, output: 0.08 }, images: false },
  // Left unknown on purpose (cost shown as "—" unless set in config `models`): Mistral, Qwen and
  // other hosted or local models, whose published prices we could not confirm.
];

export const DEFAULT_MODELS = {
  deepseek: 'deepseek-v4-flash',
  anthropic: 'claude-sonnet-4-6',
  openai: 'gpt-5-mini',
} as const;

/** Window assumed for models we do not know (local servers, new releases). */
export const UNKNOWN_CONTEXT_WINDOW = 128_000;

/** A model's prices ($ per million tokens) and window as the user sets them in config
 * (`models: {"<id>": {...}}`). Prices count only when both `input` and `output` are given. */
export interface ConfiguredModel {
  input?: number | undefined;
  output?: number | undefined;
  /** Prompt tokens served from cache; defaults to `input`. */
  cache_read?: number | undefined;
  /** Prompt tokens written to cache; defaults to `input`. */
  cache_write?: number | undefined;
  context_window?: number | undefined;
}

/** The config's model table, process-wide: set once at startup by `configureModels`, read by
 * every lookup (cost of each response, context window) without threading config through. */
let configuredModels: ReadonlyMap<string, ConfiguredModel> = new Map();

/** Installs the config's `models` table; it wins over the catalog, field by field. */
export function configureModels(models: Readonly<Record<string, ConfiguredModel>> | undefined): void {
  configuredModels = new Map(Object.entries(models ?? {}));
}

function configuredPricing(entry: ConfiguredModel | undefined): ModelPricing | undefined {
  if (entry?.input === undefined || entry.output === undefined) return undefined;
  return {
    inputMiss: entry.input,
    inputHit: entry.cache_read ?? entry.input,
    output: entry.output,
    ...(entry.cache_write !== undefined ? { cacheWrite: entry.cache_write } : {}),
  };
}

/** What may follow a catalog id in the name of the same model: a dated snapshot (-20250929,
 * -2024-08-06, -0709) or -latest. Anything else is another model (o3-pro is not o3, grok-4-fast is
 * not grok-4) and must not inherit its prices. */
const SNAPSHOT_SUFFIX = /^-(?:\d{8}|\d{4}-\d{2}-\d{2}|\d{4}|latest)$/;

/** The catalog entry for `id`: exact, else the one whose snapshot it is (claude-sonnet-4-5-20250929,
 * gpt-4o-2024-08-06); undefined for a model the catalog does not know. */
function catalogEntry(id: string): ModelInfo | undefined {
  const exact = MODEL_CATALOG.find((m) => m.id === id);
  if (exact) return exact;
  const snapshot = MODEL_CATALOG.find((m) => id.startsWith(m.id) && SNAPSHOT_SUFFIX.test(id.slice(m.id.length)));
  return snapshot ? { ...snapshot, id } : undefined;
}

/** Whether `id`'s prices are known. An unknown model's cost must be shown as unknown, not as the
 * $0 that its zero placeholder prices in `lookupModel` compute. */
export function isPriced(id: string): boolean {
  return configuredPricing(configuredModels.get(id)) !== undefined || catalogEntry(id) !== undefined;
}

/** Finds a model by exact id, then as a snapshot of a catalog id (claude-sonnet-4-5-20250929).
 * Unknown models get a 128K window and zero placeholder prices: `isPriced` tells them apart, so
 * that their cost is reported as unknown rather than as $0. */
export function lookupModel(id: string): ModelInfo {
  const base: ModelInfo = catalogEntry(id) ?? {
    id,
    provider: 'openai',
    contextWindow: UNKNOWN_CONTEXT_WINDOW,
    maxOutputTokens: 8_192,
    pricing: { inputMiss: 0, inputHit: 0, output: 0 },
  };
  const configured = configuredModels.get(id);
  if (!configured) return base;
  return {
    ...base,
    pricing: configuredPricing(configured) ?? base.pricing,
    ...(configured.context_window !== undefined ? { contextWindow: configured.context_window } : {}),
  };
}

/** Whether `id` takes images: true or false for a model the catalog knows (DeepSeek's chat
 * models, and any `deepseek-*` name, do not), undefined for one it does not (it is tried, and a
 * 400 about images is explained). */
export function takesImages(id: string): boolean | undefined {
  const entry = catalogEntry(id);
  if (entry) return entry.images !== false;
  // DeepSeek serves no model that sees; its other names (deepseek-chat, deepseek-reasoner) too.
  if (/^deepseek-/i.test(id)) return false;
  return undefined;
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
