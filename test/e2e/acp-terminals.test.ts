/**
 * `seek acp` with an editor that offers its terminals (clientCapabilities.terminal): bash's
 * foreground commands run in the editor's terminal (the test's client really spawns what it is
 * handed), sandboxed where seek would sandbox them, embedded in the tool call; the policy decides
 * first; cancel kills and releases the terminal; without the offer bash runs locally as before.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpHarness } from '../support/acp-client.js';
import { EditorTerminals } from '../support/acp-terminals.js';
import { hasSandbox } from '../support/sandbox.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject } from '../support/seek-process.js';

const suite = useScriptedServer();

const running: Array<{ harness: AcpHarness; terminals: EditorTerminals }> = [];
afterEach(async () => {
  for (const { terminals } of running) terminals.killAll();
  await Promise.all(running.splice(0).map(({ harness }) => harness.close()));
});

type ToolUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;
const callUpdates = (updates: acp.SessionUpdate[], id: string): ToolUpdate[] =>
  updates.filter((update): update is ToolUpdate => (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') && update.toolCallId === id);
const finished = (updates: acp.SessionUpdate[], id: string) => callUpdates(updates, id).find((update) => update.status === 'completed' || update.status === 'failed');
const resultText = (update: ToolUpdate | undefined): string =>
  (update?.content ?? []).map((block) => (block.type === 'content' && block.content.type === 'text' ? block.content.text : '')).join('');

/** seek acp in `root` with its own user home (the sandbox hides homes), the editor offering terminals when `terminal`. */
async function start(root: string, home: string, options: { args: string[]; terminal: boolean }) {
  const userHome = join(dirname(root), 'user-home');
  mkdirSync(userHome, { recursive: true });
  const terminals = new EditorTerminals();
  const harness = AcpHarness.start({ cwd: root, env: { ...suite.env(home), HOME: userHome }, args: options.args, terminals });
  running.push({ harness, terminals });
  await harness.initialize({ terminal: options.terminal });
  const session = await harness.agent.request('session/new', { cwd: root, mcpServers: [] });
  return { harness, terminals, userHome, sessionId: session.sessionId, updates: () => harness.updatesOf(session.sessionId) };
}

describe('seek acp: bash in the editor terminal', () => {
  it.skipIf(!hasSandbox)('runs an --auto command sandboxed in the editor terminal, embedded in its tool call, output and exit code as local bash', async () => {
    const { root, home } = makeProject();
    const command = 'echo "profile=$SEEK_SANDBOX" && echo in > inside.txt && echo out > "$HOME/escaped.txt" && echo wrote-home';
    suite.server.enqueue({ toolCalls: [{ id: 'call_sb', name: 'bash', arguments: { command } }] }, { toolCalls: [{ id: 'call_fail', name: 'bash', arguments: { command: 'echo oops >&2; exit 3' } }] }, { text: 'done' });
    const { harness, terminals, userHome, sessionId, updates } = await start(root, home, { args: ['--auto'], terminal: true });
    const answer = await harness.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write files' }] });
    expect(answer.stopReason).toBe('end_turn');

    expect(harness.permissionRequests).toHaveLength(0); // --auto: sandboxed without asking
    expect(terminals.terminals).toHaveLength(2);
    const [sandboxed, failing] = terminals.terminals;
    // The command line seek handed over is its own sandbox: the reduced environment, the seccomp
    // filter opened on descriptor 3 by the shell prelude, bubblewrap around `bash -c command`.
    const argv = [sandboxed!.request.command, ...(sandboxed!.request.args ?? [])];
    expect(argv.slice(0, 2)).toEqual(['env', '-i']);
    expect(argv).toContain('/bin/sh');
    expect(argv.join(' ')).toContain('--seccomp 3');
    expect(argv.slice(-3)).toEqual(['bash', '-c', command]);
    expect(sandboxed!.request.cwd).toBe(root);
    expect(sandboxed!.output).toContain('profile=workspace-write');
    // Inside the project the write lands; the home it wrote to was the sandbox's throw-away one.
    expect(readFileSync(join(root, 'inside.txt'), 'utf8')).toBe('in\n');
    expect(existsSync(join(userHome, 'escaped.txt'))).toBe(false);
    expect(sandboxed!.released).toBe(true);

    // The tool call shows the terminal while it runs and keeps it above the result.
    const updatesOf = callUpdates(updates(), 'call_sb');
    expect(updatesOf.some((update) => update.status === 'in_progress' && update.content?.[0]?.type === 'terminal')).toBe(true);
    const done = finished(updates(), 'call_sb');
    expect(done?.status).toBe('completed');
    expect(done?.content?.[0]).toEqual({ type: 'terminal', terminalId: sandboxed!.id });
    expect(resultText(done)).toContain('profile=workspace-write\nwrote-home\n\nexit code 0');

    // A failing command: the exit code and the sandbox note, as local bash gives them.
    expect(failing!.released).toBe(true);
    const failed = finished(updates(), 'call_fail');
    expect(failed?.status).toBe('failed');
    expect(resultText(failed)).toContain('oops\n\nexit code 3\n(ran in the workspace-write sandbox');
    const toModel = JSON.stringify(suite.server.requests.at(-1)!.body.messages);
    expect(toModel).toContain('exit code 3');
  }, 120_000);

  it('asks first: a rejected command never reaches terminal/create, an allowed one runs unsandboxed in the terminal', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue(
      { toolCalls: [{ id: 'call_no', name: 'bash', arguments: { command: 'touch rejected.txt' } }] },
      { toolCalls: [{ id: 'call_yes', name: 'bash', arguments: { command: 'touch allowed.txt && echo "sandbox=${SEEK_SANDBOX:-none}"' } }] },
      { text: 'ok' },
    );
    const { harness, terminals, sessionId, updates } = await start(root, home, { args: [], terminal: true });
    harness.answers.push('reject', 'allow');
    await harness.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'touch two files' }] });

    expect(harness.permissionRequests.map((request) => request.toolCall.toolCallId)).toEqual(['call_no', 'call_yes']);
    expect(terminals.terminals).toHaveLength(1); // only the allowed one
    expect(terminals.terminals[0]!.request.args).toEqual(['-c', 'touch allowed.txt && echo "sandbox=${SEEK_SANDBOX:-none}"']);
    expect(terminals.terminals[0]!.request.command).toBe('bash');
    expect(existsSync(join(root, 'rejected.txt'))).toBe(false);
    expect(existsSync(join(root, 'allowed.txt'))).toBe(true);
    expect(finished(updates(), 'call_no')?.status).toBe('failed');
    expect(resultText(finished(updates(), 'call_yes'))).toContain('sandbox=none');
    expect(terminals.calls.slice(0, 1)).toEqual(['terminal/create']);
    expect(terminals.calls.at(-1)).toBe('terminal/release');
  }, 120_000);

  it('a deny rule refuses the command before any terminal exists', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { deny: ['Bash(touch denied*)'] } }));
    suite.server.enqueue({ toolCalls: [{ id: 'call_denied', name: 'bash', arguments: { command: 'touch denied.txt' } }] }, { text: 'ok' });
    const { harness, terminals, sessionId, updates } = await start(root, home, { args: ['--yolo'], terminal: true });
    await harness.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'touch' }] });
    expect(finished(updates(), 'call_denied')?.status).toBe('failed');
    expect(terminals.calls).toEqual([]);
    expect(harness.permissionRequests).toHaveLength(0);
    expect(existsSync(join(root, 'denied.txt'))).toBe(false);
  }, 120_000);

  it('session/cancel kills and releases the terminal; a timeout does too', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ toolCalls: [{ id: 'call_long', name: 'bash', arguments: { command: 'echo started; sleep 300' } }] });
    const { harness, terminals, sessionId, updates } = await start(root, home, { args: ['--yolo'], terminal: true });
    const prompt = harness.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] });
    const terminal = await harness.waitFor('the terminal', () => terminals.terminals[0]?.output.includes('started') && terminals.terminals[0], 60_000);
    await harness.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    await harness.waitFor('the terminal released', () => terminal.released, 30_000);
    expect(terminals.calls).toContain('terminal/kill');
    expect(terminal.killed).toBe(true);
    expect((await terminal.exited).signal).toBe('SIGKILL');
    expect(resultText(finished(updates(), 'call_long'))).toContain('aborted by the user');

    suite.server.enqueue({ toolCalls: [{ id: 'call_slow', name: 'bash', arguments: { command: 'sleep 300', timeout_ms: 1500 } }] }, { text: 'gave up' });
    await harness.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] });
    const second = terminals.terminals[1]!;
    expect(second.killed && second.released).toBe(true);
    expect(resultText(finished(updates(), 'call_slow'))).toContain('timed out after 1500 ms');
  }, 180_000);

  it('without terminal: true, bash runs locally as before (no terminal requests, text content)', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ toolCalls: [{ id: 'call_local', name: 'bash', arguments: { command: 'echo local > local.txt && echo hi' } }] }, { text: 'ok' });
    const { harness, terminals, sessionId, updates } = await start(root, home, { args: ['--yolo'], terminal: false });
    await harness.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run' }] });
    expect(terminals.calls).toEqual([]);
    expect(readFileSync(join(root, 'local.txt'), 'utf8')).toBe('local\n');
    const done = finished(updates(), 'call_local');
    expect(done?.content?.some((block) => block.type === 'terminal')).toBe(false);
    expect(resultText(done)).toContain('hi\n\nexit code 0');
  }, 120_000);
});
