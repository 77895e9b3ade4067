import type { Tool } from '../agent/types.js';
import { createWebFetchTool } from './web-fetch.js';
import { createWebSearchTool } from './web-search.js';

export interface WebToolsDeps {
  /** A private address needs an allow rule written in a config file naming its host. */
  mayReachPrivate: (host: string) => boolean;
  /** The user's config (~/.seek/config.json), for its `webSearch` setting, and its path. */
  config: Record<string, unknown>;
  configFile: string;
  env: NodeJS.ProcessEnv;
}

/** web_fetch and web_search, offered on demand (behind tool_search): see docs/web.md. */
export function createWebTools(deps: WebToolsDeps): Tool[] {
  return [
    createWebFetchTool({ mayReachPrivate: deps.mayReachPrivate, setting: () => deps.config.webFetch, configFile: deps.configFile }) as Tool,
    createWebSearchTool({ setting: () => deps.config.webSearch, configFile: deps.configFile, env: deps.env }) as Tool,
  ];
}
