import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.js';

export const SEEK_BIN = new URL('../../bin/seek.js', import.meta.url).pathname;

export interface SeekRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface SeekRunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** Another copy of bin/seek.js (an install a test has changed); the checkout's by default. */
  bin?: string;
  /** A command that runs seek as another user (`setpriv --reuid=…`; see sandbox-users.ts). */
  runAs?: string[];
  /** Called with the child right after it starts (to send signals mid-run). */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
}

/** Runs the real `seek` process. The environment is built from scratch (plus PATH/HOME) so a
 * developer's own keys or SEEK_* settings never leak into a test. */
export function runSeek(args: string[], options: SeekRunOptions): Promise<SeekRun> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1' };
    for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
    const [program, ...prefix] = [...(options.runAs ?? []), process.execPath];
    const child = spawn(program!, [...prefix, options.bin ?? SEEK_BIN, ...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`seek ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
    child.stdin.end(options.input ?? '');
  });
}

/** A temporary git repository with one committed file, and a temporary SEEK_HOME; both are
 * removed after the test file (see temp-dirs.ts). */
export function makeProject(files: Record<string, string> = { 'README.md': '# demo\n' }): { root: string; home: string } {
  const base = tempDir('seek-e2e-');
  const root = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, content);
  }
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], { cwd: root });
  return { root, home };
}
