import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionRequest } from '../../../src/agent/types.js';
import { evaluatePolicy, type PolicyRule, type Preference, type Workflow } from '../../../src/policy/index.js';
import { protectedWrite } from '../../../src/policy/protected-paths.js';

/** Writes into git metadata and `.seek/` by seek's own file tools: only a person or yolo. */
let base: string;
let root: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-protected-')));
  root = path.join(base, 'project');
  mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  mkdirSync(path.join(root, 'src'), { recursive: true });
  symlinkSync('.git/hooks', path.join(root, 'hooks-link'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const write = (rel: string, kind: 'write' | 'edit' = 'write'): ActionRequest => ({ kind, paths: [path.join(root, rel)], summary: `${kind} ${rel}` });

function decide(request: ActionRequest, options: { preference?: Preference; workflow?: Workflow; preApproved?: boolean; rules?: PolicyRule[]; canAsk?: boolean } = {}) {
  return evaluatePolicy(
    { root, preference: options.preference ?? 'auto', workflow: options.workflow ?? 'none', preApproved: options.preApproved ?? false, rules: options.rules ?? [], sandbox: { available: true } },
    request,
    { tool: request.kind === 'edit' ? 'edit_file' : 'write_file', canAsk: options.canAsk ?? false },
  );
}

describe('protectedWrite', () => {
  it('names git metadata at any depth, through links and in any case, and .seek/ at the root', () => {
    for (const rel of ['.git/config', '.git', 'vendor/x/.git/config', 'sub/.git', 'hooks-link/pre-commit', '.GIT/config']) {
      expect(protectedWrite(root, path.join(root, rel)), rel).toMatch(/git metadata/);
    }
    expect(protectedWrite(root, path.join(root, '.seek/config.json'))).toMatch(/seek configuration/);
    for (const rel of ['src/a.ts', '.gitignore', '.github/workflows/ci.yml', 'docs/.seek/x', 'a.git/x']) expect(protectedWrite(root, path.join(root, rel)), rel).toBeUndefined();
    expect(protectedWrite(root, path.join(base, 'elsewhere', '.git', 'config'))).toBeUndefined();
  });

  it('names what NTFS and HFS+ read as .git or .seek: trailing dots and spaces, streams, 8.3 names, ignored characters', () => {
    for (const rel of ['.git./config', '.git /config', '.git::$INDEX_ALLOCATION/config', 'GIT~1/config', '.g\u200cit/config', 'sub/.GIT\ufeff/hooks/x']) {
      expect(protectedWrite(root, path.join(root, rel)), JSON.stringify(rel)).toMatch(/git metadata/);
    }
    for (const rel of ['.seek./config.json', 'SEEK~1/config.json', '.se\u200dek/hooks.toml']) {
      expect(protectedWrite(root, path.join(root, rel)), JSON.stringify(rel)).toMatch(/seek configuration/);
    }
    for (const rel of ['.gitx/config', 'git/config', '..git/x', 'docs/.seek./x']) expect(protectedWrite(root, path.join(root, rel)), rel).toBeUndefined();
  });
});

describe('the policy on a protected write', () => {
  it('--auto, an approved plan and allow rules from config files do not allow it; headless it is denied saying why', () => {
    const everything: PolicyRule[] = [{ tool: 'write_file', pattern: '**', decision: 'allow', source: 'user' }, { tool: 'write_file', pattern: '**', decision: 'allow', source: 'project' }];
    const cases = [decide(write('.git/config')), decide(write('.git/hooks/pre-commit'), { workflow: 'plan_execute', preApproved: true }), decide(write('.seek/config.json', 'edit'), { preference: 'ask', rules: everything })];
    for (const decision of cases) {
      expect(decision.decision).toBe('deny');
      expect(decision.decision === 'deny' && decision.message).toMatch(/only with a person's approval/);
    }
    expect(decide(write('src/a.ts'), { preference: 'ask', rules: everything }).decision).toBe('allow');
    expect(decide(write('src/a.ts')).decision).toBe('allow');
  });

  it('is asked when someone can answer; a session rule (a person\'s "always") and yolo allow it; a deny rule still denies', () => {
    const asked = decide(write('.git/config'), { canAsk: true });
    expect(asked.decision).toBe('ask');
    expect(asked.decision === 'ask' && asked.reason).toMatch(/\.git\/config is git metadata/);
    expect(decide(write('.git/config'), { rules: [{ tool: 'write_file', pattern: '.git/**', decision: 'allow', source: 'session' }] }).decision).toBe('allow');
    expect(decide(write('.git/config'), { preference: 'yolo' }).decision).toBe('allow');
    expect(decide(write('.git/config'), { preference: 'yolo', rules: [{ tool: 'write_file', pattern: '.git/**', decision: 'deny', source: 'user' }] }).decision).toBe('deny');
  });
});
