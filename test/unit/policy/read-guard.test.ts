import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRuleText } from '../../../src/policy/rule-syntax.js';
import { readGuard } from '../../../src/policy/read-guard.js';
import type { PolicyRule } from '../../../src/policy/types.js';
import { deniedPaths } from '../../../src/runtime/permissions.js';
import { filterDeniedDiffs, gitReadRefusal, headerPaths } from '../../../src/tools/git-read-guard.js';

let root: string;
const at = (...parts: string[]) => path.join(root, ...parts);
const deny = (...texts: string[]): PolicyRule[] => texts.flatMap((t) => parseRuleText(t, 'deny', 'project', ['read_file', 'grep']).rules);
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-guard-')));
  mkdirSync(at('secrets'), { recursive: true });
  writeFileSync(at('.env'), 'S');
  writeFileSync(at('secrets', 'k'), 'S');
  symlinkSync('.env', at('alias'));
  linkSync(at('secrets', 'k'), at('hard'));
  writeFileSync(at('free.txt'), 'x');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the read guard', () => {
  const guard = () => readGuard(deny('Read(.env)', 'Read(./secrets/**)'), root);

  it('judges every spelling: any depth, case, .., //, trailing slash, a symlink, a hard link', () => {
    const g = guard();
    for (const p of ['.env', 'a/b/.env', '.ENV', 'a/../.env', 'alias']) expect(g.denied(at(p)), p).toBe('Read(.env)');
    for (const p of ['secrets//k', 'secrets/', 'secrets/k/', 'hard']) expect(g.denied(at(p)), p).toBe('Read(./secrets/**)');
    expect(g.denied(at('free.txt'))).toBeUndefined();
    expect(g.denied(at('.envrc'))).toBeUndefined();
  });

  it('a relative rule holds in another root (a child\'s worktree); no rule: inactive', () => {
    expect(readGuard(deny('Read(./secrets/**)'), '/wt/child').denied('/wt/child/secrets/k')).toBe('Read(./secrets/**)');
    expect(readGuard(deny('Grep(*.log)'), root, 'read_file').active).toBe(false);
    expect(readGuard(deny('Grep(*.log)'), root, 'grep').denied(at('x.log'))).toBe('Grep(*.log)');
  });

  it('sandbox entries: relative globs are kept, globs outside the root are not', () => {
    const rules = deny('Read(./.env.*)', 'Read(.env)', 'Read(**/*.pem)', 'Read(./secrets/**)', 'Read(~/.aws/*)', 'Read(//etc/*.conf)', 'Read(~/.ssh/id)');
    expect(deniedPaths(rules, '/home/u', ['read'])).toEqual(['.env.*', '**/.env', '**/*.pem', 'secrets', '/home/u/.ssh/id']);
  });
});

describe('the git tool under the read guard', () => {
  const ctx = () => ({ cwd: root, projectRoot: root, readDenied: (p: string) => readGuard(deny('Read(.env)'), root).denied(p) });

  it('refuses denied REV:PATH and blame, cat-file by id, the pickaxe, header-hiding options', () => {
    expect(gitReadRefusal('show', ['HEAD:.env'], ctx())).toMatch(/denied by the rule Read\(\.env\)/);
    expect(gitReadRefusal('show', ['HEAD~2:./a/.ENV'], ctx())).toMatch(/denied/);
    expect(gitReadRefusal('blame', ['--', '.env'], ctx())).toMatch(/denied/);
    expect(gitReadRefusal('cat-file', ['-p', 'abc123'], ctx())).toMatch(/only -t/);
    expect(gitReadRefusal('cat-file', ['-t', 'abc123'], ctx())).toBeUndefined();
    for (const args of [['-S', 'x'], ['-pSx'], ['-G', 'x'], ['--line-prefix=X'], ['--word-diff'], ['--color=always'], ['--graph'], ['--check'], ['-z']]) {
      expect(gitReadRefusal('log', args, ctx()), args.join(' ')).toMatch(/not allowed/);
    }
    expect(gitReadRefusal('log', ['-p', '--stat', '--color=never'], ctx())).toBeUndefined();
    expect(gitReadRefusal('show', ['HEAD:.env'], { cwd: root, projectRoot: root })).toBeUndefined();
  });

  it('drops the diff sections of denied files, keeps the rest and the log around them', () => {
    const out = [
      'commit 1', '', '    msg', '',
      'diff --git a/.env b/.env', 'index 1..2 100644', '--- a/.env', '+++ b/.env', '@@ -1 +1,2 @@', ' K=SECRET', '', '+N=SECRET',
      'diff --git a/free.txt b/free.txt', '@@ -1 +1 @@', '-a', '+b',
      'commit 2', 'diff --git "a/sub/\\056env" "b/sub/\\056env"', '+SECRET',
    ];
    const kept = filterDeniedDiffs(out, [root], ctx().readDenied).join('\n');
    expect(kept).not.toContain('SECRET');
    expect(kept).toContain('+b');
    expect(kept).toContain('commit 2');
    expect(kept).toContain('left out');
    expect(headerPaths('diff --git a/my file b/my file')).toContain('my file');
  });
});
