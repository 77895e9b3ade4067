import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SandboxLauncher } from './launcher.js';
import type { SandboxProfile } from './types.js';

export interface SelfTestResult {
  check: string;
  ok: boolean;
  detail: string;
}

/**
 * Proves the boundary on this machine by trying to break it: each check runs a real command in a
 * real sandbox rooted at a scratch project and reports whether the sandbox held. Used by
 * `seek sandbox check`; it writes only inside a temp dir it removes.
 */
export function selfTest(launcher: SandboxLauncher, scratchParent: string): SelfTestResult[] {
  if (!launcher.available) return [];
  const project = mkdtempSync(path.join(scratchParent, 'seek-sandbox-check-'));
  // Outside the project and outside /tmp (which the sandbox replaces), so a write would be real.
  const outside = mkdtempSync(path.join(existsSync('/var/tmp') ? '/var/tmp' : scratchParent, 'seek-sandbox-outside-'));
  try {
    writeFileSync(path.join(outside, 'secret.txt'), 'outside');
    const run = (profile: SandboxProfile, script: string): { code: number | null; out: string } => {
      const spec = launcher.forCall(profile, project).wrap({
        file: 'bash',
        args: ['-c', script],
        cwd: project,
        env: { ...process.env, SEEK_SELF_TEST_TOKEN: 'hidden-from-sandbox' },
      });
      // stdin closed: bash reads ~/.bashrc when stdin is a socket (Node's pipes are socketpairs).
      const result = spawnSync(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe'] });
      return { code: result.status, out: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
    };
    const results: SelfTestResult[] = [];
    const expect = (check: string, ok: boolean, detail: string): void => {
      results.push({ check, ok, detail });
    };
    const ro = run('read-only', 'echo x > inside.txt');
    expect('read-only: writing inside the project fails', ro.code !== 0, ro.out || `exit ${ro.code}`);
    const rw = run('workspace-write', 'echo x > inside.txt && cat inside.txt');
    expect('workspace-write: writing inside the project works', rw.code === 0, rw.out || `exit ${rw.code}`);
    const escape = run('workspace-write', `echo x > ${JSON.stringify(path.join(outside, 'planted.txt'))}`);
    expect('workspace-write: writing outside the project fails', escape.code !== 0, escape.out || `exit ${escape.code}`);
    spawnSync('git', ['init', '-q', project], { stdio: 'ignore' });
    const hooks = run('workspace-write', 'echo x > .git/hooks/pre-commit');
    expect('workspace-write: .git/hooks stays read-only', hooks.code !== 0, hooks.out || `exit ${hooks.code}`);
    const env = run('read-only', 'printenv SEEK_SELF_TEST_TOKEN');
    expect('secrets are not in the environment', env.out === '', env.out === '' ? 'not set' : 'visible');
    // /proc is the sandbox's own: it lists the interfaces of the command's network namespace.
    const net = run('workspace-write', "tail -n +3 /proc/net/dev | cut -d: -f1");
    const interfaces = net.out.split(/\s+/).filter((name) => name !== '');
    const offline = !launcher.settings.network ? interfaces.every((name) => name === 'lo') : true;
    expect(`network ${launcher.settings.network ? 'allowed by config' : 'off'}`, offline, interfaces.length > 0 ? `interfaces: ${interfaces.join(' ')}` : net.out || 'none');
    return results;
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
}
