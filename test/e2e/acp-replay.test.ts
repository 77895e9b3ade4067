/**
 * `seek acp` with the SDK's client app as the editor: a replayed session shows its tool calls as
 * they were shown live (same titles, the edits' diffs), loading an unknown session answers the
 * protocol's "resource not found", and a call with invalid arguments is still shown (failed).
 */
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpHarness } from '../support/acp-client.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject } from '../support/seek-process.js';

const suite = useScriptedServer();
const running: AcpHarness[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((harness) => harness.close()));
});

async function start(root: string, home: string, args: string[] = []): Promise<AcpHarness> {
  const harness = AcpHarness.start({ cwd: root, env: suite.env(home), args });
  running.push(harness);
  await harness.initialize();
  return harness;
}

type ToolCallUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;
const toolUpdates = (updates: acp.SessionUpdate[], id: string): ToolCallUpdate[] =>
  updates.filter((update): update is ToolCallUpdate => (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') && update.toolCallId === id);
/** What the editor shows for a call once every update has been applied: merged fields. */
const shown = (updates: acp.SessionUpdate[], id: string): Record<string, unknown> => Object.assign({}, ...toolUpdates(updates, id));

describe('seek acp: replay, errors and invalid calls', () => {
  it('replays tool calls with the titles, locations and diffs they had live', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n\nSome text.\n' });
    suite.server.enqueue(
      { toolCalls: [{ id: 'call_write', name: 'write_file', arguments: { path: 'a.txt', content: 'one\ntwo\n' } }] },
      { toolCalls: [{ id: 'call_edit', name: 'edit_file', arguments: { path: 'README.md', old_string: '# demo', new_string: '# seek demo' } }] },
      { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { path: 'README.md' } }] },
      { text: 'done' },
    );
    const live = await start(root, home, ['--yolo']);
    const { sessionId } = await live.agent.request('session/new', { cwd: root, mcpServers: [] });
    await live.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write, edit, read' }] });
    const liveUpdates = live.updatesOf(sessionId);
    expect(await live.close()).toBe(0);

    const again = await start(root, home);
    await again.agent.request('session/load', { sessionId, cwd: root, mcpServers: [] });
    const replayed = again.updatesOf(sessionId);
    for (const id of ['call_write', 'call_edit', 'call_read']) {
      const before = shown(liveUpdates, id);
      const after = shown(replayed, id);
      expect(after.title, id).toBe(before.title);
      expect(after.kind, id).toBe(before.kind);
      expect(after.status, id).toBe(before.status);
      expect(after.content, id).toEqual(before.content);
      expect((after.locations as Array<{ path: string }> | undefined)?.map((l) => l.path), id).toEqual((before.locations as Array<{ path: string }> | undefined)?.map((l) => l.path));
    }
    expect(shown(replayed, 'call_write')).toMatchObject({ title: 'create a.txt', content: [{ type: 'diff', path: join(root, 'a.txt'), newText: 'one\ntwo\n' }] });
    expect(shown(replayed, 'call_edit')).toMatchObject({ content: [{ type: 'diff', path: join(root, 'README.md'), oldText: '# demo\n\nSome text.\n', newText: '# seek demo\n\nSome text.\n' }] });
  });

  it('answers session/load of an unknown id with the protocol\'s resource-not-found error', async () => {
    const { root, home } = makeProject();
    const harness = await start(root, home);
    const error = await harness.agent.request('session/load', { sessionId: 'no-such-session', cwd: root, mcpServers: [] }).then(
      () => undefined,
      (caught: unknown) => caught as { code: number; message: string; data?: unknown },
    );
    expect(error).toMatchObject({ code: -32002, data: { sessionId: 'no-such-session' } });
    expect(error!.message).not.toMatch(/internal error/i);
  });

  it('shows a call with invalid arguments as a tool call that failed', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue(
      { toolCalls: [{ id: 'call_bad', name: 'write_file', arguments: { path: 'a.txt' } }] },
      { toolCalls: [{ id: 'call_json', name: 'read_file', arguments: '{"path": ' }] },
      { toolCalls: [{ id: 'call_proxy', name: 'call_tool', arguments: { name: 'todo_write', arguments: { items: 'not a list' } } }] },
      { toolCalls: [{ id: 'call_unknown', name: 'no_such_tool', arguments: {} }] },
      { toolCalls: [{ id: 'call_mcp', name: 'mcp_call', arguments: { name: 'mcp__none__x', arguments: {} } }] },
      { text: 'fixed nothing' },
    );
    const harness = await start(root, home, ['--yolo']);
    const { sessionId } = await harness.agent.request('session/new', { cwd: root, mcpServers: [] });
    await harness.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write' }] });
    const updates = harness.updatesOf(sessionId);
    for (const id of ['call_bad', 'call_json', 'call_proxy', 'call_unknown']) {
      const [announced] = toolUpdates(updates, id);
      expect(announced, id).toMatchObject({ sessionUpdate: 'tool_call', toolCallId: id });
      expect(shown(updates, id).status, id).toBe('failed');
    }
    expect(JSON.stringify(shown(updates, 'call_bad').content)).toContain('Invalid arguments for write_file');
  });
});
