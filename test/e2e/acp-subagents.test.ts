/**
 * Subagents under `seek acp`: a child's tool calls appear as tool calls of their own, nested under
 * the call that started the child (`_meta.seek.parentToolCallId`), and delegate_tasks shows its
 * tasks' progress as the content of its call.
 */
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpHarness } from '../support/acp-client.js';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject } from '../support/seek-process.js';

const suite = useScriptedServer();

const running: AcpHarness[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((harness) => harness.close()));
});

type ToolUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;
const toolUpdates = (updates: acp.SessionUpdate[]): ToolUpdate[] =>
  updates.filter((update): update is ToolUpdate => update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update');
const metaOf = (update: ToolUpdate) => (update._meta as { seek?: { parentToolCallId: string; subagent: string } } | undefined)?.seek;

/** The first user message of a request: the parent's prompt, or a child's task. */
const firstPrompt = (request: RecordedRequest): string => String(request.body.messages.find((m: { role: string }) => m.role === 'user')?.content ?? '');
const turns = (request: RecordedRequest): number => request.body.messages.filter((m: { role: string }) => m.role === 'assistant').length;

async function prompt(root: string, home: string, text: string, options: { args?: string[]; answers?: Array<'allow' | 'reject'>; harness?: (harness: AcpHarness) => void } = {}) {
  const harness = AcpHarness.start({ cwd: root, env: suite.env(home), args: options.args ?? ['--auto'] });
  harness.answers.push(...(options.answers ?? []));
  options.harness?.(harness);
  running.push(harness);
  await harness.initialize();
  const session = await harness.agent.request('session/new', { cwd: root, mcpServers: [] });
  const answer = await harness.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text }] });
  expect(answer.stopReason).toBe('end_turn');
  return toolUpdates(harness.updatesOf(session.sessionId));
}

describe('seek acp: subagents as nested tool calls', () => {
  it("nests an agent child's read under the agent call", async () => {
    const { root, home } = makeProject({ 'README.md': '# nested\n' });
    suite.server.setFallback((request): ScriptedReply => {
      const child = firstPrompt(request).includes('look at the readme for me');
      if (child) return turns(request) === 0 ? { toolCalls: [{ id: 'call_child_read', name: 'read_file', arguments: { path: 'README.md' } }] } : { text: 'It says nested.' };
      return turns(request) === 0
        ? { toolCalls: [{ id: 'call_agent', name: 'agent', arguments: { description: 'read the readme', prompt: 'look at the readme for me', subagent_type: 'explore' } }] }
        : { text: 'The child read it.' };
    });
    const updates = await prompt(root, home, 'delegate the reading');

    expect(updates.find((update) => update.toolCallId === 'call_agent')).toMatchObject({ sessionUpdate: 'tool_call', kind: 'think', status: 'pending' });
    const childCall = updates.find((update) => update.sessionUpdate === 'tool_call' && update.toolCallId.endsWith('/call_child_read'));
    expect(childCall).toMatchObject({ kind: 'read', title: '[read the readme] read README.md', locations: [{ path: join(root, 'README.md') }] });
    const meta = metaOf(childCall!);
    expect(meta?.parentToolCallId).toBe('call_agent');
    expect(childCall!.toolCallId).toBe(`${meta!.subagent}/call_child_read`);
    const childDone = updates.find((update) => update.toolCallId === childCall!.toolCallId && update.status === 'completed');
    expect(metaOf(childDone!)?.parentToolCallId).toBe('call_agent');
    // The agent call shows its child working, then finishes after it.
    const agentUpdates = updates.filter((update) => update.toolCallId === 'call_agent');
    expect(JSON.stringify(agentUpdates[1]?.content)).toContain('explore subagent');
    expect(agentUpdates.at(-1)?.status).toBe('completed');
    expect(updates.indexOf(agentUpdates.at(-1)!)).toBeGreaterThan(updates.indexOf(childDone!));
  });

  it("shows delegate_tasks progress on its call and nests each task's calls under it", async () => {
    const { root, home } = makeProject({ 'README.md': '# tasks\n' });
    suite.server.setFallback((request): ScriptedReply => {
      const task = /^## Your task \(([^,]+),/m.exec(firstPrompt(request))?.[1];
      if (task) return turns(request) === 0 ? { toolCalls: [{ id: `call_${task}_read`, name: 'read_file', arguments: { path: 'README.md' } }] } : { text: `finding of ${task}` };
      return turns(request) === 0
        ? { toolCalls: [{ id: 'call_delegate', name: 'delegate_tasks', arguments: { tasks: [{ task: 'map the code', role: 'explorer' }, { task: 'find the tests', role: 'explorer' }] } }] }
        : { text: 'Both tasks are done.' };
    });
    const updates = await prompt(root, home, 'study this in two tasks');

    const progress = updates.filter((update) => update.toolCallId === 'call_delegate' && update.status === 'in_progress').map((update) => JSON.stringify(update.content));
    expect(progress[0]).toContain('pending   t1 (explorer): map the code');
    expect(progress.some((text) => text.includes('running   t1 (explorer)'))).toBe(true);
    expect(progress.at(-1)).toContain('completed t2 (explorer): find the tests');
    for (const task of ['t1', 't2']) {
      const call = updates.find((update) => update.sessionUpdate === 'tool_call' && update.toolCallId.endsWith(`/call_${task}_read`));
      expect(metaOf(call!)?.parentToolCallId).toBe('call_delegate');
    }
    expect(updates.filter((update) => update.toolCallId === 'call_delegate').at(-1)?.status).toBe('completed');
  });

  it('asks the editor to review a delegate_tasks plan in ask mode; a rejected plan starts no task', async () => {
    const { root, home } = makeProject();
    suite.server.setFallback((request): ScriptedReply =>
      turns(request) === 0
        ? { toolCalls: [{ id: 'call_plan', name: 'delegate_tasks', arguments: { tasks: [{ task: 'map the code', role: 'explorer' }] } }] }
        : { text: 'Understood, no plan.' },
    );
    let editor!: AcpHarness;
    const updates = await prompt(root, home, 'plan something', { args: [], answers: ['reject'], harness: (harness) => (editor = harness) });
    expect(editor.permissionRequests).toHaveLength(1);
    const review = editor.permissionRequests[0]!;
    expect(review.toolCall.toolCallId).toBe('call_plan');
    expect(review.toolCall.title).toBe('Run this plan of 1 task?');
    expect(JSON.stringify(review.toolCall.content)).toContain('t1  explorer  map the code');
    expect(suite.server.requests.filter((request) => firstPrompt(request).includes('## Your task'))).toEqual([]);
    expect(updates.filter((update) => update.toolCallId === 'call_plan').at(-1)?.status).toBe('failed');
  });
});
