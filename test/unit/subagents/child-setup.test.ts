import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../../src/policy/policy.js';
import type { Preference, Workflow } from '../../../src/policy/types.js';
import { childPolicy, childSystemPrompt, childToolNames } from '../../../src/subagents/child-setup.js';
import type { SubagentPermission, SubagentType } from '../../../src/subagents/types.js';

const ALL = ['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'list_dir', 'git', 'todo_write', 'agent'];
const READ_ONLY = ['read_file', 'grep', 'glob', 'list_dir', 'git'];

function type(overrides: Partial<SubagentType> = {}): SubagentType {
  return { name: 't', description: 'd', source: 'builtin', instructions: '', permission: 'inherit', ...overrides };
}

describe('child tools', () => {
  it('general-purpose gets the parent tools minus todo_write and agent', () => {
    expect(childToolNames(type(), ALL, false)).toEqual(['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'list_dir', 'git']);
  });

  it('keeps agent only when depth allows', () => {
    expect(childToolNames(type(), ALL, true)).toContain('agent');
    expect(childToolNames(type({ tools: ['read_file', 'agent'] }), ALL, true)).toEqual(['read_file', 'agent']);
    expect(childToolNames(type({ tools: ['read_file'] }), ALL, true)).toEqual(['read_file']);
  });

  it('explore gets the read-only set in the parent order, never more than the parent has', () => {
    expect(childToolNames(type({ tools: READ_ONLY }), ALL, false)).toEqual(['read_file', 'glob', 'grep', 'list_dir', 'git']);
    expect(childToolNames(type({ tools: ['read_file', 'bash'] }), ['read_file', 'grep'], false)).toEqual(['read_file']);
  });
});

describe('child policy (tighten only)', () => {
  const cases: Array<[Preference, Workflow, SubagentPermission, string]> = [
    ['yolo', 'none', 'plan', 'plan'],
    ['yolo', 'none', 'inherit', 'yolo'],
    ['yolo', 'none', 'ask', 'ask'],
    ['ask', 'none', 'yolo', 'ask'], // capped at the parent
    ['ask', 'none', 'deny', 'deny'],
    ['deny', 'none', 'yolo', 'deny'],
    ['ask', 'plan_analyze', 'inherit', 'plan'],
    ['yolo', 'plan_analyze', 'yolo', 'plan'],
    // --auto: a child is never looser (no yolo under auto, no auto under ask), and an explore
    // child of an auto parent is plan: its commands run only in the read-only sandbox.
    ['auto', 'none', 'inherit', 'auto'],
    ['auto', 'none', 'yolo', 'auto'],
    ['auto', 'none', 'ask', 'ask'],
    ['auto', 'none', 'plan', 'plan'],
    ['ask', 'none', 'auto', 'ask'],
    ['deny', 'none', 'auto', 'deny'],
    ['yolo', 'none', 'auto', 'auto'],
  ];
  it.each(cases)('%s parent in %s, type asks %s → %s', (preference, workflow, permission, mode) => {
    const parent = new PermissionPolicy({ root: '/repo', preference, workflow, sandbox: { available: true } });
    const child = childPolicy(parent, type({ permission }));
    expect(child.mode).toBe(mode);
    // The sandbox a child's commands get is decided by the child's own (tighter) policy.
    const bash = { kind: 'bash' as const, paths: ['/repo'], command: 'make', summary: 'make' };
    const decision = child.evaluate(bash, { tool: 'bash' });
    if (mode === 'plan' || mode === 'deny' || mode === 'ask') expect(decision.decision).toBe('deny');
    if (mode === 'auto') expect(decision).toMatchObject({ decision: 'allow', sandbox: 'workspace-write' });
    if (mode === 'yolo') expect(decision.decision === 'allow' && decision.sandbox).toBeUndefined();
  });

  it('never inherits plan pre-approval', () => {
    const parent = new PermissionPolicy({ root: '/repo', preference: 'ask' });
    parent.approvePlan();
    const child = childPolicy(parent, type());
    expect(child.preApproved).toBe(false);
  });
});

describe('child system prompt', () => {
  it('starts with the parent bytes, then role clause, type instructions and length hint', () => {
    const parent = 'You are seek.\n\n# Environment\n- Date: 2026-11-22';
    const prompt = childSystemPrompt(parent, type({ instructions: 'Research only.' }), 'find the loop');
    expect(prompt.startsWith(`${parent}\n\n# Subagent\n`)).toBe(true);
    expect(prompt).toContain('You are a subagent spawned by the parent agent for: find the loop.');
    expect(prompt.indexOf('Research only.')).toBeGreaterThan(prompt.indexOf('spawned by the parent'));
    expect(prompt).toMatch(/4,000 characters/);
  });
});

describe('child model', () => {
  it('inherits, maps Claude aliases under Anthropic only, and refuses another provider\'s model', async () => {
    const { childModel } = await import('../../../src/subagents/child-setup.js');
    expect(childModel(undefined, 'deepseek-v4-flash', 'deepseek')).toEqual({ model: 'deepseek-v4-flash' });
    expect(childModel('deepseek-v4-pro', 'deepseek-v4-flash', 'deepseek')).toEqual({ model: 'deepseek-v4-pro' });
    expect(childModel('haiku', 'claude-sonnet-4-6', 'anthropic')).toEqual({ model: 'claude-haiku-4-5' });
    expect(childModel('sonnet', 'deepseek-v4-flash', 'deepseek').model).toBe('deepseek-v4-flash');
    expect(childModel('gpt-5', 'deepseek-v4-flash', 'deepseek')).toMatchObject({ model: 'deepseek-v4-flash', note: expect.stringContaining('openai') });
    expect(childModel('qwen3-coder', 'x', 'openai-compatible')).toEqual({ model: 'qwen3-coder' });
  });
});
