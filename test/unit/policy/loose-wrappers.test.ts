import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShellParser } from '../../../src/policy/shell-parser.js';
import { coverCommand, denyMatch } from '../../../src/policy/command-rules.js';

/** Wrappers whose options seek does not model (strace, unshare, fakeroot…): a rule on the command
 * they run still matches, whichever word starts it; `watch` runs its words as shell code. */
let root: string;
beforeAll(() => loadShellParser());
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-loose-wrappers-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('loose wrappers', () => {
  it('a deny rule on git push matches it behind tracers, namespaces, fake roots and proxies, options or not', () => {
    for (const line of [
      'strace git push',
      'strace -f -e trace=execve git push origin main',
      'ltrace -o /tmp/x git push',
      'valgrind --tool=none git push',
      'gdb --args git push',
      'unshare -r git push',
      'nsenter -t 1 -m git push',
      'setarch x86_64 -R git push',
      'fakeroot -- git push',
      'firejail --noprofile git push',
      'xvfb-run -a git push',
      'proxychains4 -q git push',
      'eatmydata git push',
      'faketime "2020-01-01" git push',
      'systemd-run --user --wait git push',
      'cd src && strace -f git -C .. push',
      'watch -n 5 git push',
      "watch 'git push'",
      'watch -x git push',
    ]) {
      expect(denyMatch('git push:*', line), line).toBeDefined();
    }
  });

  it('a word not known before the command runs is unknown and matches every deny rule', () => {
    const hit = denyMatch('curl:*', 'strace -o "$LOG" ls');
    expect(hit).toBeDefined();
    expect(hit !== 'whole' && hit?.unresolved).toBeTruthy();
  });

  it('leaves other commands alone, and an allow rule on the inner command does not cover the wrapper', () => {
    expect(denyMatch('git push:*', 'strace -f git status')).toBeUndefined();
    expect(denyMatch('git push:*', 'watch -n 1 git status')).toBeUndefined();
    const allow = (pattern: string, line: string) => coverCommand(line, [{ tool: 'bash', pattern, decision: 'allow', source: 'user' }], { root }) !== undefined;
    expect(allow('git status:*', 'strace git status')).toBe(false);
  });
});
