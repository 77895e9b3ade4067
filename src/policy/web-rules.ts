import type { PolicyRule } from './types.js';
import { WEB_FETCH_TOOL, WEB_SEARCH_TOOL } from '../tools/tool-name-constants.js';

/**
 * Rules on the web tools, Claude Code's syntax: `WebFetch(domain:example.com)` (that host, any
 * port), `WebFetch(domain:*.example.com)` (its subdomains, not itself), `WebFetch` (every fetch),
 * `WebSearch` (every search). seek's own names take the same specifier: `web_fetch(domain:x)`.
 * A fetch is an action on its URL's host (ActionRequest.host); rules with another pattern never
 * match one.
 */
export { WEB_FETCH_TOOL, WEB_SEARCH_TOOL };

/** Claude Code's names for the web tools. */
export const CLAUDE_WEB_TOOLS: ReadonlyMap<string, string> = new Map([
  ['WebFetch', WEB_FETCH_TOOL],
  ['WebSearch', WEB_SEARCH_TOOL],
]);

const DOMAIN = /^domain:(\*\.)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+)$/;

/** Normal form of a host for comparisons: lower case, no trailing dot. */
export function normalHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

/** The error for a specifier a web rule cannot take, or undefined when it is fine. */
export function webSpecifierError(tool: string, specifier: string | undefined): string | undefined {
  if (specifier === undefined) return undefined;
  if (tool === WEB_SEARCH_TOOL) return 'WebSearch takes no specifier; write WebSearch to allow every search';
  if (!DOMAIN.test(specifier.trim())) return 'write WebFetch(domain:example.com) or WebFetch(domain:*.example.com)';
  return undefined;
}

/** Whether a web rule's pattern covers a fetch of `host`. */
export function domainMatches(pattern: string, host: string): boolean {
  const match = DOMAIN.exec(pattern.trim());
  if (!match) return false;
  const wanted = normalHost(match[2]!);
  const target = normalHost(host);
  return match[1] ? target.endsWith(`.${wanted}`) : target === wanted;
}

/** The pattern an approval of a fetch of `host` keeps: that host only. */
export function domainPattern(host: string): string {
  return `domain:${normalHost(host)}`;
}

/** Only rules the user wrote into a config file open a private address: a yes given this session
 * to a public-looking name is no such rule (its DNS may answer 127.0.0.1 by the time it is fetched). */
const WRITTEN_RULES: ReadonlySet<PolicyRule['source']> = new Set(['user', 'project', 'local']);

/** Whether an allow rule names `host` itself (no wildcard, no bare WebFetch): what a fetch of a
 * loopback, private, link-local or metadata address needs. */
export function namesHostExplicitly(rules: readonly PolicyRule[], host: string): boolean {
  const wanted = domainPattern(host);
  return rules.some((rule) => rule.decision === 'allow' && WRITTEN_RULES.has(rule.source) && rule.tool === WEB_FETCH_TOOL && rule.pattern !== undefined && normalHost(rule.pattern.trim()) === wanted);
}
