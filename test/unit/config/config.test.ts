import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  PLACEHOLDER_API_KEY,
  readConfig,
  resolveProviderSettings,
  writeConfig,
  type ResolveProviderInput,
  type SeekConfig,
} from '../../../src/config/config.js';

let base: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'seek-config-'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const resolve = (input: ResolveProviderInput) => resolveProviderSettings({ env: {}, ...input });
const thrown = (fn: () => unknown): ConfigError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('provider precedence', () => {
  const config: SeekConfig = { default_provider: 'anthropic', providers: { anthropic: { api_key: 'file-a' } } };
  const env = { DEEPSEEK_API_KEY: 'ds', ANTHROPIC_API_KEY: 'an', OPENAI_API_KEY: 'oa', SEEK_PROVIDER: 'openai' };

  it.each<[string, ResolveProviderInput, string, string]>([
    ['--provider beats everything', { flags: { provider: 'deepseek' }, env, config }, 'deepseek', 'flag'],
    ['SEEK_PROVIDER beats the config', { env, config }, 'openai', 'env'],
    ['default_provider beats key order', { env: { ...env, SEEK_PROVIDER: undefined }, config }, 'anthropic', 'config'],
    ['key order: deepseek first', { env: { DEEPSEEK_API_KEY: 'x', OPENAI_API_KEY: 'y' } }, 'deepseek', 'key'],
    ['key order: anthropic before openai', { env: { OPENAI_API_KEY: 'y', ANTHROPIC_API_KEY: 'z' } }, 'anthropic', 'key'],
    ['key order: openai last', { env: { OPENAI_API_KEY: 'y' } }, 'openai', 'key'],
    ['key order counts config keys', { config: { providers: { anthropic: { api_key: 'f' } } } }, 'anthropic', 'key'],
    ['empty variables count as unset', { env: { DEEPSEEK_API_KEY: '', OPENAI_API_KEY: 'y' } }, 'openai', 'key'],
  ])('%s', (_name, input, provider, source) => {
    const settings = resolve(input);
    expect(settings.provider).toBe(provider);
    expect(settings.providerSource).toBe(source);
  });
});

describe('keys, base URLs and models', () => {
  it('prefers environment keys over config file keys', () => {
    const config: SeekConfig = { providers: { deepseek: { api_key: 'from-file' } } };
    expect(resolve({ config }).apiKey).toBe('from-file');
    expect(resolve({ config, env: { DEEPSEEK_API_KEY: 'from-env' } }).apiKey).toBe('from-env');
  });

  it('resolves base URLs: flag, env, config, default', () => {
    const config: SeekConfig = { providers: { deepseek: { api_key: 'k', base_url: 'http://file' } } };
    const env = { DEEPSEEK_BASE_URL: 'http://env' };
    expect(resolve({ config, env, flags: { baseUrl: 'http://flag' } }).baseUrl).toBe('http://flag');
    expect(resolve({ config, env }).baseUrl).toBe('http://env');
    expect(resolve({ config }).baseUrl).toBe('http://file');
    expect(resolve({ env: { DEEPSEEK_API_KEY: 'k' } }).baseUrl).toBe('https://api.deepseek.com');
    expect(resolve({ env: { ANTHROPIC_API_KEY: 'k' } }).baseUrl).toBe('https://api.anthropic.com');
    expect(resolve({ env: { OPENAI_API_KEY: 'k' } }).baseUrl).toBe('https://api.openai.com/v1');
  });

  it('resolves models: flag, SEEK_MODEL, provider entry, top-level, catalog default', () => {
    const config: SeekConfig = { model: 'top', providers: { deepseek: { api_key: 'k', model: 'entry' } } };
    expect(resolve({ config, env: { SEEK_MODEL: 'env' }, flags: { model: 'flag' } }).model).toBe('flag');
    expect(resolve({ config, env: { SEEK_MODEL: 'env' } }).model).toBe('env');
    expect(resolve({ config }).model).toBe('entry');
    expect(resolve({ config: { model: 'top', providers: { deepseek: { api_key: 'k' } } } }).model).toBe('top');
    expect(resolve({ env: { DEEPSEEK_API_KEY: 'k' } }).model).toBe('deepseek-v4-flash');
    expect(resolve({ env: { ANTHROPIC_API_KEY: 'k' } }).model).toBe('claude-sonnet-4-6');
    expect(resolve({ env: { OPENAI_API_KEY: 'k' } }).model).toBe('gpt-5-mini');
  });

  it('picks the flash model from SEEK_FLASH_MODEL, else the provider default', () => {
    const env = { DEEPSEEK_API_KEY: 'k', SEEK_MODEL: 'deepseek-v4-pro' };
    expect(resolve({ env }).flashModel).toBe('deepseek-v4-flash');
    expect(resolve({ env: { ...env, SEEK_FLASH_MODEL: 'cheap' } }).flashModel).toBe('cheap');
  });

  it('lets openai-compatible run keyless on OPENAI_* variables', () => {
    const settings = resolve({
      flags: { provider: 'openai-compatible', model: 'qwen3' },
      env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' },
    });
    expect(settings).toMatchObject({
      provider: 'openai-compatible',
      apiKey: PLACEHOLDER_API_KEY,
      baseUrl: 'http://localhost:11434/v1',
      model: 'qwen3',
      flashModel: 'qwen3',
    });
    expect(resolve({ flags: { provider: 'openai-compatible' }, env: { OPENAI_API_KEY: 'real' } }).apiKey).toBe('real');
  });

  it('lets openai at a non-default base URL run keyless, but not the real OpenAI endpoint', () => {
    expect(resolve({ flags: { provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1' } }).apiKey).toBe(
      PLACEHOLDER_API_KEY,
    );
    expect(thrown(() => resolve({ flags: { provider: 'openai' } })).message).toContain('OPENAI_API_KEY');
  });
});

describe('missing keys and bad names', () => {
  it('explains which variables to set when no key exists at all', () => {
    const error = thrown(() => resolve({ configPath: '/h/config.json' }));
    expect(error.code).toBe('missing_key');
    expect(error.message).toContain('No API key found. Set DEEPSEEK_API_KEY (or ANTHROPIC_API_KEY / OPENAI_API_KEY)');
    expect(error.message).toContain('/h/config.json');
    expect(error.message).toContain('--provider openai-compatible');
    expect(error.message).not.toContain('\n');
  });

  it.each<[ResolveProviderInput, string, string]>([
    [{ flags: { provider: 'anthropic' }, env: { DEEPSEEK_API_KEY: 'k' } }, 'ANTHROPIC_API_KEY', '--provider'],
    [{ env: { SEEK_PROVIDER: 'openai', DEEPSEEK_API_KEY: 'k' } }, 'OPENAI_API_KEY', 'SEEK_PROVIDER'],
    [{ config: { default_provider: 'deepseek' }, env: { OPENAI_API_KEY: 'k' } }, 'DEEPSEEK_API_KEY', 'default_provider'],
  ])('names exactly the missing variable of an explicitly chosen provider (%#)', (input, variable, source) => {
    const error = thrown(() => resolve(input));
    expect(error.code).toBe('missing_key');
    expect(error.message).toContain(`Set ${variable} in your environment`);
    expect(error.message).toContain(source);
    for (const other of ['DEEPSEEK_API_KEY', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY'].filter((v) => v !== variable)) {
      expect(error.message).not.toContain(other);
    }
  });

  it('rejects an unknown provider name', () => {
    const error = thrown(() => resolve({ flags: { provider: 'gemini' }, env: { DEEPSEEK_API_KEY: 'k' } }));
    expect(error.code).toBe('unknown_provider');
    expect(error.message).toContain('"gemini"');
  });
});

describe('config file', () => {
  it('treats a missing file as empty and round-trips a written one with mode 0600', async () => {
    const home = join(base, 'roundtrip');
    expect(await readConfig(home)).toEqual({});
    const config: SeekConfig = {
      default_provider: 'deepseek',
      providers: { deepseek: { api_key: 'sk-1', model: 'deepseek-v4-pro' } },
      suggest_reply: false,
    };
    await writeConfig(home, config);
    expect(statSync(join(home, 'config.json')).mode & 0o777).toBe(0o600);
    expect(await readConfig(home)).toEqual(config);
  });

  it('tightens an existing file to 0600 when rewriting it', async () => {
    const home = join(base, 'loose');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), '{}', { mode: 0o644 });
    await writeConfig(home, { model: 'm' });
    expect(statSync(join(home, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('reports invalid JSON as a ConfigError naming the file', async () => {
    const home = join(base, 'corrupt');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), '{"default_provider": ');
    const error = await readConfig(home).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(join(home, 'config.json'));
    expect((error as ConfigError).message).toContain('not valid JSON');
  });

  it('reports a wrongly shaped field by its path', async () => {
    const home = join(base, 'shape');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ providers: { deepseek: { api_key: 42 } } }));
    await expect(readConfig(home)).rejects.toThrow(/config\.json is not a valid seek config: providers\.deepseek\.api_key/);
  });
});
