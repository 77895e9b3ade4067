import { execFileSync } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { runSeek } from '../support/seek-process.js';

/**
 * Leaks closed at their source, end to end: the real seek in its default headless mode and in
 * --plan, zero approvals, against the scripted model. Each call below read a secret outside the
 * project, reached the network or ran a program from the repository's config before the fix; the
 * test checks what reached the model and the host afterwards.
 */
let server: ScriptedServer;
let listener: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = await ScriptedServer.start();
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});
beforeEach(() => server.reset());

const SECRET = 'LEAK-e2e-7f3a9c';

/** Where the fixtures live: outside /tmp when possible, since the OS sandbox gives commands a
 * private /tmp, and these leaks must be closed by seek's own checks, not by that. */
function scratch(): string {
  try {
    accessSync('/var/tmp', constants.W_OK);
    return '/var/tmp';
  } catch {
    return tmpdir();
  }
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/**
 * <base>/secret.txt, and the project <base>/box/repo two levels below it: a git repository with
 * a link to the secret and a `.git/config` whose core.fsmonitor creates <base>/marker.
 */
function hostileProject(): { base: string; root: string; home: string; marker: string } {
  const base = realpathSync(mkdtempSync(join(scratch(), 'seek-e2e-leaks-')));
  made.push(base);
  const root = join(base, 'box', 'repo');
  const home = join(base, 'home');
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(base, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(join(root, 'docs', 'readme.md'), '# docs\n');
  symlinkSync(join(base, 'secret.txt'), join(root, 'link-to-outside-secret'));
  const git = (...args: string[]): void => void execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', 'docs');
  git('commit', '-qm', 'init');
  const marker = join(base, 'marker');
  const script = join(base, 'fsmonitor.sh');
  writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\n`);
  chmodSync(script, 0o755);
  git('config', 'core.fsmonitor', script);
  return { base, root, home, marker };
}

function env(home: string): Record<string, string> {
  return { SEEK_HOME: home, DEEPSEEK_API_KEY: 'k', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' };
}

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });

/** Every tool result the model was sent, in order. */
function toolResults(): string[] {
  const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return last.filter((m) => m.role === 'tool').map((m) => m.content);
}

describe.each([
  ['default headless mode', []],
  ['--plan', ['--plan']],
])('no leak with zero approvals: %s', (_label, mode) => {
  it('reads outside the project, network and repository programs are refused at their source', async () => {
    const { base, root, home, marker } = hostileProject();
    symlinkSync(base, join(root, 'dir-link-out'));
    symlinkSync('/', join(root, 'link-to-slash'));
    const before = connections;
    server.enqueue(
      call('bash', { command: 'cat link-to-outside-secret' }),
      call('bash', { command: 'head */../../../secret.txt' }),
      call('glob', { pattern: '../../**' }),
      call('git', { subcommand: 'ls-remote', args: [`http://127.0.0.1:${port}/x.git`] }),
      call('git', { subcommand: 'status' }),
      call('glob', { pattern: 'dir-link-out/**/secret.txt' }),
      call('glob', { pattern: 'link-to-slash/**' }),
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'look around', ...mode], { cwd: root, env: env(home) });
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests).toHaveLength(8);
    const results = toolResults();
    expect(results).toHaveLength(7);
    // A glob through a link leading out is refused before walking (a link to / walked the machine).
    expect(results[5]).toContain('refusing to read dir-link-out/**/secret.txt: dir-link-out is a symbolic link to');
    expect(results[6]).toContain('refusing to read link-to-slash/**: link-to-slash is a symbolic link to /, leading outside');
    // Everything that reached the model, and everything seek printed.
    expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain(SECRET);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
    expect(results[2]).toContain("contains '..'"); // glob refused the pattern
    expect(results[3]).not.toContain('ls-remote failed'); // not a subcommand of the git tool
    expect(connections).toBe(before);
    expect(results[4]).toContain('On branch main'); // git status ran ...
    expect(existsSync(marker)).toBe(false); // ... without the repository's fsmonitor
  });
});

describe('exit_worktree discard of another session’s worktree', () => {
  it('is a write: a headless run cannot discard a kept worktree without a yes', async () => {
    const { root, home } = hostileProject();
    execFileSync('git', ['config', '--unset', 'core.fsmonitor'], { cwd: root });
    server.enqueue(call('enter_worktree', {}), call('write_file', { path: 'wip.txt', content: 'work in progress\n' }), { text: 'kept' });
    const first = await runSeek(['-p', 'start some work', '--yolo'], { cwd: root, env: env(home) });
    expect(first.code, first.stderr).toBe(0);
    const projects = join(home, 'projects');
    const [projectId] = readdirSync(projects);
    const worktrees = join(projects, projectId!, 'worktrees');
    const [id] = readdirSync(worktrees).filter((name) => !name.endsWith('.json'));
    const worktree = join(worktrees, id!);
    expect(existsSync(join(worktree, 'wip.txt'))).toBe(true);

    for (const mode of [[], ['--plan']]) {
      server.reset();
      server.enqueue(call('exit_worktree', { path: worktree, if_dirty: 'discard' }), { text: 'tried' });
      const second = await runSeek(['-p', 'clean up', ...mode], { cwd: root, env: env(home) });
      expect(second.code, second.stderr).toBe(0);
      expect(toolResults()[0]).toMatch(/not allowed/);
      expect(existsSync(join(worktree, 'wip.txt'))).toBe(true);
    }
  });
});
