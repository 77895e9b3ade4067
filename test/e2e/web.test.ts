/**
 * web_fetch and web_search end to end (docs/web.md): the real seek against the scripted model and a
 * fake web on 127.0.0.1 (test/support/fake-web.ts). Loopback is refused unless a rule names the
 * host, so every fetch that reaches the fake web is allowed by `WebFetch(domain:127.0.0.1)`, which
 * also proves the rule path; the refusals are proven by the fake web never seeing the request.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { BRAVE_KEY, EXA_KEY, posted, startFakeWeb, TAVILY_KEY, type FakeWeb } from '../support/fake-web.js';

const suite = useScriptedServer();
let web: FakeWeb;
beforeAll(async () => {
  web = await startFakeWeb();
});
afterAll(async () => {
  await web.close();
});

const ALLOW_LOOPBACK = 'WebFetch(domain:127.0.0.1)';

function setup(config: Record<string, unknown>): { root: string; home: string } {
  const project = makeProject();
  writeFileSync(join(project.home, 'config.json'), JSON.stringify(config));
  return project;
}

const toolResults = (request: RecordedRequest): string[] =>
  (request.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool').map((m) => m.content);
const lastResult = (): string => toolResults(suite.server.requests.at(-1)!).at(-1)!;
const hitsFor = (path: string) => web.hits.filter((hit) => hit.path === path);

/** One model turn calling `name` with `args`, then a final answer; returns the run. */
async function callOnce(name: string, args: Record<string, unknown>, project: { root: string; home: string }, flags: string[] = [], extraEnv: Record<string, string> = {}) {
  suite.server.enqueue({ toolCalls: [{ name, arguments: args }] }, { text: 'done' });
  const run = await runSeek(['-p', 'use the web', ...flags], { cwd: project.root, env: suite.env(project.home, extraEnv), timeoutMs: 60_000 });
  expect(run.code, run.stderr).toBe(0);
  return run;
}

describe('web_fetch', () => {
  it('is on demand: the first request declares neither web tool, the catalog names both, and call_tool reaches web_fetch', async () => {
    const project = setup({ permissions: { allow: [ALLOW_LOOPBACK] } });
    await callOnce('call_tool', { name: 'web_fetch', arguments: { url: `${web.base}/page.html` } }, project);
    const tools = suite.server.requests[0]!.body.tools as Array<{ function: { name: string; description: string } }>;
    expect(tools.map((tool) => tool.function.name)).not.toContain('web_fetch');
    expect(tools.map((tool) => tool.function.name)).not.toContain('web_search');
    expect(tools.find((tool) => tool.function.name === 'tool_search')!.function.description).toMatch(/web_fetch, web_search \(/);
    expect(lastResult()).toContain('# Installing seek');
  });

  it('turns an HTML page into Markdown (heading, absolute link, no script text), framed as untrusted web content', async () => {
    const project = setup({ permissions: { allow: [ALLOW_LOOPBACK] } });
    await callOnce('web_fetch', { url: `${web.base}/page.html` }, project);
    const result = lastResult();
    expect(result).toMatch(/^Web page http:\/\/127\.0\.0\.1:\d+\/page\.html \(HTTP 200, text\/html, as Markdown, title "Install guide"\)/);
    expect(result).toContain('UNTRUSTED WEB CONTENT');
    expect(result).toMatch(/^#{1,2} Installing seek$/m);
    expect(result).toContain(`[introduction](${web.base}/docs/intro)`);
    expect(result).toMatch(/1\.\s+Install Node 20\./);
    expect(result).toContain('npm install -g seek-agent');
    expect(result).not.toContain('SCRIPT_SECRET_TEXT');
    expect(result).not.toContain('color:red');
    expect(result.indexOf('<<<web content begins>>>')).toBeLessThan(result.indexOf('Installing seek'));
    expect(result.trimEnd().endsWith('<<<web content ends>>>')).toBe(true);
    expect(hitsFor('/page.html').at(-1)!.headers['user-agent']).toMatch(/^seek\//);
  });

  it('passes JSON through as it is, and follows a redirect within the same host', async () => {
    const project = setup({ permissions: { allow: [ALLOW_LOOPBACK] } });
    await callOnce('web_fetch', { url: `${web.base}/data.json` }, project);
    expect(lastResult()).toContain('(HTTP 200, application/json)');
    expect(lastResult()).toContain('{"name":"seek","versions":["0.1.0","0.2.0"],"nested":{"ok":true}}');

    suite.server.reset();
    await callOnce('web_fetch', { url: `${web.base}/redirect-same` }, project);
    expect(lastResult()).toContain(`Web page ${web.base}/page.html`);
    expect(lastResult()).toContain('Installing seek');
  });

  it('pages through a 10 MB page with offset and max_bytes', { timeout: 300_000 }, async () => {
    const project = setup({ permissions: { allow: [ALLOW_LOOPBACK] } });
    const url = `${web.base}/big.html`;
    const total = (text: string): number => Number(/bytes \d+-\d+ of (\d+)\./.exec(text)![1]);
    suite.server.enqueue(
      { toolCalls: [{ name: 'web_fetch', arguments: { url, max_bytes: 20_000 } }] },
      (request) => ({ toolCalls: [{ name: 'web_fetch', arguments: { url, offset: total(toolResults(request).at(-1)!) - 5_000 } }] }),
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'read it'], { cwd: project.root, env: suite.env(project.home), timeoutMs: 280_000 });
    expect(run.code, run.stderr).toBe(0);
    const [first, last] = toolResults(suite.server.requests.at(-1)!);
    const size = total(first!);
    expect(size).toBeGreaterThan(8_000_000);
    expect(first).toMatch(new RegExp(`bytes 0-(\\d+) of ${size}\\.`));
    expect(Number(/bytes 0-(\d+) of/.exec(first!)![1])).toBeLessThanOrEqual(20_000);
    expect(first).toContain('## Section 0');
    expect(first).not.toContain('THE-LAST-LINE');
    expect(first).toMatch(/more: call web_fetch with the same url and offset \d+ to read on/);
    expect(last).toContain(`bytes ${size - 5_000}-${size} of ${size}.`);
    expect(last).toContain('THE-LAST-LINE');
    expect(last).toContain('## Section 39999');
    // The second page came from the first download (kept for paging), not a second one.
    expect(hitsFor('/big.html')).toHaveLength(1);
  });

  it('stops at a redirect to another host; fetching that host is denied headless without a rule, allowed with one', async () => {
    const project = setup({ permissions: { allow: [ALLOW_LOOPBACK] } });
    const other = `http://localhost:${web.port}/page.html`;
    suite.server.enqueue(
      { toolCalls: [{ name: 'web_fetch', arguments: { url: `${web.base}/redirect-other` } }] },
      { toolCalls: [{ name: 'web_fetch', arguments: { url: other } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'read it'], { cwd: project.root, env: suite.env(project.home), timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const [redirect, denied] = toolResults(suite.server.requests.at(-1)!);
    expect(redirect).toContain(`redirects (HTTP 302) to another host: ${other}`);
    expect(denied).toMatch(/web_fetch is not allowed in this mode/);
    expect(denied).toContain('To allow this host alone, add "WebFetch(domain:localhost)" to "permissions.allow"');
    expect(web.hits.filter((hit) => hit.host.startsWith('localhost'))).toHaveLength(0);

    // A rule naming the other host lets it through (localhost is loopback: the rule names it).
    writeFileSync(join(project.home, 'config.json'), JSON.stringify({ permissions: { allow: [ALLOW_LOOPBACK, 'WebFetch(domain:localhost)'] } }));
    suite.server.reset();
    await callOnce('web_fetch', { url: other }, project);
    expect(lastResult()).toContain('Installing seek');
    expect(web.hits.filter((hit) => hit.host.startsWith('localhost'))).toHaveLength(1);
  });

  it('interactively, the fetch of the other host a redirect names is asked, once for that host', async () => {
    const project = setup({ permissions: { allow: [ALLOW_LOOPBACK] } });
    const other = `http://localhost:${web.port}`;
    suite.server.enqueue(
      { toolCalls: [{ name: 'web_fetch', arguments: { url: `${web.base}/redirect-other` } }] },
      { toolCalls: [{ name: 'web_fetch', arguments: { url: `${other}/page.html` } }] },
      { toolCalls: [{ name: 'web_fetch', arguments: { url: `${other}/data.json` } }] },
      { text: 'read both' },
    );
    const run = await runSeek([], { cwd: project.root, env: suite.env(project.home), input: 'read it\ny\n/exit\n', timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.match(/Allow fetch http:\/\/localhost/g)).toHaveLength(1);
    expect(run.stdout).toContain('read both');
    const [redirect, page, data] = toolResults(suite.server.requests.at(-1)!);
    expect(redirect).toContain(`to another host: ${other}/page.html`);
    // The yes holds for the host (asked once), but a yes is no rule the user wrote: localhost
    // resolves to loopback, which only a rule in a config file naming it opens (DNS rebinding).
    expect(page).toMatch(/localhost is at (127\.0\.0\.1|::1), a loopback address/);
    expect(data).toMatch(/localhost is at (127\.0\.0\.1|::1), a loopback address/);
  });

  it('a rule written in a config file naming a loopback host opens it after an interactive yes', async () => {
    const project = setup({ permissions: { allow: [ALLOW_LOOPBACK, 'WebFetch(domain:localhost)'] } });
    suite.server.enqueue({ toolCalls: [{ name: 'web_fetch', arguments: { url: `http://localhost:${web.port}/page.html` } }] }, { text: 'read it' });
    const run = await runSeek([], { cwd: project.root, env: suite.env(project.home), input: 'read it\n/exit\n', timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResults(suite.server.requests.at(-1)!)[0]).toContain('Installing seek');
  });

  it('refuses loopback, private and metadata addresses unless a rule names the host, under --yolo and a bare WebFetch rule too', async () => {
    const before = web.hits.length;
    const project = setup({ permissions: { allow: ['WebFetch'] } });
    await callOnce('web_fetch', { url: `${web.base}/page.html` }, project, ['--yolo']);
    expect(lastResult()).toMatch(/127\.0\.0\.1 is a loopback address; web_fetch does not reach this machine.*WebFetch\(domain:127\.0\.0\.1\)/);
    // By name: localhost resolves to loopback, judged after DNS resolution.
    suite.server.reset();
    await callOnce('web_fetch', { url: `http://localhost:${web.port}/page.html` }, project, ['--yolo']);
    expect(lastResult()).toMatch(/localhost is at (127\.0\.0\.1|::1), a loopback address/);
    suite.server.reset();
    await callOnce('web_fetch', { url: 'http://10.1.2.3/' }, project, ['--yolo']);
    expect(lastResult()).toMatch(/10\.1\.2\.3 is a private address/);
    suite.server.reset();
    await callOnce('web_fetch', { url: 'http://169.254.169.254/latest/meta-data/' }, project, ['--yolo']);
    expect(lastResult()).toMatch(/169\.254\.169\.254 is a cloud metadata address/);
    expect(web.hits.length).toBe(before);
  });

  it('rules decide: a deny rule beats --yolo, headless without a rule is denied, plan mode fetches only what rules allow', async () => {
    const before = web.hits.length;
    const denied = setup({ permissions: { allow: [ALLOW_LOOPBACK], deny: ['WebFetch(domain:127.0.0.1)'] } });
    await callOnce('web_fetch', { url: `${web.base}/page.html` }, denied, ['--yolo']);
    expect(lastResult()).toMatch(/denied by a user rule: WebFetch\(domain:127\.0\.0\.1\)/);

    suite.server.reset();
    const none = setup({});
    await callOnce('web_fetch', { url: `${web.base}/page.html` }, none);
    expect(lastResult()).toMatch(/web_fetch is not allowed in this mode: re-run seek with --yolo/);

    suite.server.reset();
    await callOnce('web_fetch', { url: `${web.base}/page.html` }, none, ['--plan', '--yolo']);
    expect(lastResult()).toMatch(/not allowed in plan mode/);
    expect(web.hits.length).toBe(before);

    suite.server.reset();
    const planned = setup({ permissions: { allow: [ALLOW_LOOPBACK] } });
    await callOnce('web_fetch', { url: `${web.base}/page.html` }, planned, ['--plan']);
    expect(lastResult()).toContain('Installing seek');
  });
});

describe('web_search', () => {
  it('searches a SearXNG instance through its JSON API: title, URL and snippet', async () => {
    const project = setup({ webSearch: { provider: 'searxng', baseUrl: web.base }, permissions: { allow: ['WebSearch'] } });
    await callOnce('web_search', { query: 'seek agent' }, project);
    const result = lastResult();
    expect(result).toContain('Web search results for "seek agent" (searxng, 2)');
    expect(result).toContain('UNTRUSTED WEB CONTENT');
    expect(result).toContain('1. seek: a terminal coding agent\n   https://example.org/seek\n   seek is a terminal coding agent with subagents.');
    expect(result).toContain('2. seek docs\n   https://example.net/docs\n   Install & configure.');
    expect(hitsFor('/search?q=seek+agent&format=json')).toHaveLength(1);
  });

  it('searches through the Brave Search API with the key from the configured variable', async () => {
    const project = setup({ webSearch: { provider: 'brave', apiKeyEnv: 'MY_BRAVE_KEY', baseUrl: web.base }, permissions: { allow: ['WebSearch'] } });
    await callOnce('web_search', { query: 'seek agent', max_results: 3 }, project, [], { MY_BRAVE_KEY: BRAVE_KEY });
    expect(lastResult()).toContain('1. seek on GitHub\n   https://github.com/example/seek\n   The seek coding agent, in TypeScript.');
    const hit = web.hits.filter((h) => h.path.startsWith('/res/v1/web/search')).at(-1)!;
    expect(hit.path).toBe('/res/v1/web/search?q=seek+agent&count=3');
    expect(hit.headers['x-subscription-token']).toBe(BRAVE_KEY);

    suite.server.reset();
    await callOnce('web_search', { query: 'seek agent' }, project);
    expect(lastResult()).toMatch(/needs an API key in the environment variable MY_BRAVE_KEY/);
  });

  it('searches through Tavily and Exa, each with its own key header', async () => {
    const tavily = setup({ webSearch: { provider: 'tavily', baseUrl: web.base }, permissions: { allow: ['WebSearch'] } });
    await callOnce('web_search', { query: 'seek agent', max_results: 2 }, tavily, [], { TAVILY_API_KEY: TAVILY_KEY });
    expect(lastResult()).toContain('1. seek (Tavily)\n   https://example.com/tavily\n   A terminal coding agent.');
    expect(JSON.parse(posted.at(-1)!.body)).toEqual({ query: 'seek agent', max_results: 2 });

    suite.server.reset();
    const exa = setup({ webSearch: { provider: 'exa', baseUrl: web.base }, permissions: { allow: ['WebSearch'] } });
    await callOnce('web_search', { query: 'seek agent' }, exa, [], { EXA_API_KEY: EXA_KEY });
    expect(lastResult()).toContain('1. seek (Exa)\n   https://example.com/exa\n   seek is a terminal coding agent written in TypeScript');
    expect(JSON.parse(posted.at(-1)!.body)).toMatchObject({ query: 'seek agent', numResults: 8 });
  });

  it('says how to configure it when nothing is; WebSearch rules allow and deny it', async () => {
    const none = setup({ permissions: { allow: ['WebSearch'] } });
    await callOnce('web_search', { query: 'anything' }, none);
    expect(lastResult()).toMatch(/web search is not configured: add to .*config\.json "webSearch": \{"provider": "searxng"/);

    const searches = () => web.hits.filter((hit) => hit.path.startsWith('/search')).length;
    const before = searches();
    suite.server.reset();
    const unruled = setup({ webSearch: { provider: 'searxng', baseUrl: web.base } });
    await callOnce('web_search', { query: 'seek agent' }, unruled);
    expect(lastResult()).toMatch(/web_search is not allowed in this mode/);

    suite.server.reset();
    const denied = setup({ webSearch: { provider: 'searxng', baseUrl: web.base }, permissions: { deny: ['WebSearch'] } });
    await callOnce('web_search', { query: 'seek agent' }, denied, ['--yolo']);
    expect(lastResult()).toMatch(/denied by a user rule: WebSearch/);
    expect(searches()).toBe(before);
  });
});

describe('seek permissions check', () => {
  it('explains a fetch by its host and a search', async () => {
    const { root, home } = setup({ permissions: { allow: ['WebFetch(domain:*.example.com)'], deny: ['WebSearch'] } });
    const allowed = await runSeek(['permissions', 'check', 'WebFetch', 'https://docs.example.com/guide'], { cwd: root, env: suite.env(home) });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/decision: allow\nrule: WebFetch\(domain:\*\.example\.com\) from user/);
    const other = await runSeek(['permissions', 'check', 'WebFetch(https://example.net/)'], { cwd: root, env: suite.env(home) });
    expect(other.stdout).toMatch(/decision: deny/);
    expect(other.stdout).not.toMatch(/rule: WebFetch/);
    const searched = await runSeek(['permissions', 'check', 'WebSearch', 'cats'], { cwd: root, env: suite.env(home) });
    expect(searched.stdout).toMatch(/decision: deny\nrule: WebSearch from user/);
  });
});
