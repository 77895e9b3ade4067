/**
 * web_search's backends, configured in ~/.seek/config.json's `webSearch`:
 *   {"provider": "searxng", "baseUrl": "http://localhost:8888"}     a SearXNG instance's JSON API
 *   {"provider": "brave", "apiKeyEnv": "BRAVE_API_KEY"}            the Brave Search API
 *   {"provider": "tavily", "apiKeyEnv": "TAVILY_API_KEY"}          Tavily's search API
 *   {"provider": "exa", "apiKeyEnv": "EXA_API_KEY"}                Exa's search API
 * `baseUrl` replaces Brave's, Tavily's and Exa's address too (a proxy, or a test server). The backend is
 * the user's own choice, so it may be on this machine: these requests are not address-guarded.
 */
export const SEARCH_PROVIDERS = ['searxng', 'brave', 'tavily', 'exa'] as const;
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number];

export interface SearchSettings {
  provider: SearchProvider;
  baseUrl: string;
  apiKey?: string;
}

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

const DEFAULT_BASE: Readonly<Record<SearchProvider, string | undefined>> = {
  searxng: undefined,
  brave: 'https://api.search.brave.com',
  tavily: 'https://api.tavily.com',
  exa: 'https://api.exa.ai',
};

const DEFAULT_KEY_ENV: Readonly<Record<SearchProvider, string | undefined>> = { searxng: undefined, brave: 'BRAVE_API_KEY', tavily: 'TAVILY_API_KEY', exa: 'EXA_API_KEY' };

export const SEARCH_CONFIG_EXAMPLE =
  '"webSearch": {"provider": "searxng", "baseUrl": "http://localhost:8888"} (a SearXNG instance with the json format enabled) or "webSearch": {"provider": "brave", "apiKeyEnv": "BRAVE_API_KEY"}';

export class SearchConfigError extends Error {
  override readonly name = 'SearchConfigError';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The settings from the config's `webSearch` value; throws SearchConfigError saying what to fix. */
export function searchSettings(value: unknown, env: NodeJS.ProcessEnv, file: string): SearchSettings {
  if (value === undefined) throw new SearchConfigError(`web search is not configured: add to ${file} ${SEARCH_CONFIG_EXAMPLE}.`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SearchConfigError(`"webSearch" in ${file} must be an object: ${SEARCH_CONFIG_EXAMPLE}.`);
  const entry = value as Record<string, unknown>;
  const provider = text(entry.provider) as SearchProvider | undefined;
  if (!provider || !SEARCH_PROVIDERS.includes(provider)) {
    throw new SearchConfigError(`"webSearch.provider" in ${file} must be one of ${SEARCH_PROVIDERS.join(', ')}${provider ? `, not "${provider}"` : ''}.`);
  }
  const baseUrl = text(entry.baseUrl) ?? DEFAULT_BASE[provider];
  if (!baseUrl) throw new SearchConfigError(`"webSearch" in ${file}: the searxng provider needs "baseUrl", the address of your SearXNG instance.`);
  try {
    if (!/^https?:$/.test(new URL(baseUrl).protocol)) throw new Error('not http');
  } catch {
    throw new SearchConfigError(`"webSearch.baseUrl" in ${file} is not an http(s) URL: ${baseUrl}.`);
  }
  const keyEnv = text(entry.apiKeyEnv) ?? DEFAULT_KEY_ENV[provider];
  const apiKey = keyEnv ? text(env[keyEnv]) : undefined;
  if (provider !== 'searxng' && !apiKey) throw new SearchConfigError(`web search through ${provider} needs an API key in the environment variable ${keyEnv} (set "webSearch.apiKeyEnv" in ${file} to use another).`);
  return { provider, baseUrl: baseUrl.replace(/\/+$/, ''), ...(apiKey ? { apiKey } : {}) };
}

const TAG = /<[^>]*>/g;
const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&nbsp;': ' ' };

/** A snippet as plain text: Brave marks matches with <strong>, some engines send entities. */
export function plainSnippet(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.replace(TAG, '').replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (entity) => ENTITIES[entity] ?? entity).replace(/\s+/g, ' ').trim();
}

function results(list: unknown, pick: (item: Record<string, unknown>) => SearchResult): SearchResult[] {
  if (!Array.isArray(list)) return [];
  return list.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && typeof (item as Record<string, unknown>).url === 'string').map(pick);
}

/** Bytes of a backend's answer read at most: 20 results are tens of KB; a backend (or something at
 * its address) sending more is cut off, not read into memory whole. */
export const SEARCH_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The body as text, at most `max` bytes; more is an error (a cut JSON answer cannot be read). */
async function limitedText(response: Response, settings: SearchSettings, max = SEARCH_MAX_RESPONSE_BYTES): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const tooLarge = () => new Error(`${settings.provider} answered more than ${max / (1024 * 1024)} MiB; web_search reads at most that much`);
  if (declared > max) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) throw tooLarge();
      chunks.push(value);
    }
  } finally {
    if (size > max) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

async function answer(response: Response, settings: SearchSettings): Promise<unknown> {
  const body = await limitedText(response, settings);
  if (!response.ok) {
    const hint =
      settings.provider === 'searxng' && response.status === 403
        ? ' (SearXNG answers 403 when its JSON format is off: add json to search.formats in its settings.yml)'
        : response.status === 401 || response.status === 403
          ? ' (check the API key)'
          : response.status === 429
            ? ' (rate limited: try again later)'
            : '';
    throw new Error(`${settings.provider} answered HTTP ${response.status}${hint}: ${body.slice(0, 300)}`);
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new Error(`${settings.provider} did not answer JSON (is ${settings.baseUrl} the right address?): ${body.slice(0, 200)}`);
  }
}

/** Runs the search; throws with the backend's problem in words. */
export async function search(settings: SearchSettings, query: string, count: number, signal: AbortSignal): Promise<SearchResult[]> {
  const { provider, baseUrl, apiKey } = settings;
  if (provider === 'searxng') {
    const url = `${baseUrl}/search?${new URLSearchParams({ q: query, format: 'json' })}`;
    const body = (await answer(await fetch(url, { signal, headers: { accept: 'application/json' } }), settings)) as { results?: unknown };
    return results(body.results, (item) => ({ title: plainSnippet(item.title), url: String(item.url), snippet: plainSnippet(item.content) })).slice(0, count);
  }
  if (provider === 'brave') {
    const url = `${baseUrl}/res/v1/web/search?${new URLSearchParams({ q: query, count: String(Math.min(count, 20)) })}`;
    const response = await fetch(url, { signal, headers: { accept: 'application/json', 'x-subscription-token': apiKey ?? '' } });
    const body = (await answer(response, settings)) as { web?: { results?: unknown } };
    return results(body.web?.results, (item) => ({ title: plainSnippet(item.title), url: String(item.url), snippet: plainSnippet(item.description) })).slice(0, count);
  }
  if (provider === 'exa') {
    const response = await fetch(`${baseUrl}/search`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey ?? '' },
      body: JSON.stringify({ query, numResults: count, contents: { text: { maxCharacters: 400 } } }),
    });
    const body = (await answer(response, settings)) as { results?: unknown };
    return results(body.results, (item) => ({ title: plainSnippet(item.title), url: String(item.url), snippet: exaSnippet(item) })).slice(0, count);
  }
  const response = await fetch(`${baseUrl}/search`, {
    method: 'POST',
    signal,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey ?? ''}` },
    body: JSON.stringify({ query, max_results: Math.min(count, 20) }),
  });
  const body = (await answer(response, settings)) as { results?: unknown };
  return results(body.results, (item) => ({ title: plainSnippet(item.title), url: String(item.url), snippet: plainSnippet(item.content) })).slice(0, count);
}

/** Exa sends highlights when asked for them, else the start of the page's text. */
function exaSnippet(item: Record<string, unknown>): string {
  const highlights = Array.isArray(item.highlights) ? item.highlights.filter((h): h is string => typeof h === 'string') : [];
  return plainSnippet(highlights.length > 0 ? highlights.join(' … ') : item.text).slice(0, 400);
}
