import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import type { CommandSpawn } from '../agent/types.js';
import { writeFileConfined } from '../util/confined-fs.js';
import { openInheritedFiles } from '../util/inherited-files.js';
import type { SandboxLauncher } from './launcher.js';
import type { SandboxProfile } from './types.js';

export interface SelfTestResult {
  check: string;
  ok: boolean;
  detail: string;
}

interface Run {
  code: number | null;
  out: string;
  /** What the sandbox's audit reported after the command. */
  notes: string[];
}

/**
 * Proves the boundary on this machine by trying to break it: each check runs a real command in a
 * real sandbox rooted at a scratch project and reports whether the sandbox held (issue 32's
 * routes among them: capabilities, replacing the git directory, a Unix socket outside, a secret
 * in the home directory). Used by `seek sandbox check`; it writes only inside temp dirs it
 * removes, and one folder in the home directory it removes too.
 */
export async function selfTest(launcher: SandboxLauncher, scratchParent: string, home: string): Promise<SelfTestResult[]> {
  if (!launcher.available) return [];
  const project = mkdtempSync(path.join(scratchParent, 'seek-sandbox-check-'));
  // Outside the project and outside /tmp (which the sandbox replaces), so a write would be real.
  const outside = mkdtempSync(path.join(existsSync('/var/tmp') ? '/var/tmp' : scratchParent, 'seek-sandbox-outside-'));
  const homeProbe = path.join(home, `.seek-sandbox-check-${process.pid}`);
  let socket: Server | undefined;
  try {
    writeFileSync(path.join(outside, 'secret.txt'), 'outside');
    const run = (profile: SandboxProfile, script: string): Promise<Run> => runIn(launcher, profile, project, script);
    const results: SelfTestResult[] = [];
    const expect = (check: string, ok: boolean, detail: string): void => {
      results.push({ check, ok, detail });
    };
    const said = (r: Run): string => r.out || `exit ${r.code}`;

    const ro = await run('read-only', 'echo x > inside.txt');
    expect('read-only: writing inside the project fails', ro.code !== 0, said(ro));
    const rw = await run('workspace-write', 'echo x > inside.txt && cat inside.txt');
    expect('workspace-write: writing inside the project works', rw.code === 0, said(rw));
    const escape = await run('workspace-write', `echo x > ${JSON.stringify(path.join(outside, 'planted.txt'))}`);
    expect('workspace-write: writing outside the project fails', escape.code !== 0 && !existsSync(path.join(outside, 'planted.txt')), said(escape));

    const caps = await run('workspace-write', "grep '^CapEff' /proc/self/status; mount -o remount,bind,rw / 2>&1; touch /seek-remount-probe 2>&1 && echo WROTE");
    const noCaps = /CapEff:\s*0+\b/.test(caps.out) && !/WROTE/.test(caps.out);
    expect('no capabilities inside, no remounting / (as root too)', noCaps, caps.out.split('\n')[0] ?? said(caps));

    spawnSync('git', ['init', '-q', project], { stdio: 'ignore' });
    const hooks = await run('workspace-write', 'echo x > .git/hooks/pre-commit');
    expect('workspace-write: .git/hooks stays read-only', hooks.code !== 0, said(hooks));
    const config = await run('workspace-write', 'echo "[core]fsmonitor = touch /tmp/x" >> .git/config');
    expect('workspace-write: .git/config stays read-only', config.code !== 0, said(config));
    const replace = await run('workspace-write', 'mv .git .git.orig');
    expect('workspace-write: .git cannot be renamed or replaced', replace.code !== 0 && existsSync(path.join(project, '.git', 'HEAD')), said(replace));
    const plant = await run('workspace-write', "mkdir -p sub/.git && printf '[core]\\n\\tfsmonitor = true\\n' > sub/.git/config && echo ../sub > .git/commondir");
    const moved = !existsSync(path.join(project, 'sub', '.git')) && !existsSync(path.join(project, '.git', 'commondir'));
    expect('workspace-write: a planted sub/.git and .git/commondir are moved aside', moved, plant.notes.join(' ') || said(plant));

    const env = await run('read-only', 'printenv SEEK_SELF_TEST_TOKEN');
    expect('secrets are not in the environment', env.out === '', env.out === '' ? 'not set' : 'visible');

    mkdirSync(homeProbe, { mode: 0o700 });
    writeFileSync(path.join(homeProbe, 'secret.txt'), 'home secret');
    const homeRead = await run('read-only', `cat ${JSON.stringify(path.join(homeProbe, 'secret.txt'))}`);
    expect('the home directory is private', !homeRead.out.includes('home secret'), said(homeRead));

    const socketPath = path.join(outside, 'daemon.sock');
    socket = await listen(socketPath);
    const connect = await run('workspace-write', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(`require('net').connect(${JSON.stringify(socketPath)}).on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(1)})`)}`);
    const sockets = launcher.settings.allowUnixSockets ? 'allowed by config' : 'blocked';
    expect(`Unix sockets outside the sandbox ${sockets}`, launcher.settings.allowUnixSockets || !connect.out.includes('CONNECTED'), said(connect));

    const race = await racingWrites(launcher, project, outside);
    expect('seek\'s own writes stay inside while a sandboxed command swaps a directory for a link', race.outside === 0 && race.swapped, race.detail);

    // /proc is the sandbox's own: it lists the interfaces of the command's network namespace.
    const net = await run('workspace-write', 'tail -n +3 /proc/net/dev | cut -d: -f1');
    const interfaces = net.out.split(/\s+/).filter((name) => name !== '');
    const offline = !launcher.settings.network ? interfaces.every((name) => name === 'lo') : true;
    expect(`network ${launcher.settings.network ? 'allowed by config' : 'off'}`, offline, interfaces.length > 0 ? `interfaces: ${interfaces.join(' ')}` : net.out || 'none');
    return results;
  } finally {
    socket?.close();
    rmSync(project, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
    rmSync(homeProbe, { recursive: true, force: true });
  }
}

/** Runs `script` under `profile` in `project`, as the bash tool would, audit included. */
async function runIn(launcher: SandboxLauncher, profile: SandboxProfile, project: string, script: string): Promise<Run> {
  const spec: CommandSpawn = launcher.forCall(profile, project).wrap({
    file: 'bash',
    args: ['-c', script],
    cwd: project,
    env: { ...process.env, SEEK_SELF_TEST_TOKEN: 'hidden-from-sandbox' },
  });
  const inherited = openInheritedFiles(spec.inheritFiles);
  // stdin closed: bash reads ~/.bashrc when stdin is a socket (Node's pipes are socketpairs).
  const child = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'pipe', 'pipe', ...inherited.fds] });
  inherited.close();
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('close', (status) => resolve(status));
  });
  clearTimeout(timer);
  return { code, out: out.trim(), notes: (await spec.afterExit?.()) ?? [] };
}

const RACE_WRITES = 300;

/** The swapper a prompt-injected model would start: `a/b` a directory one moment, a link to
 * `outside` the next (a fresh aside name each time, so a directory seek recreates does not stop it). */
const swapperScript = (outside: string): string =>
  [
    "const fs = require('fs');",
    'let swaps = 0;',
    'for (;;) {',
    "  const aside = 'a/b.real' + swaps;",
    "  try { fs.renameSync('a/b', aside); } catch {}",
    `  try { fs.symlinkSync(${JSON.stringify(outside)}, 'a/b.tmp'); fs.renameSync('a/b.tmp', 'a/b'); } catch { try { fs.unlinkSync('a/b.tmp'); } catch {} }`,
    "  try { fs.unlinkSync('a/b'); } catch {}",
    "  try { fs.renameSync(aside, 'a/b'); } catch {}",
    "  if (++swaps === 64) fs.writeFileSync('swapping', '');",
    '}',
  ].join('\n');

/** seek's confined writes (as write_file makes them) racing a sandboxed swapper: how many landed in
 * `outside`. The swapper runs in the workspace-write sandbox, as an `--auto` background job would. */
async function racingWrites(launcher: SandboxLauncher, project: string, outside: string): Promise<{ outside: number; swapped: boolean; detail: string }> {
  const target = path.join(outside, 'race');
  mkdirSync(target);
  mkdirSync(path.join(project, 'a', 'b'), { recursive: true });
  writeFileSync(path.join(project, 'swap.js'), swapperScript(target));
  const spec = launcher.forCall('workspace-write', project).wrap({ file: process.execPath, args: ['swap.js'], cwd: project, env: { ...process.env } });
  const inherited = openInheritedFiles(spec.inheritFiles);
  const child = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'ignore', 'ignore', ...inherited.fds] });
  inherited.close();
  let refused = 0;
  let swapped = false;
  try {
    const started = Date.now();
    while (!existsSync(path.join(project, 'swapping')) && child.exitCode === null && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 10));
    swapped = existsSync(path.join(project, 'swapping'));
    for (let i = 0; i < RACE_WRITES && swapped; i++) {
      try {
        await writeFileConfined(project, path.join(project, 'a', 'b', `f${i}.txt`), 'x', { followLinks: true });
      } catch {
        refused++;
      }
    }
  } finally {
    child.kill('SIGKILL');
    await spec.afterExit?.();
  }
  const landed = readdirSync(target).length;
  const detail = swapped ? `${RACE_WRITES} writes: ${refused} refused, ${RACE_WRITES - refused - landed} inside, ${landed} outside` : 'the swapper did not start';
  return { outside: landed, swapped, detail };
}

function listen(socketPath: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((connection) => connection.end());
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  });
}
