import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { WorktreeManager, type WorktreeManagerOptions } from '../../../src/worktree/manager.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'seek-wt-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** Hermetic git: no global or system config (an empty file stands in for ~/.gitconfig). */
const emptyConfig = join(tempDir('seek-wt-config-'), 'gitconfig');
writeFileSync(emptyConfig, '');
export const GIT_ENV: Record<string, string | undefined> = {
  GIT_CONFIG_GLOBAL: emptyConfig,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: undefined,
  GIT_AUTHOR_EMAIL: undefined,
  GIT_COMMITTER_NAME: undefined,
  GIT_COMMITTER_EMAIL: undefined,
  EMAIL: undefined,
};

function processEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(GIT_ENV)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs git (identity t <t@t> for the test's own commits) and returns stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    env: processEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

export const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');

export interface TestProject {
  root: string;
  home: string;
  manager: WorktreeManager;
  make(options?: Partial<WorktreeManagerOptions>): WorktreeManager;
}

/** A repository on `main` with `files` committed as "initial", and a manager for it. */
export function makeProject(files: Record<string, string> = { 'a.txt': 'one\ntwo\nthree\n' }, options: Partial<WorktreeManagerOptions> = {}): TestProject {
  const root = tempDir();
  const home = tempDir('seek-wt-home-');
  git(root, 'init', '-q', '-b', 'main');
  writeFiles(root, files);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial');
  const make = (more: Partial<WorktreeManagerOptions> = {}): WorktreeManager =>
    new WorktreeManager({ projectRoot: root, seekHome: home, projectId: '0123456789abcdef', env: GIT_ENV, ...options, ...more });
  return { root, home, manager: make(), make };
}

export const refs = (root: string, prefix: string): string[] =>
  git(root, 'for-each-ref', '--format=%(refname)', prefix).split('\n').filter(Boolean);

export const head = (cwd: string): string => git(cwd, 'rev-parse', 'HEAD').trim();

export function chmod(path: string, mode: number): void {
  chmodSync(path, mode);
}
