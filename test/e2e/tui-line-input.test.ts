import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import type { TmuxSeek } from '../support/tmux.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

/** `/model` and Enter, past the completion menu (Esc closes it): the picker is open. */
async function openModelPicker(t: TmuxSeek): Promise<void> {
  t.type('/model');
  await t.waitFor(/› \/model\n\s+\/model\s+show or switch/);
  t.keys('Escape');
  await t.waitFor(/› \/model\s*\n\S/);
  t.keys('Enter');
  await t.waitFor('Model (now');
}
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';

/**
 * Keys sent without waiting between them (tmux writes each send-keys at once, so several may share
 * one read, or not: either way the fields must read them as the keys they are).
 */
describe.skipIf(!hasTmux)('one-line fields under keys sent at once (tmux)', () => {
  it("a server's form filled without waiting for any field: Enter and an address in one go, Backspaces and a digit, a paste", async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    h.server.enqueue({ toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__trigger-elicitation-request', arguments: {} } }] }, { text: 'Thanks, Ann.' });
    const t = h.start(root, home, { width: 120, height: 40 });
    await t.waitFor('ask seek', 30_000);
    t.type('ask me for my details');
    t.keys('Enter');
    // The MCP server starts before the call is asked about: generous waits on a loaded machine.
    await t.waitFor('y) Yes', 30_000);
    t.type('y');
    await t.waitFor('MCP server everything asks:', 30_000);
    await t.waitFor('❯ String*: ▏', 30_000);
    // The name pasted as the terminal sends a bracketed paste: its line break becomes a space.
    t.type(`${PASTE_START}Ann\r\nLee${PASTE_END}`);
    t.keys('Enter', 'y', 'Enter'); // Boolean yes
    // One write, so most likely one read: "\rann@example.com\r" ("String with default" kept).
    t.keys('Enter', 'ann@example.com', 'Enter');
    t.keys('Enter', 'Enter'); // homepage and birthdate stay empty
    t.keys('BSpace', 'BSpace', '7', 'Enter'); // Integer 42 becomes 7
    t.keys('Enter', 'Enter', 'Enter', 'Enter', 'Enter'); // number, both enums and both multi-selects keep their defaults
    t.keys('Right', 'Enter'); // the last field: Dogs, and the form is sent
    await t.waitFor('Thanks, Ann.', 30_000);
    const result = h.server.requests[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content).join('\n');
    expect(result).toContain('User provided the requested information!');
    expect(result).toContain('- Name: Ann Lee');
    expect(result).toContain('- Agreed to terms: true');
    expect(result).toContain('- Email: ann@example.com');
    expect(result).toContain('- Favorite Integer: 7');
    expect(result).toMatch(/legacyTitledEnum\\?": \\?"pet-2/);
  }, 120_000);

  it('a picker filter typed with a typo, its Backspace and Enter all at once picks the match', async () => {
    const { root, home } = makeProject();
    const t = h.start(root, home, { width: 100, height: 30 });
    await t.waitFor('ask seek', 30_000);
    await openModelPicker(t);
    t.keys('v', '4', '-', 'p', 'x', 'BSpace', 'r', 'o', 'Enter');
    await t.waitFor('model: deepseek-v4-pro');
    await openModelPicker(t);
    await t.waitFor('Model (now deepseek-v4-pro)');
    t.type('flas');
    t.keys('BSpace');
    t.type('sh');
    t.keys('Enter');
    await t.waitFor('model: deepseek-v4-flash');
  }, 60_000);
});
