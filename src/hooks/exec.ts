import { spawn } from 'node:child_process';
import { monotonicMs } from '../util/clock.js';

/** Output kept per stream (characters); hook output is for a reason line, not a transcript. */
const MAX_OUTPUT_BYTES = 64 * 1024;
/** How long `bash -n` may take before the check is abandoned (it only parses). */
const SYNTAX_CHECK_TIMEOUT_MS = 5000;

export interface ShellResult {
  /** Exit code; null when the process was killed (timeout) or never started. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when bash could not be started (ENOENT, bad cwd…). */
  spawnError?: string;
  durationMs: number;
}

export interface ShellOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Extra arguments before `-c` (`-n` for a syntax check). */
  bashArgs?: string[];
}

/**
 * Runs `bash [...bashArgs] -c command` with empty stdin (/dev/null). The process gets its own process
 * group so a timeout kills everything it started. Resolves when the streams close, or at the
 * timeout; never rejects. When bash exits but a background child keeps the pipes open, the result
 * still carries bash's exit code once the timeout fires.
 */
export function runShell(command: string, options: ShellOptions): Promise<ShellResult> {
  const started = monotonicMs();
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let exitCode: number | null = null;
    let exited = false;
    let settled = false;
    const finish = (result: Omit<ShellResult, 'durationMs' | 'stdout' | 'stderr'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, stdout, stderr, durationMs: Math.round(monotonicMs() - started) });
    };

    const child = spawn('bash', [...(options.bashArgs ?? []), '-c', command], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    // Decoded as UTF-8 by the streams, so a multi-byte character split across chunks stays whole.
    const append = (current: string, chunk: string): string =>
      current.length >= MAX_OUTPUT_BYTES ? current : current + chunk.slice(0, MAX_OUTPUT_BYTES - current.length);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout = append(stdout, chunk)));
    child.stderr.on('data', (chunk: string) => (stderr = append(stderr, chunk)));

    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      finish(exited ? { exitCode, timedOut: false } : { exitCode: null, timedOut: true });
    }, options.timeoutMs);

    child.on('error', (error) => finish({ exitCode: null, timedOut: false, spawnError: error.message }));
    child.on('exit', (code) => {
      exited = true;
      exitCode = code;
    });
    child.on('close', (code) => finish({ exitCode: code ?? exitCode, timedOut: false }));
  });
}

export type SyntaxCheck = { ok: true } | { ok: false; reason: string } | { ok: 'unknown'; reason: string };

/** `bash -n`: parses the command without running it. `unknown` when bash itself could not run. */
export async function checkSyntax(command: string, cwd: string = process.cwd()): Promise<SyntaxCheck> {
  const result = await runShell(command, { cwd, env: process.env, timeoutMs: SYNTAX_CHECK_TIMEOUT_MS, bashArgs: ['-n'] });
  if (result.spawnError) return { ok: 'unknown', reason: `cannot run bash for the syntax check: ${result.spawnError}` };
  if (result.timedOut) return { ok: 'unknown', reason: 'the bash -n syntax check timed out' };
  if (result.exitCode === 0) return { ok: true };
  const firstLine = result.stderr.split('\n').find((l) => l.trim() !== '') ?? `bash -n exited with code ${result.exitCode}`;
  return { ok: false, reason: `syntax error: ${firstLine.replace(/^bash: (-c: )?/, '').trim()}` };
}
