import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { OAUTH_OPENER, startOAuthFixture } from '../support/oauth-fixture.js';
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
    await t.waitFor(/everything \(user\) connected · 16 tool\(s\)\n\s+echo, /); // waits for the server to finish starting (16: with trigger-elicitation-request, get-roots-list and trigger-sampling-request, offered to a client that declares elicitation, roots and sampling)
    await t.waitFor('repo (project) not started: not approved — seek mcp approve repo');
    t.type('/mcp reconnect everything');
    t.keys('Enter');
    await t.waitFor('reconnecting MCP server everything');
    t.type('/mcp');
    t.keys('Enter');
    await t.waitFor(/reconnecting MCP server everything[\s\S]*everything \(user\) connected · 16 tool\(s\)/);
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

  it("fills a server's form (elicitation) mid-call: defaults in place, typed values, the answers reach the model", async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    h.server.enqueue({ toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__trigger-elicitation-request', arguments: {} } }] }, { text: 'Thanks, Ann.' });
    const t = h.start(root, home, { width: 120, height: 40 });
    await t.waitFor('ask seek');
    t.type('ask me for my details');
    t.keys('Enter');
    await t.waitFor('y) Yes');
    await t.answer('y', 'MCP server everything asks:');
    await t.waitFor('Please provide inputs for the following fields:');
    await t.waitFor('❯ String*: ▏');
    t.type('Ann Lee');
    t.keys('Enter');
    await t.waitFor('❯ Boolean: — (y/n)');
    t.type('y');
    await t.waitFor('❯ Boolean: yes (y/n)');
    t.keys('Enter'); // to "String with default", kept as it is
    await t.waitFor('❯ String with default: It was a dark and stormy night.▏');
    t.keys('Enter');
    // Each field is waited for here; test/e2e/tui-line-input.test.ts sends them without waiting.
    await t.waitFor('❯ String with email format: ▏');
    t.type('ann@example.com');
    t.keys('Enter');
    await t.waitFor('❯ String with uri format: ▏');
    t.keys('Enter', 'Enter'); // homepage and birthdate stay empty
    await t.waitFor('❯ Integer: 42▏');
    t.keys('BSpace', 'BSpace');
    t.type('7');
    t.keys('Enter');
    await t.waitFor('❯ Number in range 1-1000: 3.14▏');
    t.keys('Enter', 'Enter', 'Enter', 'Enter', 'Enter'); // number, both enums and both multi-selects keep their defaults
    await t.waitFor('❯ Legacy Titled Single Select Enum: ‹ Cats ›');
    t.keys('Right');
    await t.waitFor('‹ Dogs ›');
    t.keys('Enter');
    await t.waitFor('Thanks, Ann.', 20_000);
    const result = h.server.requests[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content).join('\n');
    expect(result).toContain('User provided the requested information!');
    expect(result).toContain('- Name: Ann Lee');
    expect(result).toContain('- Agreed to terms: true');
    expect(result).toContain('- Email: ann@example.com');
    expect(result).toContain('- Favorite Integer: 7');
    expect(result).toContain('- Favorite Number: 3.14');
    expect(result).toMatch(/firstLine\\?": \\?"It was a dark and stormy night\./);
    expect(result).toMatch(/legacyTitledEnum\\?": \\?"pet-2/);
    expect(result).toMatch(/untitledMultipleSelectEnum\\?": \[\s*\\?"Guitar/);
  });

  it('Esc declines a server\'s form, and the model hears it', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    h.server.enqueue({ toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__trigger-elicitation-request', arguments: {} } }] }, { text: 'Understood.' });
    const t = h.start(root, home, { width: 120, height: 40 });
    await t.waitFor('ask seek');
    t.type('ask me');
    t.keys('Enter');
    await t.waitFor('y) Yes');
    await t.answer('y', 'MCP server everything asks:');
    t.keys('Escape');
    await t.waitFor('Understood.', 20_000);
    const result = h.server.requests[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content).join('\n');
    expect(result).toContain('User declined to provide the requested information.');
  });

  it('/mcp login NAME logs in to a remote server that needs it, then connects', async () => {
    const { base, child: oauth } = await startOAuthFixture();
    try {
      const { root, home } = makeProject();
      writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { secure: { type: 'http', url: new URL('mcp', base).href } } }));
      const t = h.start(root, home, { width: 120, height: 40, env: { SEEK_MCP_AUTH_OPENER: OAUTH_OPENER } });
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
