/**
 * MCP elicitation outside the terminal UI, with a server on the MCP SDK that asks mid-call
 * (test/fixtures/mcp/elicit-server.mjs): headless and the plain line mode decline and say so (on
 * stderr or the screen, and in the result the model sees); `seek acp` forwards the question to an
 * editor that offers `elicitation.form` (the ACP SDK client) and returns its answer to the server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpHarness } from '../support/acp-client.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const ELICIT = new URL('../fixtures/mcp/elicit-server.mjs', import.meta.url).pathname;
const suite = useScriptedServer();
const running: AcpHarness[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((harness) => harness.close()));
});

function withServer(home: string): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { elicit: { command: process.execPath, args: [ELICIT] } } }));
}

function results(n: number): string[] {
  return suite.server.requests[n]!.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => String(m.content));
}

const ask = { toolCalls: [{ name: 'call_tool', arguments: { name: 'mcp__elicit__ask', arguments: {} } }] };
const DECLINED = '[seek declined a question from MCP server elicit ("Who are you?"): nobody can answer it in this mode';

describe('MCP elicitation without the terminal UI', () => {
  it('headless: the question is declined, and said on stderr and in the result', async () => {
    const { root, home } = makeProject();
    withServer(home);
    suite.server.enqueue(ask, { text: 'done' });
    const run = await runSeek(['-p', 'ask me', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(run.code).toBe(0);
    const result = results(1)[0]!;
    expect(result).toContain('{"action":"decline"}');
    expect(result).toContain(DECLINED);
    expect(run.stderr).toContain('seek declined a question from MCP server elicit ("Who are you?")');
  });

  it('the plain line mode: declined and said the same way', async () => {
    const { root, home } = makeProject();
    withServer(home);
    suite.server.enqueue(ask, { text: 'done' });
    const run = await runSeek(['--yolo'], { cwd: root, env: suite.env(home), input: 'ask me\n/exit\n' });
    expect(run.code).toBe(0);
    expect(results(1)[0]).toContain(DECLINED);
    expect(`${run.stdout}${run.stderr}`).toContain('seek declined a question from MCP server elicit');
  });

  it('seek acp forwards the question to an editor that offers elicitation, and its answer to the server', async () => {
    const { root, home } = makeProject();
    withServer(home);
    const harness = AcpHarness.start({ cwd: root, env: suite.env(home), args: ['--yolo'], elicit: () => ({ action: 'accept', content: { name: 'Zed user' } }) });
    running.push(harness);
    await harness.initialize({ elicitation: true });
    const { sessionId } = await harness.agent.request('session/new', { cwd: root, mcpServers: [] });
    suite.server.enqueue(ask, { text: 'done' });
    await harness.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'ask me' }] });
    expect(harness.elicitations).toMatchObject([{ sessionId, mode: 'form', message: 'elicit: Who are you?', requestedSchema: { properties: { name: { type: 'string' } } } }]);
    expect(results(1)[0]).toBe('{"action":"accept","content":{"name":"Zed user"}}');
  });
});
