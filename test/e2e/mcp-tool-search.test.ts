/**
 * tool_search over MCP servers through the real seek: it answers without waiting on a server hung
 * at start (named as not ready), returns only what matches (not seek's own unrelated tools), and
 * says how many more matches there are and how to load them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const MANY = new URL('../fixtures/mcp/many-tools-server.mjs', import.meta.url).pathname;
const HANG = new URL('../fixtures/mcp/hang-server.mjs', import.meta.url).pathname;
const suite = useScriptedServer();

function writeMcp(file: string, servers: Record<string, unknown>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
}

function results(n: number): string[] {
  return suite.server.requests[n]!.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
}

describe('tool_search over MCP servers', () => {
  it('answers with the ready servers while one hangs at start, naming it as not ready', async () => {
    const { root, home } = makeProject();
    // The hung server fails only after 12 s: a search that waited for it would report it failed.
    writeMcp(join(home, 'mcp.json'), { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] }, hang: { command: process.execPath, args: [HANG], startup_timeout_ms: 12_000 } });
    suite.server.enqueue({ toolCalls: [{ name: 'tool_search', arguments: { query: 'echo sum' } }] }, { text: 'done' });
    const run = await runSeek(['-p', 'find tools'], { cwd: root, env: suite.env(home) });
    expect(run.code).toBe(0);
    const found = results(1)[0]!;
    expect(found).toContain('mcp__everything__echo');
    expect(found).toContain('mcp__everything__get-sum');
    expect(found).toContain('Not ready yet: hang (still starting');
    expect(found).not.toContain('Not available: hang');
    // Only what matches: none of seek's own tools ride along.
    expect(found).not.toContain('"name":"agent"');
    expect(found).not.toContain('"name":"delegate_tasks"');
    expect(found.length).toBeLessThan(2500);
  });

  it('says how many more tools match and loads them by name', async () => {
    const { root, home } = makeProject();
    writeMcp(join(home, 'mcp.json'), { many: { command: process.execPath, args: [MANY] } });
    suite.server.enqueue(
      { toolCalls: [{ name: 'tool_search', arguments: { query: 'invoice' } }] },
      { toolCalls: [{ name: 'tool_search', arguments: { query: 'mcp__many__invoice_12 mcp__many__invoice_13 mcp__many__invoice_14' } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'find invoices'], { cwd: root, env: suite.env(home) });
    expect(run.code).toBe(0);
    const first = results(1)[0]!;
    expect(first.match(/^mcp__many__invoice_\d+$/gm)).toHaveLength(5);
    expect(first).not.toContain('widget');
    expect(first).toMatch(/10 more matches: (mcp__many__invoice_\d+, ){9}mcp__many__invoice_\d+\. Load any of them by name: tool_search/);
    const second = results(2)[1]!;
    expect(second.match(/^mcp__many__invoice_1[234]$/gm)).toHaveLength(3);
  });
});
