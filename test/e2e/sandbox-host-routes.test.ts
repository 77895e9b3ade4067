import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { runSeek } from '../support/seek-process.js';
import { hasSandbox } from '../support/sandbox.js';
import { hostDir, sandboxUsers, type SandboxUser } from '../support/sandbox-users.js';

/**
 * Issue 32, points 1, 3 and 4, end to end: the real seek process in `--auto`, headless, no
 * approvals, as root and as an unprivileged user. The model tries to gain privileges, to reach
 * daemons through Unix sockets, and to read secrets in the home directory; every attempt is
 * checked on the host afterwards and in what reached the model.
 */
let server: ScriptedServer;
const listeners: Server[] = [];
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
  for (const listener of listeners) listener.close();
});
beforeEach(() => server.reset());

const bash = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] });

function toolResults(): string[] {
  const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return last.filter((m) => m.role === 'tool').map((m) => m.content);
}

interface Project {
  base: string;
  root: string;
  home: string;
}

function makeProject(user: SandboxUser): Project {
  const base = hostDir('seek-host-routes-', user);
  const root = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  user.own(base);
  return { base, root, home };
}

async function seek(user: SandboxUser, project: Project, env: Record<string, string> = {}) {
  const run = await runSeek(['-p', 'do the task', '--auto'], {
    cwd: project.root,
    bin: user.bin,
    runAs: user.prefix,
    env: { HOME: project.home, SEEK_HOME: join(project.base, 'seek-home'), DEEPSEEK_API_KEY: 'sk-test', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1', ...env },
    timeoutMs: 60_000,
  });
  expect(run.code, run.stderr).toBe(0);
  return toolResults();
}

/** A Unix socket server outside the sandbox that anyone may connect to; counts connections. */
async function socketAt(path: string): Promise<{ connections: () => number }> {
  mkdirSync(dirname(path), { recursive: true });
  rmSync(path, { force: true });
  let count = 0;
  const listener = createServer((socket) => {
    count++;
    socket.on('error', () => undefined); // a client that hangs up first
    socket.end('hello from the host\n');
  });
  await new Promise<void>((resolve) => listener.listen(path, resolve));
  chmodSync(path, 0o777);
  listeners.push(listener);
  return { connections: () => count };
}

/** A node one-liner that connects to `path` and prints what happened. */
const connectTo = (path: string): string =>
  `node -e ${JSON.stringify(`require('net').connect(${JSON.stringify(path)}).on('data',d=>{console.log('GOT '+d);process.exit(0)}).on('error',e=>{console.log('ERR '+e.code);process.exit(1)})`)}`;

describe.skipIf(!hasSandbox).each(sandboxUsers)('--auto as $name: privileges, sockets and the home directory', (user) => {
  it('has no capabilities and cannot remount the file system writable', async () => {
    const project = makeProject(user);
    const outside = join(project.base, 'outside.txt');
    server.enqueue(
      bash("grep -E '^Cap(Eff|Prm|Bnd)|^NoNewPrivs' /proc/self/status"),
      bash(`mount -o remount,bind,rw / ; echo planted > ${outside}; unshare -U -r true; echo "unshare=$?"`),
      { text: 'done' },
    );
    const results = await seek(user, project);
    expect(results[0]).toMatch(/CapEff:\s+0000000000000000/);
    expect(results[0]).toMatch(/CapPrm:\s+0000000000000000/);
    expect(results[0]).toMatch(/CapBnd:\s+0000000000000000/);
    expect(results[0]).toMatch(/NoNewPrivs:\s+1/);
    expect(results[1]).toMatch(/unshare=1/);
    expect(existsSync(outside)).toBe(false);
  });

  it('reaches no Unix socket outside: under /var/run, under the home directory, anywhere else', async () => {
    const project = makeProject(user);
    const runDir = process.getuid?.() === 0 ? '/var/run' : (process.env.XDG_RUNTIME_DIR ?? project.base);
    const sockets = {
      run: join(runDir, `seek-test-${process.pid}-${user.uid}.sock`),
      home: join(project.home, '.docker', 'run', 'docker.sock'),
      visible: join(project.base, 'daemon.sock'),
    };
    const servers = { run: await socketAt(sockets.run), home: await socketAt(sockets.home), visible: await socketAt(sockets.visible) };
    // The control: outside the sandbox, as the same user, each socket answers.
    const [program, ...prefix] = [...user.prefix, 'node'];
    for (const path of Object.values(sockets)) {
      // Asynchronously: the servers answer from this process's event loop.
      const control = await new Promise<number | null>((resolve) => {
        const child = spawn(program!, [...prefix, '-e', `require('net').connect(${JSON.stringify(path)}).on('data',()=>process.exit(0))`], { stdio: 'ignore' });
        child.once('exit', resolve);
      });
      expect(control, `control connect to ${path}`).toBe(0);
    }
    const before = Object.values(servers).map((s) => s.connections());
    server.enqueue(bash(connectTo(sockets.run)), bash(connectTo(sockets.home)), bash(connectTo(sockets.visible)), bash(`ls ${runDir} | head -5; echo listed`), { text: 'done' });
    const results = await seek(user, project);
    for (const result of results.slice(0, 3)) {
      expect(result).not.toMatch(/GOT hello/);
      expect(result).toMatch(/ERR (EPERM|ENOENT|EACCES)/);
    }
    expect(results[3]).not.toMatch(/seek-test-/);
    expect(Object.values(servers).map((s) => s.connections())).toEqual(before);
    rmSync(sockets.run, { force: true });
  });

  it('keeps the home directory private: no secret from point 4 is readable, toolchain folders are', async () => {
    const project = makeProject(user);
    const secrets: Record<string, string> = {
      '.config/git/credentials': 'https://user:ghp_gitcredential@github.com',
      '.pgpass': 'db:5432:*:user:pgpass-secret',
      '.bash_history': 'export TOKEN=history-secret',
      '.vault-token': 'hvs.vault-secret',
      '.config/rclone/rclone.conf': '[s3]\nsecret_access_key = rclone-secret',
      '.m2/settings.xml': '<password>maven-secret</password>',
      '.codex/auth.json': '{"OPENAI_API_KEY":"codex-secret"}',
      'other-project/.env': 'STRIPE_KEY=other-project-secret',
      '.ssh/id_ed25519': 'ssh-secret',
      '.aws/credentials': 'aws-secret',
    };
    for (const [path, content] of Object.entries(secrets)) {
      mkdirSync(dirname(join(project.home, path)), { recursive: true });
      writeFileSync(join(project.home, path), content);
    }
    mkdirSync(join(project.home, '.m2', 'repository'), { recursive: true });
    writeFileSync(join(project.home, '.m2', 'repository', 'artifact.txt'), 'a cached artifact');
    user.own(project.base);
    const paths = Object.keys(secrets).map((p) => join(project.home, p));
    server.enqueue(
      bash(`for f in ${paths.join(' ')}; do cat "$f" 2>/dev/null; done; echo read-all`),
      bash(`ls -a ${project.home}; grep -rh secret ${project.home} 2>/dev/null; echo searched`),
      bash(`cat ${join(project.home, '.m2', 'repository', 'artifact.txt')}`),
      { text: 'done' },
    );
    const results = await seek(user, project);
    for (const [path, content] of Object.entries(secrets)) {
      const secret = content.split(/[=:"<>@ ]/).find((part) => part.includes('secret')) ?? content;
      for (const result of results.slice(0, 2)) expect(result, `${path} leaked`).not.toContain(secret);
    }
    expect(results[0]).toMatch(/read-all/);
    expect(results[1]).not.toMatch(/other-project|\.codex|\.vault-token/);
    expect(results[2]).toMatch(/a cached artifact/);
  });
});

/** Small projects whose tests must still pass in the workspace-write sandbox, with the home
 * directory private: only the toolchain folders shown read-only. */
const TOOLCHAINS: { name: string; probe: string[]; files: Record<string, string>; command: string; passed: RegExp }[] = [
  {
    name: 'npm test',
    probe: ['npm', '--version'],
    files: {
      'package.json': JSON.stringify({ name: 'sample', version: '1.0.0', private: true, scripts: { test: 'node --test' } }),
      'sum.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => assert.strictEqual(1 + 2, 3));\n",
    },
    command: 'npm test 2>&1',
    passed: /# pass 1/,
  },
  {
    name: 'pytest',
    probe: ['pytest', '--version'],
    files: { 'test_sum.py': 'def test_adds():\n    assert 1 + 2 == 3\n' },
    command: 'pytest -q 2>&1',
    passed: /1 passed/,
  },
  {
    name: 'go test',
    probe: ['go', 'version'],
    files: { 'go.mod': 'module sample\n\ngo 1.20\n', 'sum_test.go': 'package sample\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) {\n\tif 1+2 != 3 {\n\t\tt.Fatal("no")\n\t}\n}\n' },
    command: 'go test ./... 2>&1',
    passed: /^ok\s+sample/m,
  },
  {
    name: 'cargo test',
    probe: ['cargo', '--version'],
    files: { 'Cargo.toml': '[package]\nname = "sample"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': '#[test]\nfn adds() {\n    assert_eq!(1 + 2, 3);\n}\n' },
    command: 'cargo test --offline 2>&1',
    passed: /test result: ok\. 1 passed/,
  },
];

describe.skipIf(!hasSandbox).each(sandboxUsers)('--auto as $name: builds and tests still pass with the home directory private', (user) => {
  // The current user keeps their real home (where ~/.cargo, ~/.pyenv live); the unprivileged
  // user has a fresh one, and only toolchains installed where it can run them.
  const home = user.prefix.length === 0 ? (process.env.HOME ?? '/root') : undefined;
  const [program, ...prefix] = [...user.prefix];
  const runnable = (probe: string[]): boolean =>
    spawnSyncOk(program ? [program, ...prefix, ...probe] : probe, { HOME: home ?? '/nonexistent', PATH: process.env.PATH ?? '' });
  for (const toolchain of TOOLCHAINS) {
    const available = runnable(toolchain.probe);
    if (!available) console.log(`sandbox toolchains: ${toolchain.name} is not installed for ${user.name} here; its case is skipped`);
    it.skipIf(!available)(`${toolchain.name} passes in the sandbox`, async () => {
      const project = makeProject(user);
      for (const [path, content] of Object.entries(toolchain.files)) {
        mkdirSync(dirname(join(project.root, path)), { recursive: true });
        writeFileSync(join(project.root, path), content);
      }
      user.own(project.base);
      server.enqueue(bash(toolchain.command), { text: 'done' });
      const results = await seek(user, { ...project, home: home ?? project.home });
      expect(results[0], results[0]).toMatch(toolchain.passed);
      expect(results[0]).toMatch(/exit code 0$/);
    });
  }
});

function spawnSyncOk(command: string[], env: Record<string, string>): boolean {
  const result = spawnSync(command[0]!, command.slice(1), { env, stdio: 'ignore', timeout: 30_000 });
  return result.status === 0;
}
