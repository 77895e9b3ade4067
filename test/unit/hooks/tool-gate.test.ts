import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool, ToolContext } from '../../../src/agent/types.js';
import { createHookRunner, type HookDef } from '../../../src/hooks/index.js';
import { PermissionPolicy } from '../../../src/policy/index.js';
import { SandboxLauncher, detectSandbox, DEFAULT_SANDBOX_SETTINGS } from '../../../src/sandbox/index.js';
import { createToolGate, type AskAnswer, type PermissionPrompt } from '../../../src/policy/tool-gate.js';
import { RUNNER_ENV, hookFixture, type HookFixture } from './fixture.js';
import { hasSandbox } from '../../support/sandbox.js';

let fx: HookFixture;
beforeEach(() => {
  fx = hookFixture();
});
afterEach(() => fx.cleanup());

const bashTool: Tool<{ command: string }> = {
  name: 'bash',
  description: 'run a command',
  schema: z.object({ command: z.string() }),
  readOnly: false,
  describe: (args, ctx) => ({ kind: 'bash', paths: [ctx.cwd], command: args.command, summary: `bash: ${args.command}` }),
  execute: async () => ({ content: '' }),
};
const readTool: Tool<{ path: string }> = {
  name: 'read_file',
  description: 'read',
  schema: z.object({ path: z.string() }),
  readOnly: true,
  describe: (args, ctx) => ({ kind: 'read', paths: [path.resolve(ctx.cwd, args.path)], summary: `read ${args.path}` }),
  execute: async () => ({ content: '' }),
};
const todoTool: Tool<{ items: string[] }> = {
  name: 'todo_write',
  description: 'todos',
  schema: z.object({ items: z.array(z.string()) }),
  readOnly: false,
  execute: async () => ({ content: '' }),
};

function call<A>(tool: Tool<A>, args: A, signal = new AbortController().signal) {
  const ctx: ToolContext = { cwd: fx.project, projectRoot: fx.project, signal, callId: `call-${Math.random()}` };
  return { toolCall: { id: ctx.callId, name: tool.name, arguments: JSON.stringify(args) }, tool: tool as Tool, args, ctx };
}

function hooks(defs: Omit<HookDef, 'timeoutMs' | 'source' | 'file'>[]) {
  return createHookRunner({
    hooks: defs.map((d) => ({ timeoutMs: 5000, source: 'user' as const, file: 'f', ...d })),
    seekHome: fx.home,
    env: { ...RUNNER_ENV, projectPath: fx.project },
  });
}

/** The machine's real sandbox (bubblewrap here and in CI). */
function realSandbox(): SandboxLauncher {
  return new SandboxLauncher({ settings: { ...DEFAULT_SANDBOX_SETTINGS }, status: detectSandbox({ env: process.env }), home: fx.project, seekHome: fx.home, env: process.env });
}

describe('tool gate: hooks → policy → ask', () => {
  it('a call that goes by another name (mcp_call) is matched and asked under that name', async () => {
    const mcpCall: Tool<{ tool: string }> = {
      name: 'mcp_call',
      description: 'call an MCP tool',
      schema: z.object({ tool: z.string() }),
      readOnly: false,
      callName: (args) => args.tool,
      describe: (args) => ({ kind: 'other', paths: [], summary: args.tool }),
      execute: async () => ({ content: '' }),
    };
    const asked: PermissionPrompt[] = [];
    const gate = createToolGate({
      policy: new PermissionPolicy({ root: fx.project, preference: 'ask', rules: [{ tool: 'mcp__github', decision: 'deny', source: 'user' }] }),
      hooks: hooks([{ name: 'no-issues', event: 'pre_tool', tool: 'mcp__tracker__create_issue', command: 'echo "no new issues today"; exit 1' }]),
      ask: async (p) => (asked.push(p), 'yes'),
    });
    const hooked = await gate.before(call(mcpCall, { tool: 'mcp__tracker__create_issue' }));
    expect(hooked).toMatchObject({ allow: false, reason: expect.stringContaining('no new issues today') });
    const denied = await gate.before(call(mcpCall, { tool: 'mcp__github__delete_repo' }));
    expect(denied).toMatchObject({ allow: false, reason: expect.stringContaining('mcp__github__delete_repo is denied by a user rule') });
    expect(await gate.before(call(mcpCall, { tool: 'mcp__tracker__list_issues' }))).toEqual({ allow: true });
    expect(asked.map((prompt) => prompt.tool)).toEqual(['mcp__tracker__list_issues']);
  });

  it('a pre_tool hook denial comes first and becomes the prefixed result (the user is not asked)', async () => {
    const asked: PermissionPrompt[] = [];
    const gate = createToolGate({
      policy: new PermissionPolicy({ root: fx.project, preference: 'yolo' }),
      hooks: hooks([{ name: 'no-rm', event: 'pre_tool', tool: 'bash', command: 'case "$SEEK_TOOL_ARGS_JSON" in *rm*) echo "rm is blocked here"; exit 1;; esac' }]),
      ask: async (p) => (asked.push(p), 'yes'),
    });
    expect(await gate.before(call(bashTool, { command: 'rm -rf build' }))).toEqual({
      allow: false,
      reason: '[denied by pre_tool hook "no-rm"] rm is blocked here',
    });
    expect(await gate.before(call(bashTool, { command: 'npm test' }))).toEqual({ allow: true });
    expect(asked).toHaveLength(0);
  });

  it.skipIf(!hasSandbox)('headless (no ask function): dangerous actions are denied with the --yolo hint; safe ones pass', async () => {
    const gate = createToolGate({ policy: new PermissionPolicy({ root: fx.project, preference: 'ask', sandbox: { available: true } }), sandbox: realSandbox() });
    expect(await gate.before(call(bashTool, { command: 'npm test' }))).toEqual({
      allow: false,
      reason: 'bash is not allowed in this mode: re-run seek with --auto to allow edits and commands inside the project (commands sandboxed), or --yolo to allow everything.',
    });
    // A read-only inspector runs without asking, inside the read-only sandbox.
    expect(await gate.before(call(bashTool, { command: 'git status' }))).toMatchObject({ allow: true, sandbox: { profile: 'read-only' } });
    expect(await gate.before(call(readTool, { path: 'a.txt' }))).toEqual({ allow: true });
    expect(await gate.before(call(todoTool, { items: [] }))).toEqual({ allow: true });
  });

  it('headless without a sandbox: a read-only inspector is denied, never run unsandboxed', async () => {
    const policy = new PermissionPolicy({ root: fx.project, preference: 'deny', sandbox: { available: false, reason: 'bubblewrap (bwrap) is not installed' } });
    const verdict = await createToolGate({ policy }).before(call(bashTool, { command: 'git status' }));
    expect(verdict.allow).toBe(false);
    expect(verdict.allow === false && verdict.reason).toMatch(/no OS sandbox is available here \(bubblewrap \(bwrap\) is not installed/);
  });

  it('ask: the prompt carries the action, cwd, the "always" rule and the asking subagent; answers are honoured', async () => {
    const prompts: PermissionPrompt[] = [];
    const answers: AskAnswer[] = ['no', 'always'];
    const policy = new PermissionPolicy({ root: fx.project, preference: 'ask' });
    const gate = createToolGate({
      policy,
      ask: async (p) => (prompts.push(p), answers.shift() ?? 'no'),
      subagent: { id: 'sub-7', description: 'run the tests' },
    });
    const declined = await gate.before(call(bashTool, { command: 'npm test' }));
    expect(declined).toMatchObject({ allow: false, reason: expect.stringMatching(/^The user declined: bash: npm test\./) });
    expect(prompts[0]).toMatchObject({
      tool: 'bash',
      cwd: fx.project,
      reason: 'bash needs approval',
      action: { kind: 'bash', command: 'npm test', summary: 'bash: npm test' },
      alwaysRule: { tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' },
      subagent: { id: 'sub-7', description: 'run the tests' },
    });
    expect(await gate.before(call(bashTool, { command: 'npm test' }))).toEqual({ allow: true });
    expect(policy.rules).toContainEqual({ tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' });
    expect(await gate.before(call(bashTool, { command: 'npm test' }))).toEqual({ allow: true });
    expect(prompts).toHaveLength(2); // the third call matched the session rule
  });

  it('a "no" with feedback: the user\'s words are in the result and the turn goes on; a bare "no" stops the session\'s turn (a subagent\'s goes on)', async () => {
    const policy = new PermissionPolicy({ root: fx.project, preference: 'ask' });
    const stop: AskAnswer = { decline: 'stop', feedback: 'run npm run test:unit instead' };
    const verdict = await createToolGate({ policy, ask: async () => stop }).before(call(bashTool, { command: 'npm test' }));
    expect(verdict).toEqual({
      allow: false,
      reason: expect.stringMatching(/^The user declined: bash: npm test\. They said what to do differently:\nrun npm run test:unit instead\n/),
    });
    const plain = await createToolGate({ policy, ask: async () => ({ decline: 'stop' }) }).before(call(bashTool, { command: 'npm test' }));
    expect(plain).toMatchObject({ allow: false, stopTurn: true, reason: expect.stringMatching(/^The user declined: bash: npm test\. Do not retry/) });
    const child = await createToolGate({ policy, ask: async () => stop, subagent: { id: 's1', description: 'd' } }).before(call(bashTool, { command: 'npm test' }));
    expect(child).toEqual({ allow: false, reason: expect.stringContaining('run npm run test:unit instead') });
  });

  it('an agent working in a worktree: the prompt names the tree (path and branch)', async () => {
    const prompts: PermissionPrompt[] = [];
    const gate = createToolGate({
      policy: new PermissionPolicy({ root: fx.project, preference: 'ask' }),
      ask: async (p) => (prompts.push(p), 'yes'),
      subagent: { id: 's1', description: 'edit in isolation' },
      workspace: { worktree: { path: '/wt/s1-ab12', branch: 'seek/s1-ab12' }, mapToProject: (text) => text },
    });
    await gate.before(call(bashTool, { command: 'npm test' }));
    expect(prompts[0]!.worktree).toEqual({ path: '/wt/s1-ab12', branch: 'seek/s1-ab12' });
  });

  it('prompts are asked one at a time; an "always" spares the calls queued behind it', async () => {
    let open = 0;
    let maxOpen = 0;
    let asked = 0;
    const gate = createToolGate({
      policy: new PermissionPolicy({ root: fx.project, preference: 'ask' }),
      ask: async () => {
        asked++;
        maxOpen = Math.max(maxOpen, ++open);
        await new Promise((r) => setTimeout(r, 20));
        open--;
        return 'always';
      },
    });
    const outside = path.join(fx.base, 'home', 'x.txt');
    const results = await Promise.all([1, 2, 3].map(() => gate.before(call(readTool, { path: outside }))));
    expect(results).toEqual([{ allow: true }, { allow: true }, { allow: true }]);
    expect(maxOpen).toBe(1);
    expect(asked).toBe(1);
  });

  it('a canceled call stops waiting for the answer', async () => {
    const controller = new AbortController();
    const gate = createToolGate({
      policy: new PermissionPolicy({ root: fx.project, preference: 'ask' }),
      ask: () => new Promise<AskAnswer>(() => undefined),
    });
    const pending = gate.before(call(bashTool, { command: 'make' }, controller.signal));
    setTimeout(() => controller.abort(), 10);
    expect(await pending).toMatchObject({ allow: false, reason: expect.stringContaining('canceled') });
  });

  it('plan mode denies writes even in yolo, with the plan hint', async () => {
    const gate = createToolGate({ policy: new PermissionPolicy({ root: fx.project, preference: 'yolo', workflow: 'plan_analyze' }) });
    const result = await gate.before(call(bashTool, { command: 'npm install' }));
    expect(result).toMatchObject({ allow: false, reason: expect.stringContaining('plan mode') });
  });

  it('after fires post_tool hooks with the result the model saw', async () => {
    const gate = createToolGate({
      policy: new PermissionPolicy({ root: fx.project, preference: 'yolo' }),
      hooks: hooks([{ name: 'record', event: 'post_tool', command: 'printf "%s|%s|%s|%s" "$SEEK_TOOL_NAME" "$SEEK_TOOL_ARGS_JSON" "$SEEK_TOOL_RESULT" "$SEEK_TOOL_EXIT_OK" > post.txt' }]),
      subagent: { id: 'sub-1', description: 'd' },
    });
    const c = call(bashTool, { command: 'false' });
    await gate.after({ ...c, result: { content: 'exit code 1', isError: true }, durationMs: 5 });
    expect(readFileSync(path.join(fx.project, 'post.txt'), 'utf8')).toBe('bash|{"command":"false"}|exit code 1|0');
    expect(fx.readAuditLines()[0]).toMatchObject({ event: 'post_tool', subagent_id: 'sub-1' });
  });
});
