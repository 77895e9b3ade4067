/**
 * The sandbox's added start-up time per command (`npm run bench:sandbox`): `bash -c true` spawned
 * plain, in the read-only sandbox and in the workspace-write sandbox (seccomp filter, private home,
 * git mounts and the after-command git audit included), 50 times each after 5
 * warm-ups, interleaved so machine load hits all three alike. Prints medians, p90s and the added
 * milliseconds and ratios from the same run; also the one-time detection cost. Asserts nothing.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandSpawn } from '../src/agent/types.js';
import { DEFAULT_SANDBOX_SETTINGS, SandboxLauncher, detectSandbox } from '../src/sandbox/index.js';
import { openInheritedFiles } from '../src/util/inherited-files.js';

const RUNS = 50;
const WARMUP = 5;

/** Spawn to exit, as the bash tool does it: the seccomp filter's descriptor opened and handed
 * over, and the git-metadata audit run after the exit (both counted). */
function timeSpawn(spec: CommandSpawn): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const inherited = openInheritedFiles(spec.inheritFiles);
    const child = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'ignore', 'ignore', ...inherited.fds], detached: true });
    inherited.close();
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`exit ${code}`));
      void (spec.afterExit?.() ?? Promise.resolve([])).then(() => resolve(performance.now() - started));
    });
  });
}

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function main(): Promise<void> {
  const detectStarted = performance.now();
  const status = detectSandbox({ env: process.env });
  const detectMs = performance.now() - detectStarted;
  if (!status.available) {
    console.log(`no sandbox here: ${status.reason}`);
    process.exitCode = 1;
    return;
  }
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'seek-bench-sandbox-')));
  execFileSync('git', ['init', '-q', root]);
  try {
    const launcher = new SandboxLauncher({ settings: { ...DEFAULT_SANDBOX_SETTINGS }, status, home: homedir(), seekHome: join(homedir(), '.seek'), env: process.env });
    const plain: CommandSpawn = { file: 'bash', args: ['-c', 'true'], cwd: root, env: { ...process.env } };
    const variants: [string, () => CommandSpawn][] = [
      ['plain', () => plain],
      // The launcher builds each call's scope afresh (as the gate does per call): counted here.
      ['read-only', () => launcher.forCall('read-only', root).wrap(plain)],
      ['workspace-write', () => launcher.forCall('workspace-write', root).wrap(plain)],
      // bubblewrap's own cost: the smallest sandbox that still isolates (every namespace, the root
      // read-only, the project writable), without what seek adds (private home, git mounts,
      // dropped capabilities, seccomp, the audit).
      ['bare bwrap', () => ({ ...plain, file: status.program!, args: ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--bind', root, root, '--unshare-all', '--die-with-parent', '--new-session', '--', 'bash', '-c', 'true'] })],
    ];
    const samples = new Map<string, number[]>(variants.map(([name]) => [name, []]));
    for (let i = 0; i < WARMUP + RUNS; i++) {
      for (const [name, build] of variants) {
        const started = performance.now();
        const spec = build();
        const buildMs = performance.now() - started;
        const ms = buildMs + (await timeSpawn(spec));
        if (i >= WARMUP) samples.get(name)!.push(ms);
      }
    }
    const base = quantile(samples.get('plain')!, 0.5);
    console.log(`sandbox: ${status.mechanism} ${status.version ?? ''} · detection (once per process) ${detectMs.toFixed(1)} ms`);
    console.log(`spawn of bash -c true, ${RUNS} runs each (after ${WARMUP} warm-ups), interleaved:`);
    for (const [name] of variants) {
      const values = samples.get(name)!;
      const median = quantile(values, 0.5);
      const extra = name === 'plain' ? '' : ` · +${(median - base).toFixed(2)} ms (${(median / base).toFixed(2)}x plain)`;
      console.log(`  ${name.padEnd(16)} median ${median.toFixed(2)} ms · p90 ${quantile(values, 0.9).toFixed(2)} ms${extra}`);
    }
    const bare = quantile(samples.get('bare bwrap')!, 0.5);
    for (const name of ['read-only', 'workspace-write']) console.log(`  seek's own share in ${name}: +${(quantile(samples.get(name)!, 0.5) - bare).toFixed(2)} ms over bare bwrap`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
