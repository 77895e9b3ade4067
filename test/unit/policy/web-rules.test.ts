/**
 * The web tools' permissions (policy/web-rules.ts, src/web/address.ts): WebFetch(domain:…) and
 * WebSearch rules parse, match hosts and decide; an interactive fetch is asked once per host; and
 * addresses are classified for the private-address guard.
 */
import { describe, expect, it } from 'vitest';
import { createWebFetchTool } from '../../../src/tools/web-fetch.js';
import type { Tool, ToolContext } from '../../../src/agent/types.js';
import { PermissionPolicy, formatRule, type PolicyRule } from '../../../src/policy/index.js';
import { parseRuleText } from '../../../src/policy/rule-syntax.js';
import { namesHostExplicitly } from '../../../src/policy/web-rules.js';
import { createToolGate, type PermissionPrompt } from '../../../src/policy/tool-gate.js';
import { classifyAddress } from '../../../src/web/address.js';

const ROOT = '/tmp/seek-web-rules-project';
const fetchOf = (host: string) => ({ kind: 'other' as const, paths: [], host, readOnlyHint: true, summary: `fetch https://${host}/` });
const search = { kind: 'other' as const, paths: [], readOnlyHint: true, summary: 'search the web: x' };
const rules = (allow: string[] = [], deny: string[] = []): PolicyRule[] => [
  ...allow.flatMap((text) => parseRuleText(text, 'allow', 'user', []).rules),
  ...deny.flatMap((text) => parseRuleText(text, 'deny', 'user', []).rules),
];

describe('WebFetch and WebSearch rules', () => {
  it("parse in Claude Code's syntax and seek's names, and refuse what they cannot mean", () => {
    expect(parseRuleText('WebFetch(domain:example.com)', 'allow', 'user', []).rules).toEqual([
      { decision: 'allow', source: 'user', origin: { text: 'WebFetch(domain:example.com)' }, tool: 'web_fetch', pattern: 'domain:example.com' },
    ]);
    expect(parseRuleText('WebSearch', 'deny', 'user', []).rules[0]).toMatchObject({ tool: 'web_search', decision: 'deny' });
    expect(parseRuleText('web_fetch(domain:*.example.com)', 'allow', 'user', []).rules[0]).toMatchObject({ tool: 'web_fetch', pattern: 'domain:*.example.com' });
    expect(parseRuleText('WebFetch', 'allow', 'user', []).inert).toBeUndefined();
    expect(() => parseRuleText('WebFetch(https://example.com)', 'allow', 'user', [])).toThrow(/write WebFetch\(domain:example\.com\)/);
    expect(() => parseRuleText('WebSearch(cats)', 'allow', 'user', [])).toThrow(/WebSearch takes no specifier/);
  });

  it('match the host: exact (any port, any case), *. for subdomains only, never another host', () => {
    const policy = (allow: string[]) => new PermissionPolicy({ root: ROOT, preference: 'deny', rules: rules(allow) });
    const decide = (allow: string[], host: string) => policy(allow).evaluate(fetchOf(host), { tool: 'web_fetch' }).decision;
    expect(decide(['WebFetch(domain:example.com)'], 'example.com')).toBe('allow');
    expect(decide(['WebFetch(domain:example.com)'], 'EXAMPLE.com')).toBe('allow');
    expect(decide(['WebFetch(domain:example.com)'], 'docs.example.com')).toBe('deny');
    expect(decide(['WebFetch(domain:example.com)'], 'example.com.evil.net')).toBe('deny');
    expect(decide(['WebFetch(domain:*.example.com)'], 'docs.example.com')).toBe('allow');
    expect(decide(['WebFetch(domain:*.example.com)'], 'example.com')).toBe('deny');
    expect(decide(['WebFetch'], 'anything.org')).toBe('allow');
    expect(decide([], 'example.com')).toBe('deny');
  });

  it('decide a fetch and a search: headless denied, interactive asked with a per-host rule, deny beats yolo, plan mode only by rule', () => {
    const headless = new PermissionPolicy({ root: ROOT, preference: 'deny' });
    const denied = headless.evaluate(fetchOf('example.com'), { tool: 'web_fetch' });
    expect(denied).toMatchObject({ decision: 'deny', code: 'dangerous' });
    expect(headless.evaluate(search, { tool: 'web_search' }).decision).toBe('deny');

    const asked = new PermissionPolicy({ root: ROOT, preference: 'ask' }).evaluate(fetchOf('example.com'), { tool: 'web_fetch', canAsk: true });
    expect(asked.decision).toBe('ask');
    if (asked.decision === 'ask') expect(formatRule(asked.suggestedRule)).toBe('web_fetch(domain:example.com)');

    const yolo = new PermissionPolicy({ root: ROOT, preference: 'yolo', rules: rules([], ['WebFetch(domain:example.com)', 'WebSearch']) });
    expect(yolo.evaluate(fetchOf('example.com'), { tool: 'web_fetch' }).decision).toBe('deny');
    expect(yolo.evaluate(fetchOf('example.org'), { tool: 'web_fetch' }).decision).toBe('allow');
    expect(yolo.evaluate(search, { tool: 'web_search' }).decision).toBe('deny');

    const plan = new PermissionPolicy({ root: ROOT, preference: 'yolo', workflow: 'plan_analyze', rules: rules(['WebFetch(domain:example.com)', 'WebSearch']) });
    expect(plan.evaluate(fetchOf('example.com'), { tool: 'web_fetch' }).decision).toBe('allow');
    expect(plan.evaluate(fetchOf('example.org'), { tool: 'web_fetch' }).decision).toBe('deny');
    expect(plan.evaluate(search, { tool: 'web_search' }).decision).toBe('allow');
  });

  it('a private address needs an allow rule naming the host itself', () => {
    expect(namesHostExplicitly(rules(['WebFetch(domain:localhost)']), 'localhost')).toBe(true);
    expect(namesHostExplicitly(rules(['WebFetch(domain:LocalHost)']), 'localhost')).toBe(true);
    expect(namesHostExplicitly(rules(['WebFetch']), 'localhost')).toBe(false);
    expect(namesHostExplicitly(rules(['WebFetch(domain:*.internal)']), 'db.internal')).toBe(false);
    expect(namesHostExplicitly(rules([], ['WebFetch(domain:localhost)']), 'localhost')).toBe(false);
    // A yes given this session (or a rule a spawn or command added) is no rule written by the user:
    // the name's DNS may point at 127.0.0.1 by the time it is fetched (rebinding).
    const session = parseRuleText('WebFetch(domain:evil.example)', 'allow', 'session', []).rules;
    expect(namesHostExplicitly(session, 'evil.example')).toBe(false);
    expect(namesHostExplicitly(parseRuleText('WebFetch(domain:evil.example)', 'allow', 'local', []).rules, 'evil.example')).toBe(true);
  });
});

describe('an interactive fetch', () => {
  it('is asked once per host: a yes holds for that host for the session, another host is asked again', async () => {
    const policy = new PermissionPolicy({ root: ROOT, preference: 'ask' });
    const prompts: PermissionPrompt[] = [];
    const gate = createToolGate({ policy, ask: async (prompt) => (prompts.push(prompt), 'yes') });
    const tool = createWebFetchTool({ mayReachPrivate: (host) => namesHostExplicitly(policy.rules, host) }) as Tool;
    const call = (url: string) => {
      const ctx: ToolContext = { cwd: ROOT, projectRoot: ROOT, signal: new AbortController().signal, callId: `c-${prompts.length}-${url}` };
      return gate.before({ toolCall: { id: ctx.callId, name: 'web_fetch', arguments: JSON.stringify({ url }) }, tool, args: { url }, ctx });
    };
    expect(await call('https://example.com/a')).toMatchObject({ allow: true });
    expect(await call('https://example.com/b')).toMatchObject({ allow: true });
    expect(prompts.map((prompt) => prompt.action.host)).toEqual(['example.com']);
    expect(await call('https://example.org/')).toMatchObject({ allow: true });
    expect(prompts.map((prompt) => prompt.action.host)).toEqual(['example.com', 'example.org']);
    expect(formatRule(prompts[0]!.alwaysRule)).toBe('web_fetch(domain:example.com)');
  });
});

describe('address classes', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.10.10', 'link-local'],
    ['fe80::1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['2606:4700::1111', 'public'],
    ['64:ff9b::a00:1', 'private'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});
