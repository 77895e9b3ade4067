/**
 * Fleet test helpers: `seek worker` processes (the real binary) against a test Redis, waited for
 * until they say they are ready, stopped after; bare repositories as the jobs' repositories.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SEEK_BIN } from './seek-process.js';
import { tempDir } from './temp-dirs.js';

export interface WorkerProcess {
  child: ChildProcess;
  home: string;
  /** Everything it wrote to stderr so far. */
  log(): string;
  /** Resolves once its stderr matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Short locks so a killed worker's job is taken back within a second or two. */
export const FAST_FLEET = { SEEK_FLEET_LOCK_MS: '1500', SEEK_FLEET_STALLED_MS: '500', SEEK_FLEET_BACKOFF_MS: '50' };

export async function startWorker(queue: string, env: Record<string, string>, extraArgs: string[] = []): Promise<WorkerProcess> {
  const home = tempDir('seek-worker-');
  const fullEnv: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', ...FAST_FLEET, ...env, SEEK_HOME: join(home, 'seek') };
  mkdirSync(fullEnv.SEEK_HOME!, { recursive: true });
  const child = spawn(process.execPath, [SEEK_BIN, 'worker', '--queue', queue, '--workdir', join(home, 'work'), ...extraArgs], { cwd: home, env: fullEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of waiters.splice(0)) {
      if (waiter.pattern.test(stderr)) waiter.resolve();
      else waiters.push(waiter);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const handle: WorkerProcess = {
    child,
    home,
    log: () => stderr,
    waitFor: (pattern, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(stderr)) return resolve();
        const timer = setTimeout(() => reject(new Error(`worker never printed ${pattern}:\n${stderr}`)), timeoutMs);
        waiters.push({ pattern, resolve: () => (clearTimeout(timer), resolve()) });
        void exited.then((code) => reject(new Error(`worker exited (${code}) before printing ${pattern}:\n${stderr}`)));
      }),
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  await handle.waitFor(/ready on /);
  return handle;
}

/** A bare repository with one commit (README.md and the given files), and a clone of it. */
export function makeRepository(files: Record<string, string> = {}): { bare: string; clone: string } {
  const base = tempDir('seek-fleet-repo-');
  const bare = join(base, 'origin.git');
  const clone = join(base, 'work');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  execFileSync('git', ['clone', '-q', bare, clone], { stdio: 'ignore' });
  execFileSync('git', ['symbolic-ref', 'HEAD', 'refs/heads/main'], { cwd: clone });
  const write = { 'README.md': '# demo\n', ...files };
  for (const [path, content] of Object.entries(write)) {
    mkdirSync(join(clone, path, '..'), { recursive: true });
    execFileSync('sh', ['-c', 'cat > "$1"', 'sh', join(clone, path)], { input: content });
  }
  execFileSync('git', ['add', '-A'], { cwd: clone });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], { cwd: clone });
  execFileSync('git', ['push', '-q', 'origin', 'main'], { cwd: clone, stdio: 'ignore' });
  return { bare, clone };
}

/** Polls `probe` (state: Redis, files, server requests) until it returns a value, or fails after `timeoutMs`. */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The 6-task graph both fleet suites run (fleet.test.ts against a local run, fleet-flow.test.ts
 * with the engine enforcing its order): an explorer, three editors, a reviewer of all three, a sum. */
export const SIX_TASK_GRAPH = [
  'goal: Three files and a review',
  'tasks:',
  '  - {id: map, role: explorer, task: Map the project, depends_on: []}',
  '  - {id: e1, role: editor, task: Add one.txt, depends_on: [map]}',
  '  - {id: e2, role: editor, task: Add two.txt, depends_on: [map]}',
  '  - {id: e3, role: editor, task: Add three.txt, depends_on: [map]}',
  '  - {id: r, role: reviewer, task: Review the three files, depends_on: [e1, e2, e3]}',
  '  - {id: sum, role: explorer, task: Sum up, depends_on: [r]}',
  '',
].join('\n');
/** What each editor of SIX_TASK_GRAPH writes: file and content. */
export const SIX_TASK_FILES: Record<string, [string, string]> = { e1: ['one.txt', 'first\n'], e2: ['two.txt', 'second\n'], e3: ['three.txt', 'third\n'] };
