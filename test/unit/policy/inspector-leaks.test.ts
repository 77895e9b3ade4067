import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReadOnlyInspector } from '../../../src/policy/index.js';

// A real project (a git repository) next to a directory with a secret, linked from inside.
const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-inspect-leaks-')));
const root = path.join(base, 'project');
const outside = path.join(base, 'outside');
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(() => {
  mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), 'TOKEN=hunter2\n');
  writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(path.join(root, 'src', 'deep', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(path.join(root, 'docs', 'x.md'), '# x\n');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'docs', 'secret-link')); // file link out
  symlinkSync(outside, path.join(root, 'dir-link')); // directory link out
  symlinkSync(path.join(root, 'src', 'a.ts'), path.join(root, 'src', 'inner-link')); // link that stays in
  git(root, 'init', '-q');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const scope = (): { root: string } => ({ root });
const inspector = (command: string, cwd = root): boolean => isReadOnlyInspector(command, { root, cwd });

describe('inspectors: every path-like argument is judged where it really leads', () => {
  it.each([
    'cat docs/secret-link',
    'head -n 5 docs/secret-link',
    'cat dir-link/secret.txt',
    'grep -r TOKEN dir-link', // command-line links are followed even by grep -r
    'ls dir-link',
    'wc -l -- dir-link/secret.txt',
    'grep -f docs/secret-link src', // an option's separate value
    'grep --file=docs/secret-link src', // value after =
    `grep -fdocs/secret-link src`, // value glued to a short option
    `grep -rf${path.join(outside, 'secret.txt')} src`, // ... at the end of a cluster
  ])('refuses %s (a symlink out of the project)', (command) => {
    expect(inspector(command)).toBe(false);
  });

  it.each([
    'head */../../outside/secret.txt',
    'head */../../../../etc/passwd',
    'cat src/*/../../../outside/secret.txt',
    'cat d*', // docs/ and dir-link both match: dir-link leads out
    'cat */secret.txt', // dir-link/secret.txt
    'cat docs/*', // docs/secret-link
    'cat /etc/pass*',
    'cat ~/.ss*',
    'cat {docs,/etc}/passwd', // brace expansion
    'cat {/etc/passwd,x}',
  ])('refuses the glob or brace word in %s', (command) => {
    expect(inspector(command)).toBe(false);
  });

  it.each(['cat src/*.ts', 'grep -n export src/*', 'wc -l src/*/*.ts', 'cat src/inner-link', 'ls -la src', 'grep -rn TOKEN .', "cat 'docs/*'", 'head -n 20 src/a.ts'])(
    'allows %s (everything stays inside)',
    (command) => {
      expect(inspector(command)).toBe(true);
    },
  );

  it('refuses a glob whose matches would become options (a file named -R)', () => {
    const dir = path.join(root, 'src', 'deep');
    writeFileSync(path.join(dir, '-R'), '');
    try {
      expect(inspector('grep TOKEN *', dir)).toBe(false);
      expect(inspector('grep TOKEN -* b.ts', dir)).toBe(false);
      expect(inspector('grep TOKEN "-"* b.ts', dir)).toBe(false);
      expect(inspector('grep -r --include=*.ts TOKEN .', dir)).toBe(true); // only the value is a glob
      expect(inspector('grep TOKEN ./*', dir)).toBe(true); // ./-R is a path, not an option
    } finally {
      rmSync(path.join(dir, '-R'));
    }
  });

  it('judges globs from the command working directory', () => {
    expect(inspector('cat *.ts', path.join(root, 'src'))).toBe(true);
    expect(inspector('cat ../*', path.join(root, 'src'))).toBe(false);
  });

  it.each([
    'grep -R TOKEN .',
    'grep -nR TOKEN .',
    'grep --dereference-recursive TOKEN .',
    'egrep -R TOKEN .',
    'rg -L TOKEN',
    'rg --follow TOKEN',
    'rg -z TOKEN',
    'find -L . -name secret.txt',
    'find . -follow -name secret.txt',
    'find . -files0-from list',
    'du -L .',
    'du --dereference .',
    'ls -RL .',
    'ls --dereference dir',
    'diff -r src docs',
    'diff --recursive src docs',
    'wc --files0-from=list',
  ])('refuses %s (recursion that follows symlinks, or names read from a file)', (command) => {
    expect(inspector(command)).toBe(false);
  });

  it.each(['printenv', 'printenv HOME', 'env', 'npm ls', 'npm list --all', 'go vet ./...', 'go vet -vettool=./tool.sh', 'go env', 'go env -w GOFLAGS=-x', 'go list ./...'])(
    'refuses %s (secrets, or runs or writes things)',
    (command) => {
      expect(inspector(command)).toBe(false);
    },
  );

  it('allows version queries unless a file in the project picks the toolchain', () => {
    expect(inspector('go version')).toBe(true);
    expect(inspector('npm --version')).toBe(true);
    expect(inspector('cargo --version')).toBe(true);
    const sub = path.join(root, 'src', 'deep');
    writeFileSync(path.join(root, 'src', 'rust-toolchain.toml'), '[toolchain]\npath = "/tmp/evil"\n');
    writeFileSync(path.join(root, '.npmrc'), 'cache=/tmp/elsewhere\n');
    try {
      expect(inspector('cargo --version', sub)).toBe(false);
      expect(inspector('npm --version')).toBe(false);
      expect(inspector('cargo --version')).toBe(false); // .npmrc at the root counts for every version query
    } finally {
      rmSync(path.join(root, 'src', 'rust-toolchain.toml'));
      rmSync(path.join(root, '.npmrc'));
    }
  });
});

describe('inspectors: git', () => {
  it('allows read-only git in a plain repository of the project', () => {
    expect(inspector('git status')).toBe(true);
    expect(inspector('git log --oneline -5', path.join(root, 'src'))).toBe(true);
    expect(inspector('git cat-file --textconv HEAD:src/a.ts')).toBe(false);
    expect(inspector('git cat-file --filters HEAD:src/a.ts')).toBe(false);
  });

  it('refuses git when the repository config names a program', () => {
    for (const [key, value] of [
      ['core.fsmonitor', './evil.sh'],
      ['core.pager', './evil.sh'],
      ['pager.status', './evil.sh'],
      ['diff.external', './evil.sh'],
      ['filter.x.clean', './evil.sh'],
      ['diff.x.textconv', './evil.sh'],
      ['core.worktree', '/'],
    ] as const) {
      git(root, 'config', key, value);
      try {
        expect(inspector('git status'), key).toBe(false);
      } finally {
        git(root, 'config', '--unset', key);
      }
    }
    expect(inspector('git status')).toBe(true);
  });

  it('refuses git when the config includes a file that names a program', () => {
    writeFileSync(path.join(outside, 'extra.config'), '[filter "lfs-ish"]\n\tclean = ./evil.sh\n');
    git(root, 'config', 'include.path', path.join(outside, 'extra.config'));
    try {
      expect(inspector('git diff')).toBe(false);
    } finally {
      git(root, 'config', '--unset', 'include.path');
    }
  });

  it('refuses git with a post-index-change hook (git status would run it), or submodules', () => {
    const hook = path.join(root, '.git', 'hooks', 'post-index-change');
    mkdirSync(path.dirname(hook), { recursive: true });
    writeFileSync(hook, '#!/bin/sh\ntouch marker\n');
    chmodSync(hook, 0o755);
    try {
      expect(inspector('git status')).toBe(false);
    } finally {
      rmSync(hook);
    }
    writeFileSync(path.join(root, '.gitmodules'), '');
    try {
      expect(inspector('git status')).toBe(false);
    } finally {
      rmSync(path.join(root, '.gitmodules'));
    }
  });

  it('refuses git in a project that is not a repository itself but sits inside one', () => {
    const nested = path.join(root, 'src', 'deep');
    expect(isReadOnlyInspector('git status', { root: nested })).toBe(false); // would read the repository above
    expect(isReadOnlyInspector('git status', scope())).toBe(true);
  });
});
