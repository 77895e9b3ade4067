/**
 * MCP servers the editor passes to `seek acp` in session/new run for that session, without an
 * approval (the user configured them in the editor), and the model reaches their tools like any
 * configured server's; a configured server of the same name wins and the clash is reported.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpHarness } from '../support/acp-client.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject } from '../support/seek-process.js';

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

const suite = useScriptedServer();
const running: AcpHarness[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((harness) => harness.close()));
});

const env = (home: string) => suite.env(home);
/** The text of every tool result the model was sent in request `n`. */
const results = (n: number): string[] =>
  (suite.server.requests[n]!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool').map((m) => String(m.content));

describe('seek acp with the editor MCP servers', () => {
  it("runs a stdio server from session/new for the session and calls its tools", async () => {
    const { root, home } = makeProject();
    const harness = AcpHarness.start({ cwd: root, env: env(home), args: ['--yolo'] });
    running.push(harness);
    const init = await harness.initialize({ fs: false, notices: false });
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
    const session = await harness.agent.request('session/new', {
      cwd: root,
      mcpServers: [{ name: 'zed everything', command: process.execPath, args: [EVERYTHING], env: [{ name: 'EDITOR_SET', value: 'yes' }] }],
    });
    suite.server.enqueue(
      { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__zed_everything__echo', arguments: { message: 'from the editor server' } } }] },
      { text: 'done' },
    );
    const answer = await harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'echo it' }] });
    expect(answer.stopReason).toBe('end_turn');
    expect(results(1)).toEqual(['Echo: from the editor server']);
  });

  it('keeps a configured server of the same name, and says so', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }));
    const harness = AcpHarness.start({ cwd: root, env: env(home), args: ['--yolo'] });
    running.push(harness);
    await harness.initialize({ fs: false, notices: true });
    const session = await harness.agent.request('session/new', { cwd: root, mcpServers: [{ name: 'everything', command: 'no-such-command', args: [], env: [] }] });
    suite.server.enqueue({ toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything__echo', arguments: { message: 'configured one' } } }] }, { text: 'done' });
    await harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'echo' }] });
    expect(results(1)).toEqual(['Echo: configured one']);
    const notices = harness.updatesOf(session.sessionId).filter((update) => JSON.stringify(update).includes('from the editor was not started'));
    expect(notices.length).toBeGreaterThan(0);
  });
});
