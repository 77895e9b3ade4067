/**
 * `seek mcp serve` against the MCP SDK's own client, as another agent or the Inspector uses it:
 * the lists every client asks for answer (empty) instead of -32601, the `seek` tool declares the
 * output schema of the structured content it returns, and a run in which the policy refused an
 * action is an error result.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, SEEK_BIN } from '../support/seek-process.js';

const suite = useScriptedServer();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function serve(root: string, home: string, flags: string[] = []): Promise<Client> {
  const client = new Client({ name: 'serve-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SEEK_BIN, 'mcp', 'serve', ...flags],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: home, ...suite.env(home) },
    stderr: 'pipe',
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

describe('seek mcp serve (the SDK client)', () => {
  it('answers resources/list, resources/templates/list and prompts/list with empty lists', async () => {
    const { root, home } = makeProject();
    const client = await serve(root, home);
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);
  });

  it('declares the output schema of its structured content, which the client validates', async () => {
    const { root, home } = makeProject();
    const client = await serve(root, home);
    const { tools } = await client.listTools();
    const schema = tools[0]!.outputSchema as { type: string; properties: Record<string, unknown> };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['session_id', 'num_turns', 'total_cost_usd', 'usage', 'subtype', 'permission_denials']));
    suite.server.enqueue({ text: 'hello' });
    // The SDK client checks structuredContent against the declared schema (it throws otherwise).
    const result = await client.callTool({ name: 'seek', arguments: { prompt: 'say hello' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ session_id: expect.any(String), num_turns: 1, subtype: 'success', permission_denials: [] });
  });

  it('a run whose write the policy refused is an error result naming the refusal', async () => {
    const { root, home } = makeProject();
    const client = await serve(root, home); // headless default: writes need approval, so denied
    suite.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }] }, { text: 'I could not write a.txt.' });
    const result = await client.callTool({ name: 'seek', arguments: { prompt: 'write a.txt' } });
    expect(existsSync(join(root, 'a.txt'))).toBe(false);
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
    expect(text).toContain('I could not write a.txt.');
    expect(text).toMatch(/refused 1 action\(s\)[\s\S]*write_file: /);
    expect(result.structuredContent).toMatchObject({ permission_denials: [{ tool: 'write_file', reason: expect.stringContaining('--yolo') }] });
  });
});
