/**
 * The cheap ("flash") model for commands that call a model outside a session (`seek distill`,
 * `seek -dream`): the same provider choice and stream as a session would use, and the project's
 * paths. Throws the same ConfigError as a session when no provider key is set.
 */
import { readConfig, resolveProviderSettings } from '../config/config.js';
import { configFile, resolveProject, seekHome } from '../config/paths.js';
import { configureModels, createProvider } from '../providers/index.js';
import type { StreamFn } from '../providers/types.js';

export interface SideModel {
  stream: StreamFn;
  /** SEEK_FLASH_MODEL, else the provider's default. */
  model: string;
  provider: string;
  seekHome: string;
  projectRoot: string;
  projectId: string;
  config: Readonly<Record<string, unknown>>;
}

export async function openSideModel(options: { cwd: string; env: Readonly<Record<string, string | undefined>>; provider?: string; model?: string; baseUrl?: string }): Promise<SideModel> {
  const home = seekHome(options.env);
  const config = await readConfig(home);
  configureModels(config.models); // prices and windows set in config win over the catalog
  const settings = resolveProviderSettings({
    flags: { ...(options.provider ? { provider: options.provider } : {}), ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) },
    env: options.env,
    config,
    configPath: configFile(home),
  });
  const provider = createProvider({ provider: settings.provider, apiKey: settings.apiKey, baseUrl: settings.baseUrl, keySource: settings.keySource });
  const { root, pid } = resolveProject(options.cwd, home);
  return {
    stream: (request, signal) => provider.stream(request, signal),
    model: options.model ?? settings.flashModel,
    provider: settings.provider,
    seekHome: home,
    projectRoot: root,
    projectId: pid,
    config,
  };
}
