import { beforeAll, describe, expect, it } from 'vitest';
import { grantRules, projectGrantsHash } from '../../../src/extensions/grants.js';
import { ToolScope } from '../../../src/extensions/allowed-tools.js';
import { PermissionPolicy } from '../../../src/policy/policy.js';
import { readSlashPrompt, nearest } from '../../../src/cli/headless-slash.js';
import { loadShellParser } from '../../../src/policy/shell-parser.js';

beforeAll(() => loadShellParser()); // rules on bash commands judge them with the bash grammar

const root = '/work/project';
const sandbox = { available: true };
const bash = (command: string) => ({ kind: 'bash' as const, paths: [root], command, summary: command });
const edit = (path: string) => ({ kind: 'edit' as const, paths: [path], summary: `edit ${path}` });

function policyWith(entries: string[], rules: ConstructorParameters<typeof PermissionPolicy>[0]['rules'] = [], preference: 'deny' | 'yolo' = 'deny') {
  const policy = new PermissionPolicy({ root, preference, rules, sandbox });
  const scope = new ToolScope(policy);
  const notices = scope.grant({ by: '/x', tools: ['bash', 'edit_file'], grant: { file: `${root}/.claude/commands/x.md`, source: 'user-claude', entries } });
  return { policy, scope, notices };
}

describe("a command's allowed-tools grants", () => {
  it('allow what they list for the turn, sandboxed, and nothing once the turn is reset', () => {
    const { policy, scope } = policyWith(['Bash(git commit:*)', 'Edit']);
    expect(policy.evaluate(bash('git commit -m x'), { tool: 'bash' })).toMatchObject({ decision: 'allow', code: 'rule', sandbox: 'workspace-write' });
    expect(policy.evaluate(bash('git push'), { tool: 'bash' }).decision).toBe('deny');
    expect(policy.evaluate(edit(`${root}/src/a.ts`), { tool: 'edit_file' }).decision).toBe('allow');
    // Inside the project only.
    expect(policy.evaluate(edit('/etc/passwd'), { tool: 'edit_file' }).decision).toBe('deny');
    scope.reset();
    expect(policy.evaluate(bash('git commit -m x'), { tool: 'bash' }).decision).toBe('deny');
  });

  it('never pass a deny rule or a config ask rule, change nothing under yolo, and are not inherited', () => {
    const { policy } = policyWith(['Bash'], [
      { tool: 'bash', pattern: 'rm:*', decision: 'deny', source: 'user' },
      { tool: 'bash', pattern: 'git push:*', decision: 'ask', source: 'project' },
    ]);
    expect(policy.evaluate(bash('rm -rf x'), { tool: 'bash' }).decision).toBe('deny');
    expect(policy.evaluate(bash('git push'), { tool: 'bash' })).toMatchObject({ decision: 'deny', code: 'ask_rule' });
    expect(policy.evaluate(bash('make'), { tool: 'bash' }).decision).toBe('allow');
    expect(policy.spawn().evaluate(bash('make'), { tool: 'bash' }).decision).toBe('deny');
    const yolo = policyWith(['Bash'], [], 'yolo').policy;
    expect(yolo.evaluate(bash('make'), { tool: 'bash' })).toEqual({ decision: 'allow', code: 'yolo' });
  });

  it("of a project's file wait for trust, and drop paths outside the project", () => {
    const policy = new PermissionPolicy({ root, preference: 'deny', sandbox });
    const scope = new ToolScope(policy);
    const limit = { by: '/commit', tools: ['bash'], grant: { file: `${root}/.claude/commands/commit.md`, source: 'project-claude' as const, entries: ['Bash(git commit:*)'] } };
    expect(scope.grant(limit)[0]).toContain('are not pre-approved');
    expect(policy.evaluate(bash('git commit -m x'), { tool: 'bash' }).decision).toBe('deny');
    scope.projectGrantsTrusted = true;
    expect(scope.grant(limit)).toEqual([]);
    expect(policy.evaluate(bash('git commit -m x'), { tool: 'bash' }).decision).toBe('allow');
    const dropped: string[] = [];
    expect(grantRules(['Read(//etc/**)', 'Edit(~/.ssh/**)'], 'f', (what) => dropped.push(what))).toEqual([]);
    expect(dropped).toHaveLength(2);
    const file = { by: '/c', file: `${root}/.claude/commands/c.md`, source: 'project-claude' as const, entries: ['Bash'] };
    expect(projectGrantsHash([file], root)).toBe(projectGrantsHash([{ ...file }], root));
    expect(projectGrantsHash([file], root)).not.toBe(projectGrantsHash([{ ...file, entries: ['Bash', 'Edit'] }], root));
    expect(projectGrantsHash([{ ...file, source: 'user' }], root)).toBeUndefined();
  });
});

describe('headless slash words', () => {
  it('are a first word without another slash; // is a literal slash', () => {
    expect(readSlashPrompt('/code-review 42')).toEqual({ kind: 'command', word: 'code-review', args: '42' });
    expect(readSlashPrompt('/usr/bin/foo is broken')).toEqual({ kind: 'prompt', text: '/usr/bin/foo is broken' });
    expect(readSlashPrompt('//help me')).toEqual({ kind: 'prompt', text: '/help me' });
    expect(nearest('comit', ['commit', 'compact'])).toBe('commit');
    expect(nearest('zzz', ['commit'])).toBeUndefined();
  });
});
