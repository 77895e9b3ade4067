import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitationHandler } from '../../../src/mcp/elicitation.js';
import { McpManager, qualifiedName } from '../../../src/mcp/index.js';

/** A real stdio server (the SDK's) whose tool `ask` sends elicitation/create and returns the answer. */
const SERVER = new URL('../../fixtures/mcp/elicit-server.mjs', import.meta.url).pathname;
const dirs: string[] = [];
const managers: McpManager[] = [];

afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function open(elicitation: boolean, handler?: ElicitationHandler): Promise<McpManager> {
  const home = mkdtempSync(join(tmpdir(), 'seek-elicit-home-'));
  const root = mkdtempSync(join(tmpdir(), 'seek-elicit-root-'));
  dirs.push(home, root);
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { asker: { command: process.execPath, args: [SERVER] } } }));
  const manager = await McpManager.open({ projectRoot: root, seekHome: home, cwd: root, env: { PATH: process.env.PATH }, elicitation });
  managers.push(manager);
  if (handler) manager.setElicitationHandler(handler);
  return manager;
}

async function ask(manager: McpManager, signal = new AbortController().signal): Promise<unknown> {
  const found = await manager.find(qualifiedName('asker', 'ask'));
  if ('error' in found) throw new Error(found.error);
  const result = await found.connection.callTool('ask', {}, signal);
  const first = result.content[0];
  return JSON.parse(first?.type === 'text' ? first.text : 'null');
}

describe('elicitation through McpConnection (a real stdio server)', () => {
  it('a manager opened without elicitation declares none: the server cannot ask', async () => {
    expect(await ask(await open(false))).toEqual({ error: expect.stringMatching(/does not support (form )?elicitation/i) });
  });

  it('with elicitation but no handler installed, the answer is decline', async () => {
    expect(await ask(await open(true))).toEqual({ action: 'decline' });
  });

  it('the installed handler gets the server, message and schema, and its answer reaches the server', async () => {
    const seen: unknown[] = [];
    const manager = await open(true, async (request) => {
      seen.push(request);
      return { action: 'accept', content: { name: 'Bo' } };
    });
    expect(await ask(manager)).toEqual({ action: 'accept', content: { name: 'Bo' } });
    expect(seen).toEqual([{ server: 'asker', message: 'Who are you?', requestedSchema: { type: 'object', properties: { name: { type: 'string', default: 'Ann' } } } }]);
    manager.setElicitationHandler(undefined);
    expect(await ask(manager)).toEqual({ action: 'decline' });
  });

  it('a pending question is cancelled when its call is aborted', async () => {
    const call = new AbortController();
    let aborted: Promise<void> | undefined;
    const manager = await open(true, (_request, signal) => {
      aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      setImmediate(() => call.abort());
      return new Promise(() => {}); // the user never answers
    });
    await expect(ask(manager, call.signal)).rejects.toThrow();
    expect(aborted).toBeDefined();
    await aborted; // the question's signal aborted with the call (the test times out otherwise)
  });
});
