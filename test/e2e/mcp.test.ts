import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

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
  it('loads a tool with mcp_search and calls it with mcp_call (server-everything over stdio)', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { everything: everything() });
    server.enqueue(
      { toolCalls: [{ name: 'mcp_search', arguments: { query: 'echo' } }] },
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__echo', arguments: { message: 'hello from seek' } } }] },
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__echo', arguments: { text: 'wrong name' } } }] },
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__get-env', arguments: {} } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'echo something', '--yolo'], { cwd: root, env: env(home, { SECRET_API_TOKEN: 'do-not-leak' }) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(toolNames(0)).toEqual(expect.arrayContaining(['mcp_search', 'mcp_call']));
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
