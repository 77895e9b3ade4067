/**
 * `~/.seek/config.json` (mode 0600) and the provider choice (CONTRACT.md "Environment and
 * configuration"). Reading and writing the file lives here; so does the one function that turns
 * flags, environment and file into the provider, model, key and base URL a run uses.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import { DEFAULT_MODELS } from '../providers/catalog.js';
import { writeFileAtomic } from './atomic-file.js';
import { configFile } from './paths.js';
import { knownValid, rememberValid } from './validation-memo.js';

export const PROVIDER_NAMES = ['deepseek', 'openai', 'openai-compatible', 'anthropic'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** Order in which providers are tried when none is named: the first whose key is set wins. */
const AUTO_DETECT_ORDER = ['deepseek', 'anthropic', 'openai'] as const;

export const DEFAULT_BASE_URLS: Readonly<Record<ProviderName, string>> = {
  deepseek: 'https://api.deepseek.com',
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  'openai-compatible': 'https://api.openai.com/v1',
};

/** The key a local OpenAI-compatible server gets when none is set: such servers ignore it, but the
 * client library refuses an empty one. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** Environment variable prefix per provider; openai-compatible shares OpenAI's variables. */
const ENV_PREFIX: Readonly<Record<ProviderName, string>> = {
  deepseek: 'DEEPSEEK',
  anthropic: 'ANTHROPIC',
  openai: 'OPENAI',
  'openai-compatible': 'OPENAI',
};

export const apiKeyVariable = (provider: ProviderName): string => `${ENV_PREFIX[provider]}_API_KEY`;
export const baseUrlVariable = (provider: ProviderName): string => `${ENV_PREFIX[provider]}_BASE_URL`;

export function isProviderName(value: string): value is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(value);
}

// ---- The file -----------------------------------------------------------------------------------

const providerEntrySchema = lazySchema((z) =>
  z.looseObject({
    api_key: z.string().optional(),
    base_url: z.string().optional(),
    model: z.string().optional(),
  }),
);

const price = lazySchema((z) => z.number().nonnegative());

/** A model's prices in $ per million tokens and its context window (CONTRACT.md `models`). */
const modelEntrySchema = lazySchema((z) =>
  z.looseObject({
    input: price().optional(),
    output: price().optional(),
    cache_read: price().optional(),
    cache_write: price().optional(),
    context_window: z.number().int().positive().optional(),
  }),
);

/** Unknown fields are kept (loose objects) so a newer seek's settings survive a rewrite by this one. */
const configSchema = lazySchema((z) =>
  z.looseObject({
    default_provider: z.enum(PROVIDER_NAMES).optional(),
    providers: z.record(z.string(), providerEntrySchema()).optional(),
    model: z.string().optional(),
    /** Prices and windows per model id, for models the catalog does not know or prices it has wrong. */
    models: z.record(z.string(), modelEntrySchema()).optional(),
  }),
);

export type SeekConfig = z.infer<ReturnType<typeof configSchema>>;
export type ProviderConfigEntry = z.infer<ReturnType<typeof providerEntrySchema>>;

export type ConfigErrorCode = 'invalid_config' | 'unknown_provider' | 'missing_key';

/** A configuration problem the user must fix. The message is written for the user (one paragraph,
 * no stack trace); the CLI prints it and exits 1 (`unknown_provider` from a flag is bad usage: 2). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    readonly code: ConfigErrorCode,
  ) {
    super(message);
  }
}

/** Reads `<home>/config.json`. A missing file is an empty config; an unreadable, non-JSON or
 * ill-shaped file is a `ConfigError` naming the file and the offending field. */
export async function readConfig(home: string): Promise<SeekConfig> {
  const file = configFile(home);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return {};
    throw new ConfigError(`Cannot read ${file}: ${errorMessage(error)}.`, 'invalid_config');
  }
  return parseConfig(text, file, home);
}

/** Parses config text; `file` only names the source in error messages. With `memoHome`, text
 * this seek validated before is not validated again (validation-memo.ts: the schema only checks,
 * so the parsed JSON is the config), and text that passes is remembered. */
export function parseConfig(text: string, file: string, memoHome?: string): SeekConfig {
  if (text.trim() === '') return {};
  if (memoHome !== undefined && knownValid(memoHome, 'config', text)) return JSON.parse(text) as SeekConfig;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `${file} is not valid JSON (${errorMessage(error)}). Fix it or delete it and run seek again.`,
      'invalid_config',
    );
  }
  const parsed = configSchema().safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(top level)'}: ${issue.message}`)
      .join('; ');
    throw new ConfigError(`${file} is not a valid seek config: ${problems}.`, 'invalid_config');
  }
  if (memoHome !== undefined) rememberValid(memoHome, 'config', text);
  return parsed.data;
}

/** Writes `<home>/config.json` atomically with mode 0600 (it holds API keys). */
export async function writeConfig(home: string, config: SeekConfig): Promise<void> {
  const file = configFile(home);
  // The temp file is created and chmod-ed 0600 before the rename, so the keys are never readable
  // by others, even for a moment, and a pre-existing looser file is replaced by a 0600 one.
  await writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600, durable: true });
}

// ---- Provider settings --------------------------------------------------------------------------

export interface ProviderFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
}

export interface ResolveProviderInput {
  flags?: ProviderFlags;
  env?: Readonly<Record<string, string | undefined>>;
  config?: SeekConfig;
  /** Shown in error messages; defaults to `~/.seek/config.json`. */
  configPath?: string;
}

/** Where the provider choice came from, for diagnostics (`seek --help`, /status). */
export type ProviderSource = 'flag' | 'env' | 'config' | 'key';

export interface ProviderSettings {
  provider: ProviderName;
  providerSource: ProviderSource;
  model: string;
  /** Cheap model for side calls (summaries, distill, filters): `SEEK_FLASH_MODEL`, else the
   * provider's default model; for openai-compatible, the main model (a local server usually
   * serves only that one). */
  flashModel: string;
  apiKey: string;
  /** Where the key came from, as a user would fix it: "the DEEPSEEK_API_KEY environment
   * variable", "providers.deepseek.api_key in ~/.seek/config.json", or that none was set.
   * Named in authentication errors. */
  keySource: string;
  baseUrl: string;
}

/**
 * Resolves the provider, model, key and base URL of a run. Precedence (CONTRACT.md):
 * - provider: `--provider`, `SEEK_PROVIDER`, `default_provider`, else the first of deepseek,
 *   anthropic, openai whose key is set (environment or config file);
 * - key: `<PROVIDER>_API_KEY` from the environment, else `providers.<name>.api_key`;
 *   openai-compatible (and openai at a non-default base URL) falls back to "not-needed";
 * - base URL: `--base-url`, `<PROVIDER>_BASE_URL`, `providers.<name>.base_url`, the default;
 * - model: `--model`, `SEEK_MODEL`, `providers.<name>.model`, top-level `model`, the catalog default.
 * openai-compatible reads the OPENAI_* variables. Empty strings count as unset.
 * Throws `ConfigError` for an unknown provider name or a missing key.
 */
export function resolveProviderSettings(input: ResolveProviderInput = {}): ProviderSettings {
  const flags = input.flags ?? {};
  const env = input.env ?? process.env;
  const config = input.config ?? {};
  const configPath = input.configPath ?? '~/.seek/config.json';
  const fileEntry = (p: ProviderName): ProviderConfigEntry | undefined => config.providers?.[p];
  const keyFor = (p: ProviderName): string | undefined => nonEmpty(env[apiKeyVariable(p)]) ?? nonEmpty(fileEntry(p)?.api_key);

  const choice = chooseProvider(flags, env, config, keyFor, configPath);
  const { provider } = choice;
  const entry = fileEntry(provider);

  const baseUrl =
    nonEmpty(flags.baseUrl) ??
    nonEmpty(env[baseUrlVariable(provider)]) ??
    nonEmpty(entry?.base_url) ??
    DEFAULT_BASE_URLS[provider];

  let apiKey = keyFor(provider);
  const keySource = nonEmpty(env[apiKeyVariable(provider)])
    ? `the ${apiKeyVariable(provider)} environment variable`
    : apiKey !== undefined
      ? `providers.${provider}.api_key in ${configPath}`
      : `no key (neither ${apiKeyVariable(provider)} nor providers.${provider}.api_key in ${configPath} is set)`;
  if (apiKey === undefined) {
    const localServer =
      provider === 'openai-compatible' || (provider === 'openai' && !sameUrl(baseUrl, DEFAULT_BASE_URLS.openai));
    if (!localServer) throw missingKeyForNamedProvider(provider, choice.source, configPath);
    apiKey = PLACEHOLDER_API_KEY;
  }

  const providerDefault = DEFAULT_MODELS[provider === 'openai-compatible' ? 'openai' : provider];
  const model =
    nonEmpty(flags.model) ??
    nonEmpty(env.SEEK_MODEL) ??
    nonEmpty(entry?.model) ??
    nonEmpty(config.model) ??
    providerDefault;
  const flashModel = nonEmpty(env.SEEK_FLASH_MODEL) ?? (provider === 'openai-compatible' ? model : providerDefault);

  return { provider, providerSource: choice.source, model, flashModel, apiKey, keySource, baseUrl };
}

function chooseProvider(
  flags: ProviderFlags,
  env: Readonly<Record<string, string | undefined>>,
  config: SeekConfig,
  keyFor: (p: ProviderName) => string | undefined,
  configPath: string,
): { provider: ProviderName; source: ProviderSource } {
  const named: Array<[string | undefined, ProviderSource, string]> = [
    [nonEmpty(flags.provider), 'flag', '--provider'],
    [nonEmpty(env.SEEK_PROVIDER), 'env', 'SEEK_PROVIDER'],
    [config.default_provider, 'config', `default_provider in ${configPath}`],
  ];
  for (const [value, source, where] of named) {
    if (value === undefined) continue;
    if (!isProviderName(value)) {
      throw new ConfigError(
        `Unknown provider "${value}" (from ${where}). Use one of: ${PROVIDER_NAMES.join(', ')}.`,
        'unknown_provider',
      );
    }
    return { provider: value, source };
  }
  const detected = AUTO_DETECT_ORDER.find((p) => keyFor(p) !== undefined);
  if (detected) return { provider: detected, source: 'key' };
  throw new ConfigError(
    `No API key found. Set DEEPSEEK_API_KEY (or ANTHROPIC_API_KEY / OPENAI_API_KEY) in your environment, ` +
      `or run seek once interactively to save one in ${configPath}. ` +
      `For a local OpenAI-compatible server set OPENAI_BASE_URL and --provider openai-compatible.`,
    'missing_key',
  );
}

function missingKeyForNamedProvider(provider: ProviderName, source: ProviderSource, configPath: string): ConfigError {
  const from = source === 'flag' ? '--provider' : source === 'env' ? 'SEEK_PROVIDER' : `default_provider in ${configPath}`;
  return new ConfigError(
    `No API key for ${provider} (chosen by ${from}). Set ${apiKeyVariable(provider)} in your environment, ` +
      `or save it as providers.${provider}.api_key in ${configPath}.`,
    'missing_key',
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

function sameUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

function isErrnoCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
