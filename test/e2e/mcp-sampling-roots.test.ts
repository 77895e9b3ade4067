/**
 * MCP sampling and roots with server-everything (which offers get-roots-list and
 * trigger-sampling-request only to a client that declares them): roots are the project; a
 * server's model call goes through the session's provider, refused headless unless config's
 * "mcp_sampling" allows it, and asked of the editor over ACP like any action.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpHarness } from '../support/acp-client.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const suite = useScriptedServer();
const running: AcpHarness[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((harness) => harness.close()));
});

function withEverything(home: string, config?: unknown): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
  if (config !== undefined) writeFileSync(join(home, 'config.json'), JSON.stringify(config));
}

function toolResults(n: number): string[] {
  return suite.server.requests[n]!.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => String(m.content));
}

const sample = { toolCalls: [{ name: 'call_tool', arguments: { name: 'mcp__everything__trigger-sampling-request', arguments: { prompt: 'name a fruit', maxTokens: 50 } } }] };

describe('MCP roots and sampling', () => {
  it('gives servers the project as their root', async () => {
    const { root, home } = makeProject();
    withEverything(home);
    suite.server.enqueue({ toolCalls: [{ name: 'call_tool', arguments: { name: 'mcp__everything__get-roots-list', arguments: {} } }] }, { text: 'done' });
    const run = await runSeek(['-p', 'roots', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(run.code).toBe(0);
    expect(toolResults(1)[0]).toContain(pathToFileURL(root).href);
  });

  it('runs a sampling request through the session model when config allows it', async () => {
    const { root, home } = makeProject();
    withEverything(home, { mcp_sampling: { everything: 'allow' } });
    suite.server.enqueue(sample, { text: 'A kiwi.' }, { text: 'done' });
    const run = await runSeek(['-p', 'sample', '--yolo', '--output-format', 'json'], { cwd: root, env: suite.env(home) });
    expect(run.code).toBe(0);
    const sampling = suite.server.requests[1]!.body;
    expect(sampling.messages.at(-1).content).toBe('Resource trigger-sampling-request context: name a fruit');
    expect(sampling.tools ?? []).toEqual([]);
    expect(toolResults(2)[0]).toContain('A kiwi.');
    // Billed to the run: three model calls' tokens.
    const result = JSON.parse(run.stdout) as { usage: { output_tokens: number } };
    expect(result.usage.output_tokens).toBeGreaterThan(0);
  });

  it('refuses a sampling request headless by default, and says so', async () => {
    const { root, home } = makeProject();
    withEverything(home);
    suite.server.enqueue(sample, { text: 'done' });
    const run = await runSeek(['-p', 'sample', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(run.code).toBe(0);
    expect(suite.server.requests).toHaveLength(2); // no model call for the server
    expect(toolResults(1)[0]).toContain('seek refused the sampling request: nobody can approve it here (headless)');
    expect(run.stderr).toContain('MCP server everything asked the model ("Resource trigger-sampling-request context: name a fruit"); refused');
  });

  it('asks the editor before a sampling request over ACP', async () => {
    const { root, home } = makeProject();
    withEverything(home);
    const harness = AcpHarness.start({ cwd: root, env: suite.env(home), args: ['--yolo'] });
    running.push(harness);
    await harness.initialize();
    const { sessionId } = await harness.agent.request('session/new', { cwd: root, mcpServers: [] });
    harness.answers.push('allow');
    suite.server.enqueue(sample, { text: 'A fig.' }, { text: 'done' });
    await harness.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'sample' }] });
    expect(harness.permissionRequests.map((request) => request.toolCall.title)).toEqual([expect.stringContaining('MCP server everything asks the model')]);
    expect(toolResults(2)[0]).toContain('A fig.');
  });
});
