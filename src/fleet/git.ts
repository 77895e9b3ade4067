/**
 * git for the fleet's own repository work (mirrors, fetches, pushes, bundles, job commits).
 * Unlike the worktree manager's git, which refuses every transport because its calls are local,
 * these calls reach the jobs' repositories (paths, file://, ssh, https). Still never a shell,
 * never a prompt for a password, never a hook or the `ext::` transport.
 */
import { execFile } from 'node:child_process';

const SAFETY = ['-c', 'core.hooksPath=/dev/null', '-c', 'protocol.ext.allow=never', '-c', 'core.fsmonitor=false', '--no-pager'];
const TIMEOUT_MS = 10 * 60_000; // clones of large repositories

export interface GitOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export function tryGit(cwd: string, args: readonly string[]): Promise<GitOutcome> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...SAFETY, ...args],
      { cwd, timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr || (error && code === -1 ? error.message : '')) });
      },
    );
  });
}

/** stdout, or an Error carrying git's first stderr line. */
export async function git(cwd: string, args: readonly string[]): Promise<string> {
  const outcome = await tryGit(cwd, args);
  if (outcome.code !== 0) throw new Error(`git ${args[0]} failed: ${outcome.stderr.trim().split('\n').slice(-1)[0] ?? `exit ${outcome.code}`}`);
  return outcome.stdout;
}
