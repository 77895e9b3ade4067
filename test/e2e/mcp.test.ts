import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek, SEEK_BIN } from '../support/seek-process.js';

/** The real MCP reference server from npm (a pinned dev dependency), run over stdio. */
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function env(home: string, extra: Record<string, string> = {}) {
  return { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1', ...extra };
}

function everything(extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [EVERYTHING, 'stdio'], ...extra };
}

function writeMcp(file: string, servers: Record<string, unknown>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
}

/** Tool results the model received in request `n`, by call order. */
function results(n: number): string[] {
  return server.requests[n]!.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
}

function toolNames(n: number): string[] {
  return server.requests[n]!.body.tools.map((tool: { function: { name: string } }) => tool.function.name);
}

describe('MCP servers through the real seek', () => {
  it('loads a tool with tool_search and calls it through call_tool, or with mcp_call (server-everything over stdio)', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { everything: everything() });
    server.enqueue(
      { toolCalls: [{ name: 'tool_search', arguments: { query: 'echo' } }] },
      { toolCalls: [{ name: 'call_tool', arguments: { name: 'mcp__everything__echo', arguments: { message: 'hello from seek' } } }] },
      // mcp_call is no longer declared, but a call of it still runs (sessions and models that know it).
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__echo', arguments: { text: 'wrong name' } } }] },
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__get-env', arguments: {} } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'echo something', '--yolo'], { cwd: root, env: env(home, { SECRET_API_TOKEN: 'do-not-leak' }) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // MCP's tools are on demand like seek's own: the catalog names the servers.
    expect(toolNames(0)).toEqual(expect.arrayContaining(['tool_search', 'call_tool']));
    expect(toolNames(0)).not.toContain('mcp_search');
    expect(JSON.stringify(server.requests[0]!.body.tools)).toContain('MCP servers everything (search by words)');
    expect(results(1)[0]).toContain('mcp__everything__echo');
    expect(results(1)[0]).toContain('"message"'); // the schema came with the search
    expect(results(2)[1]).toBe('Echo: hello from seek');
    expect(results(3)[2]).toMatch(/^Invalid arguments for mcp__everything__echo: /);
    // The server gets a minimal environment: seek's keys never reach it.
    expect(results(4)[3]).not.toContain('do-not-leak');
    expect(results(4)[3]).not.toContain('test-key');
    // The tools list never changed within the run: every request extends the previous one.
    for (let n = 1; n < server.requests.length; n += 1) expect(server.requests[n]!.body.tools).toEqual(server.requests[0]!.body.tools);
    expect(server.violations).toEqual([]);
  });

  it('attaches the resources a prompt mentions as @server:uri, before the prompt, and leaves other @ words alone', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { everything: everything() });
    server.enqueue({ text: 'read it' });
    const prompt = 'summarise @everything:demo://resource/dynamic/text/7 and @README.md, not @nobody:x';
    const run = await runSeek(['-p', prompt], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const messages = server.requests[0]!.body.messages as Array<{ role: string; content: string }>;
    const resource = messages.find((m) => m.content.startsWith('<context source="mcp.resource everything:demo://resource/dynamic/text/7">'));
    expect(resource?.content).toContain('Resource 7: This is a plaintext resource');
    expect(messages.at(-1)!.content).toBe(prompt);
    expect(messages.filter((m) => m.content.includes('mcp.resource'))).toHaveLength(1);
  });

  it('attaches an image a tool returns where the provider takes images (Anthropic), and names it for the others', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { everything: everything() });
    const script = () =>
      server.enqueue({ toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__get-tiny-image', arguments: {} } }] }, { text: 'seen' });
    script();
    const anthropicEnv = { SEEK_HOME: home, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.anthropicBaseUrl, SEEK_RETRY_BASE_MS: '1' };
    const viaAnthropic = await runSeek(['-p', 'look', '--yolo', '--provider', 'anthropic'], { cwd: root, env: anthropicEnv });
    expect(viaAnthropic.code).toBe(0);
    const blocks = (server.requests[1]!.body.messages as Array<{ role: string; content: unknown }>).at(-1)!.content as Array<Record<string, unknown>>;
    const result = blocks.find((block) => block.type === 'tool_result') as { content: Array<Record<string, unknown>> };
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('[image: image/png') });
    expect(result.content.find((block) => block.type === 'image')).toMatchObject({ source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBOR/) } });
    expect(server.violations).toEqual([]);

    server.reset();
    script();
    const viaOpenAi = await runSeek(['-p', 'look', '--yolo'], { cwd: root, env: env(home) });
    expect(viaOpenAi.code).toBe(0);
    expect(results(1)[0]).toMatch(/\[image: image\/png, [\d.]+ (B|KiB) — attached\]/);
  });

  it('asks before a call like any action: denied headless, allowed by an mcp__server__tool rule', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { everything: everything() });
    const call = { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__get-sum', arguments: { a: 2, b: 3 } } }] };
    server.enqueue(call, { text: 'denied' });
    const denied = await runSeek(['-p', 'add'], { cwd: root, env: env(home) });
    expect(denied.code).toBe(0);
    expect(results(1)[0]).toMatch(/mcp__everything__get-sum.*--yolo/s);

    server.reset();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { allow: ['mcp__everything__get-sum'] } }));
    server.enqueue(call, { text: 'allowed' });
    const allowed = await runSeek(['-p', 'add'], { cwd: root, env: env(home) });
    expect(allowed.code).toBe(0);
    expect(results(1)[0]).toContain('5');
  });

  it('a call through call_tool goes by the MCP tool\'s own name: denied headless, allowed by its rule', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { everything: everything() });
    const call = { toolCalls: [{ name: 'call_tool', arguments: { name: 'mcp__everything__get-sum', arguments: { a: 2, b: 3 } } }] };
    server.enqueue(call, { text: 'denied' });
    const denied = await runSeek(['-p', 'add'], { cwd: root, env: env(home) });
    expect(denied.code).toBe(0);
    expect(results(1)[0]).toMatch(/mcp__everything__get-sum.*--yolo/s);

    server.reset();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { allow: ['mcp__everything__*'] } }));
    server.enqueue(call, { text: 'allowed' });
    const allowed = await runSeek(['-p', 'add', '--output-format', 'stream-json'], { cwd: root, env: env(home) });
    expect(allowed.code).toBe(0);
    expect(results(1)[0]).toContain('5');
    expect(allowed.stdout).toContain('"type":"tool_start","turn":1,"tool_call_id"');
    expect(allowed.stdout).toContain('"name":"mcp__everything__get-sum"');
    expect(allowed.stdout).not.toContain('"name":"call_tool"');
  });

  it('headless (-p) declares elicitation and declines a question, saying so (test/e2e/mcp-elicitation.test.ts has the details)', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { everything: everything() });
    server.enqueue(
      { toolCalls: [{ name: 'mcp_search', arguments: { query: 'elicitation' } }] },
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__trigger-elicitation-request', arguments: {} } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'ask me', '--yolo'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(results(1)[0]).toContain('mcp__everything__trigger-elicitation-request');
    expect(results(2)[1]).toContain('[seek declined a question from MCP server everything');
    expect(run.stderr).toContain('seek declined a question from MCP server everything');
  });

  it('gives a hung call an error result after the server\'s timeout_ms', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { everything: everything({ timeout_ms: 300 }) });
    server.enqueue(
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 30, steps: 1 } } }] },
      { text: 'gave up' },
    );
    const run = await runSeek(['-p', 'wait', '--yolo'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(results(1)[0]).toContain('did not answer within 300 ms');
  });

  it('keeps a long call that reports progress alive past timeout_ms (each notification restarts it)', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { everything: everything({ timeout_ms: 1500 }) });
    server.enqueue(
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 3, steps: 6 } } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'wait', '--yolo'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    // 3 s of work against a 1.5 s timeout: only the progress notifications kept it going.
    expect(results(1)[0]).toMatch(/Long running operation completed/i);
  });

  it("starts a project's server only once approved, and offers no MCP tools before", async () => {
    const { root, home } = makeProject();
    writeMcp(join(root, '.mcp.json'), { everything: everything() });
    server.enqueue({ text: 'no tools' });
    const before = await runSeek(['-p', 'hi'], { cwd: root, env: env(home) });
    expect(before.code).toBe(0);
    expect(before.stderr).toContain('MCP server everything');
    expect(before.stderr).toContain('seek mcp approve everything');
    expect(toolNames(0)).not.toContain('mcp_call');

    const approve = await runSeek(['mcp', 'approve', 'everything'], { cwd: root, env: env(home) });
    expect(approve.code).toBe(0);
    const list = await runSeek(['mcp', 'list'], { cwd: root, env: env(home) });
    expect(list.stdout).toContain('everything (project) ✓ connected');

    server.reset();
    server.enqueue({ toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__echo', arguments: { message: 'approved' } } }] }, { text: 'ok' });
    const after = await runSeek(['-p', 'hi', '--yolo'], { cwd: root, env: env(home) });
    expect(after.code).toBe(0);
    expect(results(1)[0]).toBe('Echo: approved');

    // A changed definition needs approval again.
    writeMcp(join(root, '.mcp.json'), { everything: everything({ env: { EXTRA: '1' } }) });
    const changed = await runSeek(['mcp', 'list'], { cwd: root, env: env(home) });
    expect(changed.stdout).toContain('changed since approved');
  });

  it("an approval covers the script a project server runs: changed, it is not started (headless or interactive) until approved again", async () => {
    const { root, home } = makeProject();
    const stdio = pathToFileURL(join(dirname(EVERYTHING), 'transports', 'stdio.js')).href;
    const script = (version: string) => {
      mkdirSync(join(root, 'tools'), { recursive: true });
      writeFileSync(join(root, 'tools', 'mcp-server.mjs'), `import { appendFileSync } from 'node:fs';\nappendFileSync('started.txt', '${version}\\n');\nawait import(${JSON.stringify(stdio)});\n`);
    };
    const started = () => (existsSync(join(root, 'started.txt')) ? readFileSync(join(root, 'started.txt'), 'utf8') : '');
    writeMcp(join(root, '.mcp.json'), { tools: { command: process.execPath, args: ['tools/mcp-server.mjs'] } });
    script('v1');
    const approve = await runSeek(['mcp', 'approve', 'tools'], { cwd: root, env: env(home) });
    expect(approve.code).toBe(0);
    expect(approve.stdout).toMatch(/ {4}tools\/mcp-server\.mjs \(sha256 [0-9a-f]{12}…\)/);

    server.enqueue({ toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__tools__echo', arguments: { message: 'approved' } } }] }, { text: 'ok' });
    const first = await runSeek(['-p', 'hi', '--yolo'], { cwd: root, env: env(home) });
    expect(first.code).toBe(0);
    expect(results(1)[0]).toBe('Echo: approved');
    expect(started()).toBe('v1\n');

    // The script changes, the definition does not: the server must not start, and say why and how.
    script('v2');
    server.reset();
    server.enqueue({ toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__tools__echo', arguments: { message: 'changed' } } }] }, { text: 'ok' });
    const headless = await runSeek(['-p', 'hi', '--yolo'], { cwd: root, env: env(home) });
    expect(headless.code).toBe(0);
    const notice = `MCP server tools (${join(root, '.mcp.json')}) changed since you approved it (file changed since approved: tools/mcp-server.mjs); it was not started. Review it, then run \`seek mcp approve tools\` to start it.`;
    expect(headless.stderr).toContain(notice);
    expect(JSON.stringify(server.requests[0]!.body.tools)).not.toContain('MCP servers tools');
    expect(results(1)[0]).toMatch(/^Unknown tool "mcp_call"/); // no MCP tools at all: no server runs
    expect(started()).toBe('v1\n');

    server.reset();
    server.enqueue({ text: 'hello' });
    const interactive = await runSeek([], { cwd: root, env: env(home), input: 'hi\n/exit\n' });
    expect(interactive.code).toBe(0);
    expect(`${interactive.stdout}${interactive.stderr}`).toContain(notice);
    const list = await runSeek(['mcp', 'list'], { cwd: root, env: env(home) });
    expect(list.stdout).toContain('tools (project) not started: changed since approved (file changed since approved: tools/mcp-server.mjs) (seek mcp approve tools)');
    expect(started()).toBe('v1\n');

    // Approved again, it starts as it is now.
    expect((await runSeek(['mcp', 'approve', 'tools'], { cwd: root, env: env(home) })).code).toBe(0);
    server.reset();
    server.enqueue({ toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__tools__echo', arguments: { message: 'again' } } }] }, { text: 'ok' });
    expect((await runSeek(['-p', 'hi', '--yolo'], { cwd: root, env: env(home) })).code).toBe(0);
    expect(results(1)[0]).toBe('Echo: again');
    expect(started()).toBe('v1\nv2\n');
  });

  it('adds and removes servers with seek mcp, keeping the rest of the file', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ note: 'kept', mcpServers: {} }));
    const add = await runSeek(['mcp', 'add', '--scope', 'user', 'everything', '--', process.execPath, EVERYTHING, 'stdio'], { cwd: root, env: env(home) });
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    const get = await runSeek(['mcp', 'get', 'everything', '--json'], { cwd: root, env: env(home) });
    expect(JSON.parse(get.stdout)).toMatchObject({ name: 'everything', state: 'ready', scope: 'user' });
    const remove = await runSeek(['mcp', 'remove', 'everything'], { cwd: root, env: env(home) });
    expect(remove.code).toBe(0);
    const list = await runSeek(['mcp', 'list', '--json'], { cwd: root, env: env(home) });
    expect(JSON.parse(list.stdout)).toEqual([]);
    expect(JSON.parse(readFileSync(join(home, 'mcp.json'), 'utf8'))).toEqual({ note: 'kept', mcpServers: {} });
    const missing = await runSeek(['mcp', 'get', 'everything'], { cwd: root, env: env(home) });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no MCP server named everything');
  });
});

/** A free loopback port (the server binds it right after; a clash only fails its start, visibly). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** server-everything over HTTP (`streamableHttp` or the older `sse`), once it says it listens. */
async function startRemoteEverything(transport: 'streamableHttp' | 'sse'): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, transport], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (/listening|running/i.test(seen)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything ${transport} exited (${code}): ${seen}`)));
  });
  return { base: `http://127.0.0.1:${port}`, child };
}

const FILESYSTEM = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

describe('MCP tools in subagents', () => {
  it('gives an explore child only read-only tools, and only those an allow rule names', async () => {
    const { root, home } = makeProject({ 'README.md': '# notes for the child\n' });
    writeMcp(join(home, 'mcp.json'), { fs: { command: process.execPath, args: [FILESYSTEM, root] } });
    const script = () =>
      server.enqueue(
        { toolCalls: [{ name: 'agent', arguments: { description: 'read notes', prompt: 'read README.md', subagent_type: 'explore' } }] },
        { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__fs__read_text_file', arguments: { path: join(root, 'README.md') } } }] },
        { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__fs__write_file', arguments: { path: join(root, 'x.txt'), content: 'no' } } }] },
        { text: 'child done' },
        { text: 'parent done' },
      );
    const childResults = (): string[] => server.requests[3]!.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);

    script();
    const withoutRule = await runSeek(['-p', 'delegate', '--yolo'], { cwd: root, env: env(home) });
    expect(withoutRule.code).toBe(0);
    const [readDenied, writeDenied] = childResults();
    expect(readDenied).toMatch(/not allowed in plan mode/);
    expect(writeDenied).toMatch(/not allowed in plan mode/);

    server.reset();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { allow: ['mcp__fs'] } }));
    script();
    const withRule = await runSeek(['-p', 'delegate', '--yolo'], { cwd: root, env: env(home) });
    expect(withRule.code).toBe(0);
    const [read, write] = childResults();
    expect(read).toContain('# notes for the child');
    expect(write).toMatch(/not allowed in plan mode|may call only read-only MCP tools/);
    expect(existsSync(join(root, 'x.txt'))).toBe(false);
  });
});

const CRASHY = new URL('../fixtures/mcp/crashy-server.mjs', import.meta.url).pathname;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('MCP server faults', () => {
  it('gives a call on a server that dies mid-call an error, restarts the server, and serves the next call', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { crashy: { command: process.execPath, args: [CRASHY] } });
    server.enqueue(
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__crashy__pid', arguments: {} } }] },
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__crashy__crash', arguments: {} } }] },
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__crashy__pid', arguments: {} } }] },
      { text: 'ok' },
    );
    const run = await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const [first, crashed, second] = results(3);
    expect(first).toMatch(/^\d+$/);
    expect(crashed).toMatch(/^mcp__crashy__crash failed: .*closed/i);
    expect(second).toMatch(/^\d+$/);
    expect(second).not.toBe(first); // a new process
  });

  it('ends what a server started when seek exits', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { crashy: { command: process.execPath, args: [CRASHY] } });
    server.enqueue(
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__crashy__pid', arguments: {} } }, { name: 'mcp_call', arguments: { tool: 'mcp__crashy__spawn-sleeper', arguments: {} } }] },
      { text: 'ok' },
    );
    const run = await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const [serverPid, sleeperPid] = results(1).map(Number);
    expect(serverPid).toBeGreaterThan(0);
    expect(sleeperPid).toBeGreaterThan(0);
    // seek has exited: its server and the server's child must be gone (waited for, not assumed).
    await expect.poll(() => alive(serverPid!) || alive(sleeperPid!), { timeout: 10_000, interval: 50 }).toBe(false);
  });
});

describe('remote MCP servers', () => {
  const started: ChildProcess[] = [];
  afterAll(() => {
    for (const child of started) child.kill();
  });

  it.each([
    ['Streamable HTTP', 'streamableHttp', 'http', '/mcp'],
    ['the older HTTP+SSE transport, declared', 'sse', 'sse', '/sse'],
    ['the older HTTP+SSE transport, reached by falling back from Streamable HTTP', 'sse', 'http', '/sse'],
  ] as const)('calls a tool over %s', async (_label, transport, type, path) => {
    const remote = await startRemoteEverything(transport);
    started.push(remote.child);
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { remote: { type, url: `${remote.base}${path}`, headers: { 'X-Seek-Test': '${SEEK_TEST_HEADER}' } } });
    server.enqueue({ toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__remote__get-sum', arguments: { a: 40, b: 2 } } }] }, { text: 'ok' });
    const run = await runSeek(['-p', 'add', '--yolo'], { cwd: root, env: env(home, { SEEK_TEST_HEADER: 'set' }) });
    expect(run.stderr).toBe('');
    expect(results(1)[0]).toContain('42');
  });

  it('reports a server that wants authorization (401 on the first POST) as needing login, without falling back to HTTP+SSE', async () => {
    // What the conformance suite's auth scenarios start with (docs/mcp-conformance.md).
    const seen: string[] = [];
    const protectedServer = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      if (req.method !== 'POST') return void res.writeHead(404).end();
      res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"' });
      res.end(JSON.stringify({ error: 'invalid_token', error_description: 'Missing Authorization header' }));
    });
    await new Promise<void>((resolve) => protectedServer.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = protectedServer.address() as { port: number };
      const { root, home } = makeProject();
      // Without a token of its own in the config: OAuth, and no login yet.
      writeMcp(join(home, 'mcp.json'), { remote: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } });
      const list = await runSeek(['mcp', 'list'], { cwd: root, env: env(home) });
      expect(list.code).toBe(1);
      // With OAuth in seek, a 401 means: log in (a session never opens a browser by itself).
      expect(list.stdout).toContain('remote (user) ✗ failed: needs login: run `seek mcp login remote`');
      expect(seen).not.toContain('GET /mcp'); // no GET: the fallback would have hidden the 401 behind a 404
      // With a token in the config that the server refuses: said so, and still no fallback.
      seen.length = 0;
      writeMcp(join(home, 'mcp.json'), { remote: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer stale' } } });
      const withToken = await runSeek(['mcp', 'list'], { cwd: root, env: env(home) });
      expect(withToken.code).toBe(1);
      expect(withToken.stdout).toContain('remote (user) ✗ failed: the server requires authorization (HTTP 401); it refused the "Authorization" header');
      expect(seen).toEqual(['POST /mcp']);
    } finally {
      await new Promise((resolve) => protectedServer.close(resolve));
    }
  });

  it('reports a header variable that is not set instead of sending an empty one', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { remote: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${NO_SUCH_TOKEN}' } } });
    const list = await runSeek(['mcp', 'list'], { cwd: root, env: env(home) });
    expect(list.code).toBe(1);
    expect(list.stdout).toContain('remote (user) ✗ failed: environment variable NO_SUCH_TOKEN is not set');
  });
});

describe('seek mcp serve', () => {
  it('runs a prompt through the seek tool for another MCP client and returns the answer with its cost', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const { root, home } = makeProject();
    server.enqueue({ text: 'hello from the served seek' });
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SEEK_BIN, 'mcp', 'serve'],
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: home, ...env(home) },
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['seek']);
      const result = await client.callTool({ name: 'seek', arguments: { prompt: 'say hello' } });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: 'hello from the served seek' }]);
      expect(result.structuredContent).toMatchObject({ session_id: expect.any(String), num_turns: 1, total_cost_usd: expect.any(Number), subtype: 'success' });
      expect(server.requests[0]!.body.messages.at(-1).content).toBe('say hello');
    } finally {
      await client.close();
    }
  });
});
