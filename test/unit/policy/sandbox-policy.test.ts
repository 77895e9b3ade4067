import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionRequest } from '../../../src/agent/types.js';
import { PermissionPolicy, PolicySpawnError, type PolicyRule, type Preference } from '../../../src/policy/index.js';

let base: string;
let root: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-sandbox-policy-')));
  root = path.join(base, 'project');
  mkdirSync(root, { recursive: true });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const AVAILABLE = { available: true } as const;
const MISSING = { available: false, reason: 'bubblewrap (bwrap) is not installed' } as const;

function bash(command: string, extra: Partial<ActionRequest> = {}): ActionRequest {
  return { kind: 'bash', paths: [root], command, summary: `bash: ${command}`, ...extra };
}

function policy(preference: Preference, sandbox: { available: boolean; reason?: string } = AVAILABLE, rules: PolicyRule[] = []): PermissionPolicy {
  return new PermissionPolicy({ root, preference, sandbox, rules });
}

describe('which commands run sandboxed, and in which profile', () => {
  it('read-only inspectors run in the read-only sandbox in every mode but yolo-unsandboxed requests', () => {
    for (const preference of ['deny', 'ask', 'auto'] as const) {
      expect(policy(preference).evaluate(bash('git status'), { tool: 'bash', canAsk: true })).toEqual({ decision: 'allow', code: 'inspector', sandbox: 'read-only' });
    }
    const planning = new PermissionPolicy({ root, preference: 'yolo', workflow: 'plan_analyze', sandbox: AVAILABLE });
    expect(planning.evaluate(bash('ls -la'), { tool: 'bash' })).toMatchObject({ decision: 'allow', sandbox: 'read-only' });
  });

  it('--auto: commands inside the project run in workspace-write; edits run; outside paths and memory still ask', () => {
    const auto = policy('auto');
    expect(auto.evaluate(bash('npm test'), { tool: 'bash', canAsk: true })).toEqual({ decision: 'allow', code: 'auto', sandbox: 'workspace-write' });
    expect(auto.evaluate({ kind: 'edit', paths: [path.join(root, 'a.ts')], summary: 'edit' }, { tool: 'edit_file' })).toEqual({ decision: 'allow', code: 'auto' });
    expect(auto.evaluate({ kind: 'write', paths: [path.join(base, 'elsewhere.txt')], summary: 'w' }, { tool: 'write_file', canAsk: true }).decision).toBe('ask');
    expect(auto.evaluate({ kind: 'write', paths: [path.join(base, 'elsewhere.txt')], summary: 'w' }, { tool: 'write_file' }).decision).toBe('deny');
    expect(auto.evaluate(bash('make', { paths: [base] }), { tool: 'bash', canAsk: true }).decision).toBe('ask');
    expect(auto.evaluate({ kind: 'memory', paths: [], summary: 'remember' }, { tool: 'memory_remember' }).decision).toBe('deny');
  });

  it('a command that asks to leave the sandbox needs a person (ask) and is denied headless, even under --auto', () => {
    const leave = bash('npm install', { unsandboxed: true });
    expect(policy('auto').evaluate(leave, { tool: 'bash', canAsk: true }).decision).toBe('ask');
    const denied = policy('auto').evaluate(leave, { tool: 'bash' });
    expect(denied.decision === 'deny' && denied.message).toMatch(/outside the sandbox needs the user's approval/);
    expect(policy('deny').evaluate(bash('git status', { unsandboxed: true }), { tool: 'bash' }).decision).toBe('deny');
    expect(policy('yolo').evaluate(leave, { tool: 'bash' })).toEqual({ decision: 'allow', code: 'yolo' });
  });

  it('config allow rules run their commands sandboxed; a person\'s "always" (session rule) does not', () => {
    for (const source of ['user', 'project', 'local'] as const) {
      const fromConfig = policy('deny', AVAILABLE, [{ tool: 'bash', pattern: 'npm test', decision: 'allow', source }]);
      expect(fromConfig.evaluate(bash('npm test'), { tool: 'bash' })).toMatchObject({ decision: 'allow', code: 'rule', sandbox: 'workspace-write' });
    }
    const answered = policy('ask');
    answered.addRule({ tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' });
    const decision = answered.evaluate(bash('npm test'), { tool: 'bash', canAsk: true });
    expect(decision).toMatchObject({ decision: 'allow', code: 'rule' });
    expect(decision.decision === 'allow' && decision.sandbox).toBeUndefined();
  });

  it('an approved plan runs its commands in workspace-write', () => {
    const plan = new PermissionPolicy({ root, preference: 'deny', workflow: 'plan_analyze', sandbox: AVAILABLE });
    plan.approvePlan();
    expect(plan.evaluate(bash('npm run build'), { tool: 'bash' })).toEqual({ decision: 'allow', code: 'plan_execute', sandbox: 'workspace-write' });
  });

  it('yolo runs unsandboxed', () => {
    expect(policy('yolo').evaluate(bash('npm test'), { tool: 'bash' })).toEqual({ decision: 'allow', code: 'yolo' });
  });
});

describe('no sandbox on this machine: never run unsandboxed what would have been sandboxed', () => {
  it('inspectors, --auto commands, config rules and plan steps are asked interactively and denied headless, with the reason', () => {
    const cases: PermissionPolicy[] = [policy('deny', MISSING), policy('auto', MISSING), policy('deny', MISSING, [{ tool: 'bash', decision: 'allow', source: 'user' }])];
    const approved = new PermissionPolicy({ root, preference: 'deny', workflow: 'plan_analyze', sandbox: MISSING });
    approved.approvePlan();
    cases.push(approved);
    for (const p of cases) {
      const headless = p.evaluate(bash('git status'), { tool: 'bash' });
      expect(headless.decision).toBe('deny');
      expect(headless.decision === 'deny' && headless.message).toMatch(/no OS sandbox is available here \(bubblewrap \(bwrap\) is not installed; see `seek sandbox check`\)/);
    }
    const interactive = policy('auto', MISSING).evaluate(bash('npm test'), { tool: 'bash', canAsk: true });
    expect(interactive.decision === 'ask' && interactive.reason).toMatch(/needs approval \(no OS sandbox/);
  });

  it('plan mode says why an inspector was refused', () => {
    const plan = new PermissionPolicy({ root, workflow: 'plan_analyze', sandbox: MISSING });
    const refused = plan.evaluate(bash('ls'), { tool: 'bash' });
    expect(refused.decision === 'deny' && refused.message).toMatch(/Read-only commands run only in the OS sandbox/);
  });

  it('a policy built without sandbox information fails closed', () => {
    expect(new PermissionPolicy({ root, preference: 'deny' }).evaluate(bash('ls'), { tool: 'bash' }).decision).toBe('deny');
  });
});

describe('spawn: children are never looser than their parent', () => {
  const table: [Preference, Preference, boolean][] = [
    ['ask', 'auto', false],
    ['ask', 'yolo', false],
    ['auto', 'yolo', false],
    ['auto', 'auto', true],
    ['auto', 'ask', true],
    ['auto', 'deny', true],
    ['yolo', 'auto', true],
    ['deny', 'auto', false],
  ];
  it.each(table)('%s parent → %s child: allowed %s', (parent, child, allowed) => {
    const spawn = () => policy(parent).spawn({ preference: child });
    if (allowed) expect(spawn().preference).toBe(child);
    else expect(spawn).toThrow(PolicySpawnError);
  });

  it('children inherit the sandbox availability (a parent without one cannot have a child with one)', () => {
    expect(policy('auto', MISSING).spawn({ root: path.join(root, 'wt') }).sandbox).toEqual(MISSING);
    expect(policy('auto').spawn().sandbox).toEqual(AVAILABLE);
  });

  it('an isolated auto child writes in its own root: the decision is relative to the child root', () => {
    const worktree = path.join(base, 'worktree');
    mkdirSync(worktree, { recursive: true });
    const child = policy('auto').spawn({ root: worktree });
    expect(child.evaluate({ kind: 'bash', paths: [worktree], command: 'npm test', summary: 'x' }, { tool: 'bash' })).toMatchObject({ sandbox: 'workspace-write' });
    // The parent's project is outside the child's root: asked, denied headless.
    expect(child.evaluate(bash('npm test'), { tool: 'bash' }).decision).toBe('deny');
  });
});
