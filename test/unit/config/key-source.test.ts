import { describe, expect, it } from 'vitest';
import { resolveProviderSettings } from '../../../src/config/config.js';

describe('resolveProviderSettings: where the key came from', () => {
  it('names the environment variable when the key comes from the environment, even if the file has one too', () => {
    const settings = resolveProviderSettings({
      env: { DEEPSEEK_API_KEY: 'from-env' },
      config: { providers: { deepseek: { api_key: 'from-file' } } },
      configPath: '/h/config.json',
    });
    expect(settings).toMatchObject({ apiKey: 'from-env', keySource: 'the DEEPSEEK_API_KEY environment variable' });
  });

  it('names the config entry and file when the key comes from the file', () => {
    const settings = resolveProviderSettings({ env: {}, config: { providers: { anthropic: { api_key: 'from-file' } } }, configPath: '/h/config.json' });
    expect(settings).toMatchObject({ provider: 'anthropic', apiKey: 'from-file', keySource: 'providers.anthropic.api_key in /h/config.json' });
  });

  it('says no key was set when a local server runs without one', () => {
    const settings = resolveProviderSettings({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1' }, flags: { provider: 'openai-compatible' }, configPath: '/h/config.json' });
    expect(settings.keySource).toBe('no key (neither OPENAI_API_KEY nor providers.openai-compatible.api_key in /h/config.json is set)');
  });
});
