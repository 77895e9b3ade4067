import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  PermissionPolicy,
  PolicySpawnError,
  isReadOnlyInspector,
  preferenceMayBecome,
  workflowMayBecome,
  shellWords,
  type Preference,
  type Workflow,
} from '../../../src/policy/index.js';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-inspect-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('read-only bash inspectors', () => {
  const scope = { root };
  it.each([
    'ls -la',
    'cat package.json',
    'head -n 20 src/a.ts',
    'tail README.md',
    'wc -l src/*.ts',
    'pwd',
    'which node',
    'echo hello',
    'git status',
    'git log --oneline -5',
    'git diff HEAD~1',
    'git show HEAD:src/a.ts',
    'git branch',
    'npm --version',
    'node --version',
    'rg -n "TODO" src',
    "grep -rn 'foo' .",
    'find . -name "*.ts" -type f',
  ])('allows %s', (command) => {
    expect(isReadOnlyInspector(command, scope)).toBe(true);
  });

  it.each([
    ['ls; rm -rf /', 'chained'],
    ['cat a && rm b', 'and'],
    ['cat a | sh', 'pipe'],
    ['echo x > file', 'redirect'],
    ['cat < /etc/passwd', 'input redirect'],
    ['echo $HOME', 'expansion'],
    ['echo `id`', 'backticks'],
    ['echo $(id)', 'substitution'],
    ['ls\nrm -rf x', 'newline'],
    ['find . -exec rm {} +', 'find -exec'],
    ['find . "-delete"', 'quoted -delete'],
    ['rg --pre ./evil foo', 'rg --pre'],
    ['git push', 'git push'],
    ['git branch new-feature', 'git branch create'],
    ['git -c core.pager=sh log', 'git global options'],
    ['git diff --output=/tmp/x', 'git diff --output'],
    ['npm install', 'npm install'],
    ['npm ls', 'npm ls reads the project .npmrc'],
    ['printenv', 'printenv hands out every secret'],
    ['printenv OPENAI_API_KEY', 'printenv NAME'],
    ['env', 'env'],
    ['node script.js', 'node runs code'],
    ['rm -rf build', 'not whitelisted'],
    ['date -us 2020-01-01', 'clustered -s'],
    ['cat /etc/passwd', 'absolute path outside'],
    ['cat ../../etc/passwd', '.. outside'],
    ['cat ~/.ssh/id_rsa', 'home outside'],
    ['find / -name x', 'find from /'],
    ['grep -r x --file=/etc/hosts', 'option value outside'],
    ['cat "unterminated', 'unterminated quote'],
  ])('refuses %s (%s)', (command) => {
    expect(isReadOnlyInspector(command, scope)).toBe(false);
  });

  it('allows absolute paths inside the project', () => {
    expect(isReadOnlyInspector(`cat ${path.join(root, 'a.txt')}`, scope)).toBe(true);
  });

  it('tokenises quotes and escapes like bash', () => {
    expect(shellWords(`a "b c" 'd e' f\\ g`)).toEqual(['a', 'b c', 'd e', 'f g']);
  });
});

describe('spawn tightening (seek-spec 2.3 transition table)', () => {
  const prefs: Preference[] = ['deny', 'ask', 'yolo'];
  const flows: Workflow[] = ['none', 'plan_analyze', 'plan_execute'];

  it('preference: deny→deny; ask→deny|ask; yolo→any', () => {
    const allowed = prefs.map((parent) => prefs.filter((child) => preferenceMayBecome(parent, child)));
    expect(allowed).toEqual([['deny'], ['deny', 'ask'], ['deny', 'ask', 'yolo']]);
  });

  it('workflow: none→any; plan_analyze→plan_analyze; plan_execute→plan_execute|plan_analyze', () => {
    const allowed = flows.map((parent) => flows.filter((child) => workflowMayBecome(parent, child)));
    expect(allowed).toEqual([flows, ['plan_analyze'], ['plan_analyze', 'plan_execute']]);
  });

  it('spawn applies the table: looser requests throw, absent fields inherit', () => {
    const parent = new PermissionPolicy({ root, preference: 'ask' });
    expect(() => parent.spawn({ preference: 'yolo' })).toThrow(PolicySpawnError);
    expect(parent.spawn().preference).toBe('ask');
    expect(parent.spawn({ preference: 'deny' }).preference).toBe('deny');

    const planning = new PermissionPolicy({ root, preference: 'yolo', workflow: 'plan_analyze' });
    expect(planning.spawn().workflow).toBe('plan_analyze');
    expect(() => planning.spawn({ workflow: 'none' })).toThrow(/cannot spawn/);
    // explore children: plan_analyze even under a yolo parent, keeping yolo.
    const explore = new PermissionPolicy({ root, preference: 'yolo' }).spawn({ workflow: 'plan_analyze' });
    expect([explore.preference, explore.workflow]).toEqual(['yolo', 'plan_analyze']);
  });

  it('never inherits preApproved; copies session rules; adds spawn rules that only tighten', () => {
    const parent = new PermissionPolicy({ root, preference: 'ask' });
    parent.approvePlan();
    parent.addRule({ tool: 'bash', pattern: 'make', decision: 'allow', source: 'session' });
    const worktree = path.join(root, 'wt');
    const child = parent.spawn({ root: worktree, rules: [{ tool: 'bash', decision: 'deny' }] });
    expect(child.preApproved).toBe(false);
    expect(child.workflow).toBe('plan_execute');
    expect(child.root).toBe(worktree);
    expect(child.rules.map((r) => r.source)).toEqual(['session', 'spawn']);
    expect(child.evaluate({ kind: 'bash', paths: [], command: 'make', summary: 'make' }, { tool: 'bash' }).decision).toBe('deny');
    expect(() => parent.spawn({ rules: [{ tool: 'bash', decision: 'allow' }] })).toThrow(/only deny or ask/);
    expect(() => parent.spawn({ root: 'relative' })).toThrow(/absolute/);
    // Rules added to the child later stay in the child.
    child.addRule({ tool: 'x', decision: 'allow', source: 'session' });
    expect(parent.rules).toHaveLength(1);
  });
});
