import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../../support/temp-dirs.js';

export { treeState } from '../../support/tree-state.js';

/** Runs git in `cwd` (test identity) and returns stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** A git repository with tracked files (one of them staged-but-uncommitted), an ignored file and
 * a stash entry-free state; returns its root and a fresh SEEK_HOME. */
export function makeRepo(): { root: string; home: string } {
  const base = tempDir('seek-ckpt-');
  const root = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  git(root, 'init', '-q', '-b', 'main');
  writeFiles(root, { 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'run.sh': 'echo hi\n', 'src/lib.ts': 'export {};\n', '.gitignore': '*.log\n' });
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'init');
  // State the user has in progress: a staged change and an unstaged one, and an ignored file.
  writeFiles(root, { 'a.txt': 'alpha staged\n' });
  git(root, 'add', 'a.txt');
  writeFiles(root, { 'src/lib.ts': 'export const x = 1;\n', 'debug.log': 'ignored\n' });
  return { root, home };
}

/** A plain directory (no git) with a few files. */
export function makePlainDir(): { root: string; home: string } {
  const base = tempDir('seek-ckpt-plain-');
  const root = join(base, 'project');
  const home = join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  writeFiles(root, { 'notes.md': '# notes\n', 'tool.sh': 'echo tool\n', 'deep/er/file.txt': 'deep\n' });
  return { root, home };
}

/** What must never change: the index's bytes, HEAD, the stash, git status. */
export function gitState(root: string): { index: string; head: string; stash: string; status: string; branches: string } {
  return {
    index: readFileSync(join(root, '.git', 'index')).toString('base64'),
    head: git(root, 'rev-parse', 'HEAD'),
    stash: git(root, 'stash', 'list'),
    status: git(root, '--no-optional-locks', 'status', '--porcelain'),
    branches: git(root, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags'),
  };
}
