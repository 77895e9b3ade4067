import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();
const OAUTH_SERVER = new URL('../fixtures/mcp/oauth-server.mjs', import.meta.url).pathname;
const OPENER = new URL('../fixtures/mcp/oauth-opener.mjs', import.meta.url).pathname;
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

  it('/mcp login NAME logs in to a remote server that needs it, then connects', async () => {
    const oauth = spawn(process.execPath, [OAUTH_SERVER], { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let seen = '';
        const onData = (chunk: Buffer): void => {
          seen += chunk.toString();
          const match = /listening on (\S+)/.exec(seen);
          if (match) resolve(match[1]!);
        };
        oauth.stdout!.on('data', onData);
        oauth.stderr!.on('data', onData);
        oauth.once('exit', (code) => reject(new Error(`the OAuth fixture exited (${code}): ${seen}`)));
      });
      const { root, home } = makeProject();
      writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { secure: { type: 'http', url: new URL('mcp', base).href } } }));
      const t = h.start(root, home, { width: 120, height: 40, env: { SEEK_MCP_AUTH_OPENER: OPENER } });
      await t.waitFor('ask seek');
      t.type('/mcp');
      t.keys('Enter');
      await t.waitFor('secure (user) failed: needs login: run `seek mcp login secure` — /mcp login secure');
      t.type('/mcp login secure');
      t.keys('Enter');
      await t.waitFor('logged in to secure; reconnecting', 30_000);
      t.type('/mcp');
      t.keys('Enter');
      await t.waitFor(/secure \(user\) connected · \d+ tool\(s\)/);
    } finally {
      oauth.kill();
    }
  });
});
