/**
 * URL spellings that try to pass a `WebFetch(domain:example.com)` rule, or the private-address
 * guard, with another host: the host web_fetch asks about is the one it connects to (WHATWG URL
 * parsing: lower case, punycode, IPv4 in any notation made dotted), and only that host matches.
 */
import { describe, expect, it } from 'vitest';
import type { ActionRequest, ToolContext } from '../../../src/agent/types.js';
import { PermissionPolicy } from '../../../src/policy/index.js';
import { parseRuleText } from '../../../src/policy/rule-syntax.js';
import { createWebFetchTool } from '../../../src/tools/web-fetch.js';
import { classifyAddress } from '../../../src/web/address.js';

const tool = createWebFetchTool({ mayReachPrivate: () => false });
const policy = new PermissionPolicy({ root: '/tmp/seek-url-tricks', preference: 'deny', rules: parseRuleText('WebFetch(domain:example.com)', 'allow', 'user', []).rules });
const ctx = { signal: new AbortController().signal } as unknown as ToolContext;
/** web_fetch's describe is synchronous: the action it asks about. */
const actionOf = (url: string): ActionRequest => tool.describe!({ url }, ctx) as ActionRequest;
const decide = (url: string) => policy.evaluate(actionOf(url), { tool: 'web_fetch' }).decision;
const hostOf = (url: string) => actionOf(url).host;

describe('web_fetch URL tricks against a rule for example.com', () => {
  it('allows example.com in any case, with a port or a trailing dot', () => {
    for (const url of ['https://example.com/', 'https://EXAMPLE.com:8443/x', 'http://example.com./', 'https://example.com#frag']) expect(decide(url), url).toBe('allow');
  });

  it('denies other hosts that mention example.com', () => {
    for (const url of [
      'https://example.com.evil.net/',
      'https://evil.net/?example.com',
      'https://evil.net/example.com',
      'https://evil.net#@example.com',
      'https://examp1e.com/',
      'https://exаmple.com/', // a Cyrillic а: punycode, another host
      'https://example.com%2eevil.net/',
      'https://xn--example-.com/',
    ]) {
      let decision: string;
      try {
        decision = decide(url);
      } catch {
        decision = 'invalid';
      }
      expect(decision, url).not.toBe('allow');
    }
    expect(hostOf('https://exаmple.com/')).toMatch(/^xn--/);
  });

  it('refuses URLs with credentials (user@example.com@evil) before anything is sent', async () => {
    const result = await tool.execute({ url: 'http://user@example.com@evil.net/' }, ctx);
    expect(result).toEqual({ content: 'web_fetch does not send credentials in URLs', isError: true });
  });

  it('IPv4 in decimal, octal or hex, and IPv4-mapped IPv6, are seen as the loopback and metadata addresses they are', () => {
    for (const url of ['http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.1/', 'http://127.1/', 'http://[::ffff:127.0.0.1]/', 'http://[::1]/', 'http://0/']) {
      expect(['loopback', 'unspecified'], url).toContain(classifyAddress(hostOf(url)!));
    }
    expect(classifyAddress(hostOf('http://2852039166/')!)).toBe('cloud metadata'); // 169.254.169.254
    expect(classifyAddress(hostOf('http://[::ffff:a9fe:a9fe]/')!)).toBe('cloud metadata');
  });
});
