/**
 * Small MCP client faults, through the real seek and server-everything: a websocket server is
 * listed as not supported (not silently missing), `.seek/mcp.json` written by `seek mcp add` is
 * excluded from git, an MCP error says its prefix once, and mcp_call takes `name` (with `tool`
 * kept as an alias).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const suite = useScriptedServer();

function writeMcp(file: string, servers: Record<string, unknown>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
}

/** Tool results the model received in request `n`, by call order. */
function results(n: number): string[] {
  return suite.server.requests[n]!.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
}

describe('MCP client: small faults', () => {
  it('lists a websocket server as not supported, beside the servers that run', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] }, sock: { type: 'websocket', url: 'ws://127.0.0.1:9/mcp' } });
    const list = await runSeek(['mcp', 'list'], { cwd: root, env: suite.env(home) });
    expect(list.stdout).toContain('everything (user) ✓ connected');
    expect(list.stdout).toContain('sock (user) ✗ not supported: "type": "websocket" is not supported (seek connects over stdio, http and sse)');
    const json = await runSeek(['mcp', 'list', '--json'], { cwd: root, env: suite.env(home) });
    expect(JSON.parse(json.stdout)).toContainEqual(expect.objectContaining({ name: 'sock', state: 'unsupported' }));
  });

  it('excludes .seek/mcp.json from git when seek mcp add writes it (local scope)', async () => {
    const { root, home } = makeProject();
    execFileSync('git', ['init', '-q'], { cwd: root });
    const add = await runSeek(['mcp', 'add', 'everything', '--', process.execPath, EVERYTHING, 'stdio'], { cwd: root, env: suite.env(home) });
    expect(add.code).toBe(0);
    expect(readFileSync(join(root, '.git', 'info', 'exclude'), 'utf8').split('\n')).toContain('/.seek/mcp.json');
    expect(execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' })).not.toContain('.seek/mcp.json');
  });

  it('says an MCP error prefix once, and mcp_call takes name (tool still works)', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    suite.server.enqueue(
      { toolCalls: [{ name: 'mcp_call', arguments: { name: 'mcp__everything__echo', arguments: { message: 'by name' } } }] },
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__echo', arguments: { message: 'by tool' } } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'read @everything:demo://nope', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(run.code).toBe(0);
    const sent = JSON.stringify(suite.server.requests[0]!.body.messages);
    expect(sent).toContain('MCP error -32602: Resource demo://nope not found');
    expect(sent).not.toContain('MCP error -32602: MCP error');
    expect(results(2)).toEqual(['Echo: by name', 'Echo: by tool']);
  });
});
