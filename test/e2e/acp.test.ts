import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpHarness, chunkText } from '../support/acp-client.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject } from '../support/seek-process.js';

const suite = useScriptedServer();

const env = (home: string) => suite.env(home);

/** Harnesses a test started; closed after it, whatever happened. */
const running: AcpHarness[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((harness) => harness.close()));
});

async function startSession(root: string, home: string, options: { buffers?: Map<string, string>; args?: string[]; notices?: boolean } = {}) {
  const harness = AcpHarness.start({ cwd: root, env: env(home), ...(options.buffers ? { buffers: options.buffers } : {}), ...(options.args ? { args: options.args } : {}) });
  running.push(harness);
  const init = await harness.initialize({ fs: options.buffers !== undefined, notices: options.notices === true });
  const session = await harness.agent.request('session/new', { cwd: root, mcpServers: [] });
  return { harness, init, session, updates: () => harness.updatesOf(session.sessionId) };
}

type ToolCallUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;
const toolUpdates = (updates: acp.SessionUpdate[], id: string): ToolCallUpdate[] =>
  updates.filter((update): update is ToolCallUpdate => (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') && update.toolCallId === id);
const finished = (updates: acp.SessionUpdate[], id: string) =>
  toolUpdates(updates, id).find((update) => update.status === 'completed' || update.status === 'failed');

describe('seek acp (the SDK client as the editor)', () => {
  it('initializes with its capabilities, opens a session with modes and a model option, and streams a prompt back as chunks', async () => {
    const { root, home } = makeProject({
      'README.md': '# demo\n',
      'src/a.ts': 'export const a = 1;\n',
      '.seek/commands/review.md': '---\ndescription: review a file\nargument-hint: FILE\n---\nReview $1 carefully.\n',
    });
    suite.server.enqueue({ reasoning: 'The user wants a greeting; keep it short.', text: 'Hello from seek, streamed in pieces.' });
    const { harness, init, session, updates } = await startSession(root, home);

    expect(init.protocolVersion).toBe(1);
    expect(init.agentInfo?.name).toBe('seek');
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.sessionCapabilities?.list).toEqual({});
    expect(init.agentCapabilities?.promptCapabilities?.embeddedContext).toBe(true);
    expect(session.modes?.currentModeId).toBe('ask');
    expect(session.modes?.availableModes.map((mode) => mode.id)).toEqual(['ask', 'auto', 'plan', 'yolo']);
    const model = session.configOptions?.find((option) => option.id === 'model');
    expect(model?.category).toBe('model');
    expect(model?.type === 'select' && model.currentValue).toBeTruthy();

    const commands = await harness.waitFor('available commands', () => updates().find((update) => update.sessionUpdate === 'available_commands_update'));
    expect(commands.sessionUpdate === 'available_commands_update' && commands.availableCommands.map((command) => command.name)).toEqual(['compact', 'cost', 'review']);
    expect(commands.sessionUpdate === 'available_commands_update' && commands.availableCommands[2]).toEqual({ name: 'review', description: 'review a file', input: { hint: 'FILE' } });

    const answer = await harness.agent.request('session/prompt', {
      sessionId: session.sessionId,
      prompt: [
        { type: 'text', text: 'Say hello and look at ' },
        { type: 'resource_link', uri: pathToFileURL(join(root, 'README.md')).href, name: 'README.md' },
        { type: 'text', text: ' with this selection:' },
        { type: 'resource', resource: { uri: pathToFileURL(join(root, 'src/a.ts')).href, text: 'export const a = 2; // unsaved\n', mimeType: 'text/x-typescript' } },
      ],
    });
    expect(answer.stopReason).toBe('end_turn');
    const messageChunks = updates().filter((update) => update.sessionUpdate === 'agent_message_chunk');
    expect(messageChunks.length).toBeGreaterThan(1); // streamed, not one final message
    expect(chunkText(updates(), 'agent_message_chunk')).toBe('Hello from seek, streamed in pieces.');
    expect(chunkText(updates(), 'agent_thought_chunk')).toBe('The user wants a greeting; keep it short.');

    const sent = suite.server.requests[0]!.body.messages.at(-1).content as string;
    expect(sent).toContain(`Say hello and look at @${join(root, 'README.md')} with this selection:`);
    expect(sent).toContain(`<resource uri="${join(root, 'src/a.ts')}">\nexport const a = 2; // unsaved\n</resource>`);
  });

  it("sends seek's notices as notice updates to a client that takes them", async () => {
    const { root, home } = makeProject({ '.mcp.json': '{ not json' });
    suite.server.enqueue({ text: 'ok' }, { text: 'ok' });
    const { harness, session, updates } = await startSession(root, home, { notices: true });
    await harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    const notice = updates().find((update) => update.sessionUpdate === 'notice');
    expect(notice).toMatchObject({ sessionUpdate: 'notice', severity: 'warning' });
    expect(notice?.sessionUpdate === 'notice' && notice.title).toContain('is not valid JSON');

    const quiet = await startSession(root, home); // no notices capability: none sent
    await quiet.harness.agent.request('session/prompt', { sessionId: quiet.session.sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    expect(quiet.updates().some((update) => update.sessionUpdate === 'notice')).toBe(false);
    expect(chunkText(quiet.updates(), 'agent_message_chunk')).toBe('ok');
  });

  it('shows an edit as a tool call with a diff, asks permission for it (allow), then for a command (reject)', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n\nSome text.\n' });
    suite.server.enqueue(
      { toolCalls: [{ id: 'call_edit', name: 'edit_file', arguments: { path: 'README.md', old_string: '# demo', new_string: '# seek demo' } }] },
      { toolCalls: [{ id: 'call_bash', name: 'bash', arguments: { command: 'touch should-not-exist' } }] },
      { text: 'Edited the title; skipped the command.' },
    );
    const { harness, session, updates } = await startSession(root, home);
    harness.answers.push('allow', 'reject');
    const answer = await harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'retitle, then touch a file' }] });
    expect(answer.stopReason).toBe('end_turn');

    // The edit: announced pending with its diff and location, asked about under the same id.
    const readme = join(root, 'README.md');
    const [announced] = toolUpdates(updates(), 'call_edit');
    expect(announced).toMatchObject({ sessionUpdate: 'tool_call', kind: 'edit', status: 'pending', title: 'edit README.md', locations: [{ path: readme, line: 1 }] });
    expect(announced!.content).toEqual([{ type: 'diff', path: readme, oldText: '# demo\n\nSome text.\n', newText: '# seek demo\n\nSome text.\n' }]);
    const [askEdit, askBash] = harness.permissionRequests;
    expect(askEdit!.toolCall.toolCallId).toBe('call_edit');
    expect(askEdit!.toolCall.content?.[0]).toEqual(announced!.content?.[0]); // the diff, then the reason
    expect(JSON.stringify(askEdit!.toolCall.content)).toContain('edit_file needs approval');
    expect(askEdit!.options.map((option) => option.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    expect(finished(updates(), 'call_edit')).toMatchObject({ status: 'completed', content: [{ type: 'diff', path: readme, newText: '# seek demo\n\nSome text.\n' }] });
    expect(readFileSync(readme, 'utf8')).toBe('# seek demo\n\nSome text.\n');

    // The command: asked, rejected, failed; the model is told the user declined.
    expect(askBash!.toolCall).toMatchObject({ toolCallId: 'call_bash', kind: 'execute' });
    expect(JSON.stringify(askBash!.toolCall.content)).toContain('touch should-not-exist');
    expect(toolUpdates(updates(), 'call_bash')[0]).toMatchObject({ sessionUpdate: 'tool_call', kind: 'execute', status: 'pending' });
    expect(finished(updates(), 'call_bash')?.status).toBe('failed');
    expect(existsSync(join(root, 'should-not-exist'))).toBe(false);
    expect(suite.server.requests[2]!.body.messages.at(-1).content).toMatch(/^The user declined: bash: touch should-not-exist/);
    expect(chunkText(updates(), 'agent_message_chunk')).toBe('Edited the title; skipped the command.');
  });

  it('"always" adds the rule for the session: the same command is not asked again; a todo list becomes the plan', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'bash', arguments: { command: 'echo one > one.txt' } }] },
      { toolCalls: [{ id: 'call_2', name: 'bash', arguments: { command: 'echo one > one.txt' } }] },
      { toolCalls: [{ id: 'call_todo', name: 'todo_write', arguments: { items: [{ content: 'write one.txt', status: 'completed' }, { content: 'check it', status: 'in_progress' }] } }] },
      { text: 'Done.' },
    );
    const { harness, session, updates } = await startSession(root, home);
    harness.answers.push('always');
    const answer = await harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'write one.txt twice' }] });
    expect(answer.stopReason).toBe('end_turn');
    expect(harness.permissionRequests.map((request) => request.toolCall.toolCallId)).toEqual(['call_1']);
    expect(finished(updates(), 'call_1')?.status).toBe('completed');
    expect(finished(updates(), 'call_2')?.status).toBe('completed');
    expect(readFileSync(join(root, 'one.txt'), 'utf8')).toBe('one\n');
    const plan = updates().find((update) => update.sessionUpdate === 'plan');
    expect(plan).toEqual({
      sessionUpdate: 'plan',
      entries: [
        { content: 'write one.txt', status: 'completed', priority: 'medium' },
        { content: 'check it', status: 'in_progress', priority: 'medium' },
      ],
    });
    expect(toolUpdates(updates(), 'call_todo')).toEqual([]); // shown as the plan, not as a call
  });

  it('cancels a turn mid-stream: the prompt answers cancelled and the session takes the next prompt', async () => {
    const { root, home } = makeProject();
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    suite.server.enqueue(
      () => {
        arrived();
        return { hang: true };
      },
      { text: 'Back again.' },
    );
    const { harness, session, updates } = await startSession(root, home);
    const turn = harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'think forever' }] });
    await requestArrived;
    await harness.agent.notify('session/cancel', { sessionId: session.sessionId });
    expect((await turn).stopReason).toBe('cancelled');

    const next = await harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'hello again' }] });
    expect(next.stopReason).toBe('end_turn');
    expect(chunkText(updates(), 'agent_message_chunk')).toContain('Back again.');
  });

  it('cancels a turn while the editor shows a permission request: the editor answers cancelled, nothing runs', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ toolCalls: [{ id: 'call_wait', name: 'bash', arguments: { command: 'touch cancelled-file' } }] }, { text: 'Next turn.' });
    const { harness, session, updates } = await startSession(root, home);
    harness.answers.push('hold');
    const turn = harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'touch it' }] });
    await harness.waitFor('the permission request', () => harness.permissionRequests.length === 1);
    await harness.agent.notify('session/cancel', { sessionId: session.sessionId });
    harness.release('cancelled'); // what an editor answers to its open requests on cancel
    expect((await turn).stopReason).toBe('cancelled');
    expect(finished(updates(), 'call_wait')?.status).toBe('failed');
    expect(existsSync(join(root, 'cancelled-file'))).toBe(false);
    expect(suite.server.requests).toHaveLength(1); // the model was not asked again in the cancelled turn
  });

  it('closes cleanly when the editor goes away mid-turn: the turn is cancelled, the session stays loadable', async () => {
    const { root, home } = makeProject();
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    suite.server.enqueue(() => {
      arrived();
      return { hang: true };
    });
    const { harness, session } = await startSession(root, home);
    const turn = harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'a turn cut short' }] }).catch((error: Error) => error);
    await requestArrived;
    expect(await harness.close()).toBe(0);
    expect(harness.stderr).toBe('');
    expect(await turn).toBeInstanceOf(Error); // no answer: the connection is gone

    const again = AcpHarness.start({ cwd: root, env: env(home) });
    running.push(again);
    await again.initialize();
    await again.agent.request('session/load', { sessionId: session.sessionId, cwd: root, mcpServers: [] });
    expect(chunkText(again.updatesOf(session.sessionId), 'user_message_chunk')).toBe('a turn cut short');
  });

  it('switches mode and model (yolo runs a command without a permission request, on the model picked), then closes the session', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ toolCalls: [{ id: 'call_yolo', name: 'bash', arguments: { command: 'echo hi > yolo.txt' } }] }, { text: 'Ran it.' });
    const { harness, session, updates } = await startSession(root, home);
    await harness.agent.request('session/set_mode', { sessionId: session.sessionId, modeId: 'yolo' });
    // The model picker: another model of the catalog, used by the next request.
    const picker = session.configOptions?.find((option) => option.id === 'model');
    const models = picker?.type === 'select' ? picker.options.flatMap((option) => ('value' in option ? [option.value] : [])) : [];
    const other = models.find((model) => picker?.type === 'select' && model !== picker.currentValue);
    expect(other).toBeDefined();
    const changed = await harness.agent.request('session/set_config_option', { sessionId: session.sessionId, configId: 'model', value: other! });
    expect(changed.configOptions[0]).toMatchObject({ id: 'model', currentValue: other });
    await harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'run it' }] });
    expect(harness.permissionRequests).toEqual([]);
    expect(finished(updates(), 'call_yolo')?.status).toBe('completed');
    expect(readFileSync(join(root, 'yolo.txt'), 'utf8')).toBe('hi\n');
    expect(suite.server.requests[0]!.body.model).toBe(other);
    await expect(harness.agent.request('session/set_config_option', { sessionId: session.sessionId, configId: 'model', value: 'no-such-model' })).rejects.toThrow(/not one of the models offered/);

    // session/close ends it: the editor's next prompt to it is refused.
    await harness.agent.request('session/close', { sessionId: session.sessionId });
    await expect(harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'still there?' }] })).rejects.toThrow();
  });

  it('loads a saved session: its history is replayed as updates before the answer, and the conversation goes on', async () => {
    const { root, home } = makeProject({ 'README.md': '# kiwi notes\n' });
    suite.server.enqueue(
      { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { path: 'README.md' } }] },
      { reasoning: 'It is about kiwis.', text: 'Noted: the project is about kiwis.' },
    );
    const first = await startSession(root, home);
    await first.harness.agent.request('session/prompt', { sessionId: first.session.sessionId, prompt: [{ type: 'text', text: 'what is this project about?' }] });
    const status = await first.harness.close();
    expect(first.harness.stderr).toBe('');
    expect(status).toBe(0);

    const harness = AcpHarness.start({ cwd: root, env: env(home) });
    running.push(harness);
    await harness.initialize();
    const sessionId = first.session.sessionId;
    const listed = await harness.agent.request('session/list', { cwd: root });
    expect(listed.sessions).toMatchObject([{ sessionId, cwd: root, title: 'what is this project about?' }]);
    const loaded = await harness.agent.request('session/load', { sessionId, cwd: root, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe('ask');
    // Everything replayed has arrived by the time the answer did.
    const replayed = harness.updatesOf(sessionId);
    expect(chunkText(replayed, 'user_message_chunk')).toBe('what is this project about?');
    expect(chunkText(replayed, 'agent_thought_chunk')).toBe('It is about kiwis.');
    expect(chunkText(replayed, 'agent_message_chunk')).toBe('Noted: the project is about kiwis.');
    expect(toolUpdates(replayed, 'call_read')).toMatchObject([{ sessionUpdate: 'tool_call', kind: 'read', status: 'completed', title: 'read README.md' }]); // as it was titled live
    expect(JSON.stringify(toolUpdates(replayed, 'call_read')[0]!.content)).toContain('# kiwi notes');

    suite.server.enqueue({ text: 'Still kiwis.' });
    const answer = await harness.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'and now?' }] });
    expect(answer.stopReason).toBe('end_turn');
    const contents = suite.server.requests.at(-1)!.body.messages.map((message: { content: unknown }) => message.content);
    expect(contents).toContain('what is this project about?');
    expect(contents).toContain('Noted: the project is about kiwis.');
  });

  it('reads and writes through the client fs: read_file sees an unsaved buffer, edit_file writes to the buffer', async () => {
    const { root, home } = makeProject({ 'README.md': '# on disk\n' });
    const readme = join(root, 'README.md');
    const buffers = new Map([[readme, '# unsaved buffer\n']]);
    suite.server.enqueue(
      { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { path: 'README.md' } }] },
      { toolCalls: [{ id: 'call_edit', name: 'edit_file', arguments: { path: 'README.md', old_string: 'unsaved buffer', new_string: 'edited buffer' } }] },
      { text: 'Read and edited the buffer.' },
    );
    const { harness, session, updates } = await startSession(root, home, { buffers, args: ['--auto'] });
    await harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'read the readme, then edit it' }] });

    expect(harness.fsReads).toContain(readme);
    expect(suite.server.requests[1]!.body.messages.at(-1).content).toContain('# unsaved buffer');
    expect(harness.fsWrites).toEqual([{ path: readme, content: '# edited buffer\n' }]);
    expect(buffers.get(readme)).toBe('# edited buffer\n');
    expect(readFileSync(readme, 'utf8')).toBe('# on disk\n'); // the editor saves when it wants to
    expect(finished(updates(), 'call_edit')).toMatchObject({ status: 'completed', content: [{ type: 'diff', path: readme, oldText: '# unsaved buffer\n', newText: '# edited buffer\n' }] });
  });
});
