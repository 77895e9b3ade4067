import { execFile, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { SandboxStatus } from './types.js';

const PROBE_TIMEOUT_MS = 10_000;

/** The first executable named `name` on PATH. */
export function findProgram(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface DetectOptions {
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** `sandbox.enabled: false` in config. */
  disabled?: boolean;
}

/**
 * What sandbox this machine offers. Linux: bubblewrap, found on PATH (or `SEEK_SANDBOX_BWRAP`),
 * then proven by running `true` inside the same namespaces real commands get: a bwrap that exists
 * but cannot create user namespaces (a hardened kernel, Ubuntu's AppArmor restriction, a container
 * without the capability) is reported with the kernel's reason and the fix. macOS: sandbox-exec,
 * proven the same way. Anything else: none. Runs once per process (a few ms).
 */
export function detectSandbox(options: DetectOptions): SandboxStatus {
  const platform = options.platform ?? process.platform;
  if (options.disabled) {
    return { available: false, mechanism: 'none', reason: 'the sandbox is turned off in config ("sandbox": {"enabled": false})', fix: 'remove "enabled": false from "sandbox" in ~/.seek/config.json' };
  }
  if (platform === 'linux') return detectBwrap(options.env);
  if (platform === 'darwin') return detectSeatbelt();
  return {
    available: false,
    mechanism: 'none',
    reason: `seek has no OS sandbox for ${platform}`,
    fix: platform === 'win32' ? 'run seek inside WSL2 with bubblewrap installed' : 'run seek on Linux (bubblewrap) or macOS',
  };
}

/** What one probe run said. */
interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

const BWRAP_PROBE = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--unshare-all', '--die-with-parent', '--new-session', '--', 'true'];
const INSTALL_BWRAP = 'install bubblewrap: `sudo apt-get install bubblewrap` (Debian/Ubuntu), `sudo dnf install bubblewrap` (Fedora), `sudo pacman -S bubblewrap` (Arch)';

function bwrapProgram(env: NodeJS.ProcessEnv): string | undefined {
  const override = env.SEEK_SANDBOX_BWRAP;
  return override !== undefined && override !== '' ? override : findProgram('bwrap', env);
}

function runSync(program: string, args: string[]): RunResult {
  const result = spawnSync(program, args, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '', ...(result.error ? { error: result.error } : {}) };
}

function runAsync(program: string, args: string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(program, args, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error && typeof (error as NodeJS.ErrnoException).code === 'number' ? ((error as NodeJS.ErrnoException).code as unknown as number) : error ? null : 0;
      resolve({ status: code, stdout, stderr, ...(error && code === null ? { error } : {}) });
    });
    child.stdin?.end();
  });
}

function bwrapStatus(program: string, version: RunResult, probe: RunResult): SandboxStatus {
  if (version.error) {
    const missing = (version.error as NodeJS.ErrnoException).code === 'ENOENT';
    const reason = missing ? `bubblewrap (bwrap) is not installed (no ${program})` : `${program} cannot be run (${version.error.message})`;
    return { available: false, mechanism: 'bwrap', program, reason, fix: INSTALL_BWRAP };
  }
  const versionLine = version.stdout.trim() || undefined;
  if (probe.status === 0) return { available: true, mechanism: 'bwrap', program, ...(versionLine ? { version: versionLine } : {}) };
  const said = (probe.stderr || probe.error?.message || `exit status ${probe.status}`).trim().split('\n')[0]!;
  return {
    available: false,
    mechanism: 'bwrap',
    program,
    ...(versionLine ? { version: versionLine } : {}),
    reason: `bubblewrap cannot create a sandbox here: ${said}`,
    fix: /namespace|permission|operation not permitted/i.test(said)
      ? 'allow unprivileged user namespaces: `sudo sysctl -w kernel.unprivileged_userns_clone=1`, or on Ubuntu 23.10+ `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` (or an AppArmor profile for bwrap); inside Docker, run the container with --security-opt seccomp=unconfined or use seek on the host'
      : 'run `bwrap --ro-bind / / --unshare-all true` to see the full error',
  };
}

function detectBwrap(env: NodeJS.ProcessEnv): SandboxStatus {
  const program = bwrapProgram(env);
  if (program === undefined) return { available: false, mechanism: 'bwrap', reason: 'bubblewrap (bwrap) is not installed', fix: INSTALL_BWRAP };
  const version = runSync(program, ['--version']);
  return bwrapStatus(program, version, version.error ? version : runSync(program, BWRAP_PROBE));
}

/** `detectSandbox` without blocking: the two bwrap runs go in parallel while seek starts up. */
export async function detectSandboxAsync(options: DetectOptions): Promise<SandboxStatus> {
  const platform = options.platform ?? process.platform;
  if (options.disabled || platform !== 'linux') return detectSandbox(options);
  const program = bwrapProgram(options.env);
  if (program === undefined) return detectBwrap(options.env);
  const [version, probe] = await Promise.all([runAsync(program, ['--version']), runAsync(program, BWRAP_PROBE)]);
  return bwrapStatus(program, version, probe);
}

function detectSeatbelt(): SandboxStatus {
  const program = '/usr/bin/sandbox-exec';
  const probe = spawnSync(program, ['-p', '(version 1)(allow default)', '/usr/bin/true'], { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS });
  if (probe.status === 0) return { available: true, mechanism: 'sandbox-exec', program };
  const said = (probe.stderr || probe.error?.message || `exit status ${probe.status}`).trim().split('\n')[0]!;
  return { available: false, mechanism: 'sandbox-exec', program, reason: `sandbox-exec cannot run: ${said}`, fix: 'sandbox-exec ships with macOS; check that /usr/bin/sandbox-exec exists and is not blocked by a management profile' };
}
