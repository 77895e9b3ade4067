import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { Tool, ToolContext, ToolResult } from '../../../src/agent/types.js';

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh real directory (symlinks resolved, so paths compare equal), removed after the test. */
export function tempDir(prefix = 'seek-tools-'): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** Writes files given as `{ 'a/b.txt': 'text' }` under `root`, creating directories. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

export function makeCtx(cwd: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return { cwd, projectRoot: cwd, signal: new AbortController().signal, callId: 'call-1', ...overrides };
}

/** Validates `args` with the tool's schema (as the loop does) and runs it. */
export async function run<Args>(tool: Tool<Args>, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = tool.schema.parse(args);
  return tool.execute(parsed, ctx);
}

/** Runs git in `cwd` with a fixed identity; returns stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
    },
  });
}

/** A real repository with one commit holding `files`. */
export function initRepo(files: Record<string, string> = { 'README.md': 'hello\n' }): string {
  const dir = tempDir('seek-git-');
  git(dir, 'init', '-q', '-b', 'main');
  writeTree(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}
