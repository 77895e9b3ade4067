import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { hasSandbox } from '../support/sandbox.js';

/**
 * The OS sandbox end to end: the real seek process, the scripted model, real bubblewrap. Every
 * case checks the host afterwards (files, connections) and what reached the model.
 */
let server: ScriptedServer;
let listener: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = await ScriptedServer.start();
  listener = createServer((socket) => {
    connections++;
    socket.end('pong\n');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});
beforeEach(() => server.reset());

function env(home: string, extra: Record<string, string> = {}) {
  return { SEEK_HOME: home, DEEPSEEK_API_KEY: 'sk-e2e-secret-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1', ...extra };
}

/** Every tool result the model was sent, in order. */
function toolResults(): string[] {
  const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return last.filter((m) => m.role === 'tool').map((m) => m.content);
}

function bash(command: string) {
  return { toolCalls: [{ name: 'bash', arguments: { command } }] };
}

describe.skipIf(!hasSandbox)('--auto: edits and commands inside the project without asking, inside the sandbox', () => {
  it('runs a command that writes inside the project; cannot write outside it or reach the network', async () => {
    const { root, home } = makeProject();
    const outside = join(home, '..', 'outside');
    mkdirSync(outside);
    const before = connections;
    server.enqueue(
      bash('echo built > out.txt && cat out.txt'),
      bash(`echo planted > ${outside}/planted.txt`),
      bash(`exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`),
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'inside\n' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: join(outside, 'direct.txt'), content: 'x' } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'build it', '--auto'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(readFileSync(join(root, 'out.txt'), 'utf8')).toBe('built\n');
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('inside\n');
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
    expect(existsSync(join(outside, 'direct.txt'))).toBe(false);
    expect(connections).toBe(before);
    const results = toolResults();
    expect(results[0]).toMatch(/^built\n\nexit code 0$/);
    expect(results[2]).not.toMatch(/pong/);
    expect(results[2]).toMatch(/workspace-write sandbox/);
    expect(results[4]).toMatch(/outside the project .* is not allowed in this mode/);
  });

  it('headless: a run that calls no tool starts no bwrap; the first command of one that does is sandboxed', async () => {
    const { root, home } = makeProject();
    // bubblewrap behind a script that logs each start (the first argument) and runs the real one.
    const log = join(home, 'bwrap.log');
    const wrapper = join(home, 'bwrap');
    const real = execFileSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).trim();
    writeFileSync(wrapper, `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
    const withWrapper = env(home, { SEEK_SANDBOX_BWRAP: wrapper });

    server.enqueue({ text: 'hello' });
    const quiet = await runSeek(['-p', 'say hello', '--auto'], { cwd: root, env: withWrapper });
    expect(quiet.code).toBe(0);
    expect(existsSync(log)).toBe(false);

    server.enqueue(bash('touch made-here && echo planted > ../planted.txt'), { text: 'done' });
    const run = await runSeek(['-p', 'build it', '--auto'], { cwd: root, env: withWrapper });
    expect(run.code).toBe(0);
    expect(existsSync(join(root, 'made-here'))).toBe(true);
    expect(existsSync(join(root, '..', 'planted.txt'))).toBe(false);
    // The version, the probe, then the command itself.
    expect(readFileSync(log, 'utf8').trim().split('\n').slice(2)).toHaveLength(1);
  });

  it('a command asking to leave the sandbox is denied headless, and the model is told why', async () => {
    const { root, home } = makeProject();
    server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch escaped', unsandboxed: true } }] }, { text: 'ok' });
    const run = await runSeek(['-p', 'go', '--auto'], { cwd: root, env: env(home) });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(root, 'escaped'))).toBe(false);
    expect(toolResults()[0]).toMatch(/outside the sandbox needs the user's approval/);
  });

  it('--auto and --yolo together are a usage error', async () => {
    const { root, home } = makeProject();
    const run = await runSeek(['-p', 'x', '--auto', '--yolo'], { cwd: root, env: env(home) });
    expect(run.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});

describe.skipIf(!hasSandbox)('default headless and plan mode: auto-allowed inspectors run read-only, secrets stay hidden', () => {
  it('no secret from the environment or credential files reaches the model', async () => {
    const { root, home } = makeProject();
    const userHome = join(home, '..', 'user-home');
    mkdirSync(join(userHome, '.ssh'), { recursive: true });
    writeFileSync(join(userHome, '.ssh', 'id_ed25519'), 'BEGIN PRIVATE KEY material');
    symlinkSync(join(userHome, '.ssh'), join(root, 'keys'));
    server.enqueue(bash('cat keys/id_ed25519'), bash('printenv'), bash(`cat ${home}/config.json`), { text: 'done' });
    writeFileSync(join(home, 'config.json'), '{"providers":{"deepseek":{"api_key":"sk-from-config-file"}}}');
    for (const mode of [[], ['--plan']]) {
      server.reset();
      server.enqueue(bash('cat keys/id_ed25519'), bash('printenv'), bash(`cat ${home}/config.json`), { text: 'done' });
      const run = await runSeek(['-p', 'look around', ...mode], { cwd: root, env: { ...env(home), HOME: userHome, GITHUB_TOKEN: 'ghp_e2e_token' } });
      expect(run.code).toBe(0);
      const seen = toolResults().join('\n');
      for (const secret of ['PRIVATE KEY material', 'sk-e2e-secret-key', 'ghp_e2e_token', 'sk-from-config-file']) expect(seen).not.toContain(secret);
    }
  });

  it('a command misclassified as read-only cannot write: a hostile .git/config runs in a read-only sandbox', async () => {
    const { root, home } = makeProject();
    const outside = join(home, '..', 'outside');
    mkdirSync(outside);
    // `git status` is a read-only inspector, but git runs core.fsmonitor from the repository's config.
    const payload = `touch ${root}/pwned-inside; touch ${outside}/pwned-outside; echo`;
    execFileSync('git', ['config', 'core.fsmonitor', payload], { cwd: root });
    for (const mode of [[], ['--plan']]) {
      server.reset();
      server.enqueue(bash('git status'), { text: 'done' });
      const run = await runSeek(['-p', 'status?', ...mode], { cwd: root, env: env(home) });
      expect(run.code).toBe(0);
      expect(server.requests).toHaveLength(2);
    }
    expect(existsSync(join(root, 'pwned-inside'))).toBe(false);
    expect(existsSync(join(outside, 'pwned-outside'))).toBe(false);
  });
});

describe('where no sandbox can start', () => {
  const noSandbox = { SEEK_SANDBOX_BWRAP: '/nonexistent/bwrap' };

  it('denies headless what it would have sandboxed, and says why on stderr', async () => {
    const { root, home } = makeProject();
    server.enqueue(bash('ls'), bash('echo x > made.txt'), { text: 'done' });
    const run = await runSeek(['-p', 'go', '--auto'], { cwd: root, env: env(home, noSandbox) });
    expect(run.code).toBe(0);
    expect(run.stderr, run.stderr).toMatch(/no OS sandbox is available here \(bubblewrap \(bwrap\) is not installed \(no \/nonexistent\/bwrap\); see `seek sandbox check`\)/);
    expect(existsSync(join(root, 'made.txt'))).toBe(false);
    const [ls, write] = toolResults();
    expect(ls).toMatch(/no OS sandbox is available here/);
    expect(write).toMatch(/no OS sandbox is available here/);
  });

  it('interactive: says so once at start', async () => {
    const { root, home } = makeProject();
    server.enqueue({ text: 'hello' });
    const run = await runSeek([], { cwd: root, env: { ...env(home, noSandbox), SEEK_PLAIN: '1' }, input: 'hi\n/exit\n' });
    expect(run.code).toBe(0);
    expect(`${run.stdout}${run.stderr}`.match(/No OS sandbox: bubblewrap \(bwrap\) is not installed/g)).toHaveLength(1);
  });

  it('seek sandbox check explains why and how to fix it, exit 1', async () => {
    const { root, home } = makeProject();
    const run = await runSeek(['sandbox', 'check'], { cwd: root, env: env(home, noSandbox) });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/available: no/);
    expect(run.stdout).toMatch(/fix: /);
  });

  it.skipIf(!hasSandbox)('seek sandbox check proves the real sandbox here, exit 0', async () => {
    const { root, home } = makeProject();
    const run = await runSeek(['sandbox', 'check', '--json'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ available: true, works: true });
    expect(report.checks.length).toBeGreaterThanOrEqual(6);
    expect(report.checks.every((c: { ok: boolean }) => c.ok)).toBe(true);
  });
});
