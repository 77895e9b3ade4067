import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionRequest } from '../../../src/agent/types.js';
import { PermissionPolicy, pathMatches, type PolicyRule, type Preference } from '../../../src/policy/index.js';
import { parseRuleText } from '../../../src/policy/rule-syntax.js';
import { mergeGuard, writeCheckFor } from '../../../src/policy/write-guard.js';

/** The checks of writes made by routes other than the file tools' own decision: a worktree's merge
 * back (mergeGuard) and the file a write really lands on (writeCheckFor). */
let base: string;
let root: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-write-guard-')));
  root = path.join(base, 'project');
  mkdirSync(path.join(root, 'deploy'), { recursive: true });
  mkdirSync(path.join(root, '.git'), { recursive: true });
  writeFileSync(path.join(root, 'deploy', 'prod.yml'), 'replicas: 2\n');
  writeFileSync(path.join(root, 'notes.txt'), 'notes\n');
  symlinkSync('deploy/prod.yml', path.join(root, 'alias.yml'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const rules = (deny: string[], ask: string[] = []): PolicyRule[] => [
  ...deny.flatMap((text) => parseRuleText(text, 'deny', 'project', ['write_file', 'edit_file']).rules),
  ...ask.flatMap((text) => parseRuleText(text, 'ask', 'project', ['write_file', 'edit_file']).rules),
];
const policy = (preference: Preference, deny: string[] = ['Edit(./deploy/prod.yml)'], ask: string[] = []) =>
  new PermissionPolicy({ root, preference, rules: rules(deny, ask), sandbox: { available: true } });

describe('mergeGuard', () => {
  it('refuses denied, ask-ruled and protected files (protected ones but in yolo), in the tree merged into', () => {
    const files = ['deploy/prod.yml', 'docs/a.md', '.seek/config.json', 'vendor/.git/config', 'src/x.ts'];
    const auto = mergeGuard(policy('auto', ['Edit(./deploy/prod.yml)'], ['Edit(docs/**)']))(root, files);
    expect(auto.map((r) => r.file)).toEqual(['deploy/prod.yml', 'docs/a.md', '.seek/config.json', 'vendor/.git/config']);
    expect(auto[0]!.reason).toBe('denied by Edit(./deploy/prod.yml) (a project rule)');
    expect(auto[1]!.reason).toMatch(/^the ask rule Edit\(docs\/\*\*\) .* needs a person's yes/);
    expect(auto[2]!.reason).toMatch(/seek configuration, which needs a person's yes in every mode but --yolo/);
    const yolo = mergeGuard(policy('yolo'))(root, files);
    expect(yolo.map((r) => r.file)).toEqual(['deploy/prod.yml']);
    // A relative rule is anchored at the tree merged into: another tree's deploy/prod.yml is its own.
    expect(mergeGuard(policy('yolo'))(path.join(base, 'other'), ['deploy/prod.yml']).map((r) => r.file)).toEqual(['deploy/prod.yml']);
  });
});

describe('writeCheckFor', () => {
  const action = (rel: string): ActionRequest => ({ kind: 'write', paths: [path.join(root, rel)], summary: `write ${rel}` });

  it('passes what the policy allows by itself and the very file a person approved; refuses a file reached otherwise', () => {
    const autoCheck = writeCheckFor(policy('auto'), 'write_file', action('notes.txt'), root, [])!;
    expect(autoCheck(path.join(root, 'notes.txt'))).toBeUndefined();
    expect(autoCheck(path.join(root, 'deploy/prod.yml'))).toMatch(/not the file that was approved .*denied by Edit\(\.\/deploy\/prod\.yml\)/);
    expect(autoCheck(path.join(root, '.git/config'))).toMatch(/needs its own approval; nothing was written/);
    // Ask mode: nothing is allowed by itself; the approved file is, a link's other end is not.
    const approved = [path.join(root, '.git/config')];
    const asked = writeCheckFor(policy('ask'), 'write_file', action('.git/config'), root, approved)!;
    expect(asked(path.join(root, '.git/config'))).toBeUndefined();
    expect(asked(path.join(root, 'notes.txt'))).toMatch(/not the file that was approved/);
    // A deny rule wins over a person's yes (it was given to another file).
    const denied = writeCheckFor(policy('ask'), 'write_file', action('alias.yml'), root, [path.join(root, 'deploy/prod.yml')])!;
    expect(denied(path.join(root, 'deploy/prod.yml'))).toMatch(/denied by/);
    expect(writeCheckFor(policy('auto'), 'bash', { kind: 'bash', paths: [], command: 'ls', summary: 'ls' }, root, [])).toBeUndefined();
  });
});

describe('deny and ask rules ignore case', () => {
  // On every platform: a case-insensitive file system (APFS, HFS+, NTFS by default; also a mounted
  // one on Linux) opens `Deploy/PROD.yml` for a rule on `deploy/prod.yml`, and a deny rule errs
  // on the side of denying. Allow rules keep their case.
  it('match another case of the path (the same file there), and only deny and ask rules do', () => {
    const target = path.join(root, 'Deploy', 'PROD.yml');
    expect(pathMatches('deploy/prod.yml', target, root, true)).toBe(true);
    expect(pathMatches('deploy/prod.yml', target, root, false)).toBe(false);
  });
});
