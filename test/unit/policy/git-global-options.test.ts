import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShellParser } from '../../../src/policy/shell-parser.js';
import { coverCommand, denyMatch } from '../../../src/policy/command-rules.js';

/** A rule on `git push` sees the subcommand behind git's own options; a command-line alias is unknown. */
let root: string;
beforeAll(() => loadShellParser());
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-git-options-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('git global options before the subcommand', () => {
  it('deny and ask rules on a subcommand match it behind -C, -c, --git-dir, --no-pager and the like', () => {
    for (const line of ['git -C . push', 'git -C /tmp/x push origin main', 'git --git-dir=.git --work-tree . push', 'git -c user.name=x push', 'git --no-pager -P push', 'git --namespace n push', 'git --exec-path=/x push', 'cd a && git -C .. push -f']) {
      expect(denyMatch('git push:*', line), line).toBeDefined();
    }
  });

  it('an alias or a setting not known before the command runs matches every deny rule (it may run anything)', () => {
    for (const line of ['git -c alias.p=push p', 'git -c Alias.x=!sh x', 'git -C . -c alias.p=push p', 'git --config-env=alias.p=VAR p', 'git --config-env alias.p=VAR p', 'git -c "$X" status', 'git $OPT push']) {
      const hit = denyMatch('curl:*', line);
      expect(hit, line).toBeDefined();
      expect(hit !== 'whole' && hit?.unresolved, line).toBeTruthy();
    }
  });

  it('leaves plain subcommands and unrelated rules alone; allow rules do not cover git behind options', () => {
    expect(denyMatch('git push:*', 'git status')).toBeUndefined();
    expect(denyMatch('git push:*', 'git -C . status')).toBeUndefined();
    expect(denyMatch('git push:*', 'git log --grep push')).toBeUndefined();
    expect(denyMatch('curl:*', 'git -c color.ui=never log')).toBeUndefined();
    const allow = (pattern: string, line: string) => coverCommand(line, [{ tool: 'bash', pattern, decision: 'allow', source: 'user' }], { root }) !== undefined;
    expect(allow('git status:*', 'git status')).toBe(true);
    expect(allow('git status:*', 'git -C /elsewhere status')).toBe(false);
  });
});
