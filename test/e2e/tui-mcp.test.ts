import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

describe.skipIf(!hasTmux)('/mcp in the terminal UI (tmux)', () => {
  it('lists each server with its state and tools, says how to start an unapproved one, and reconnects', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    mkdirSync(join(root, '.seek'), { recursive: true });
    writeFileSync(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { repo: { command: 'false' } } }));
    const t = h.start(root, home, { width: 120, height: 40 });
    await t.waitFor('ask seek');
    t.type('/mcp');
    t.keys('Enter');
    await t.waitFor(/everything \(user\) connected · 13 tool\(s\)\n\s+echo, /); // waits for the server to finish starting
    await t.waitFor('repo (project) not started: not approved — seek mcp approve repo');
    t.type('/mcp reconnect everything');
    t.keys('Enter');
    await t.waitFor('reconnecting MCP server everything');
    t.type('/mcp');
    t.keys('Enter');
    await t.waitFor(/reconnecting MCP server everything[\s\S]*everything \(user\) connected · 13 tool\(s\)/);
  });

  it("runs a server's prompt as /mcp__server__prompt ARGS: its text goes to the model as the prompt", async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    h.server.enqueue({ text: 'Sunny in Lisbon.' });
    const t = h.start(root, home, { width: 120, height: 40 });
    await t.waitFor('ask seek');
    t.type('/mcp');
    t.keys('Enter');
    await t.waitFor('prompts: ');
    await t.waitFor('/mcp__everything__args-prompt city state');
    t.type('/mcp__everything__args-prompt city=Lisbon');
    t.keys('Enter');
    await t.waitFor('Sunny in Lisbon.');
    expect(h.server.requests[0]!.body.messages.at(-1).content).toBe("What's weather in Lisbon?");
    t.type('/mcp__everything__args-prompt');
    t.keys('Enter');
    await t.waitFor('/mcp__everything__args-prompt needs city');
  });
});
