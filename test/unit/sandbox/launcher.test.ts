import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/tools/bash.js';
import { DEFAULT_SANDBOX_SETTINGS, SandboxLauncher, detectSandbox, type SandboxProfile, type SandboxSettings } from '../../../src/sandbox/index.js';
import { makeCtx, run, tempDir, writeTree } from '../tools/helpers.js';
import { hasSandbox } from '../../support/sandbox.js';

/**
 * The real OS sandbox (bubblewrap on Linux: installed by .ci/run, so this never skips in CI).
 * Every case runs a real command through the real bash tool and checks the host afterwards.
 */
const status = detectSandbox({ env: process.env });

let server: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.end('pong\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Machine {
  home: string;
  seekHome: string;
  project: string;
  outside: string;
}

function machine(): Machine {
  const base = tempDir('seek-sandbox-');
  const m = { home: path.join(base, 'home'), seekHome: path.join(base, 'home', '.seek'), project: path.join(base, 'project'), outside: path.join(base, 'outside') };
  writeTree(m.home, { '.ssh/id_ed25519': 'PRIVATE KEY', '.aws/credentials': 'aws_secret=1', '.netrc': 'machine x password y' });
  writeTree(m.seekHome, { 'config.json': '{"providers":{"deepseek":{"api_key":"sk-secret"}}}' });
  writeTree(m.project, { 'src/a.ts': 'export {};\n' });
  writeTree(m.outside, { 'secret.txt': 'outside secret' });
  execFileSync('git', ['init', '-q', m.project]);
  return m;
}

function launcher(m: Machine, settings: Partial<SandboxSettings> = {}): SandboxLauncher {
  return new SandboxLauncher({
    settings: { ...DEFAULT_SANDBOX_SETTINGS, ...settings },
    status,
    home: m.home,
    seekHome: m.seekHome,
    env: { ...process.env, HOME: m.home },
  });
}

async function sandboxed(m: Machine, profile: SandboxProfile, command: string, options: { root?: string; settings?: Partial<SandboxSettings>; cwd?: string } = {}) {
  const root = options.root ?? m.project;
  const sandbox = launcher(m, options.settings).forCall(profile, root);
  const env = { ...process.env };
  process.env.DEEPSEEK_API_KEY = 'sk-live-key-123';
  process.env.GITHUB_TOKEN = 'ghp_token';
  try {
    const result = await run(createBashTool(), { command }, makeCtx(options.cwd ?? root, { sandbox }));
    return { ...result, text: result.content };
  } finally {
    process.env = env;
  }
}

describe.skipIf(!hasSandbox)('the machine has a working sandbox (CI: required, a missing one fails there)', () => {
  it('detects and proves it', () => {
    expect(status, `${status.reason ?? ''} ${status.fix ?? ''}`).toMatchObject({ available: true });
  });
});

describe.skipIf(!hasSandbox)('read-only profile: a command misclassified as read-only still cannot do harm', () => {
  it('cannot write inside the project (EROFS) nor outside it', async () => {
    const m = machine();
    const r = await sandboxed(m, 'read-only', `echo y > ${m.outside}/planted.txt; echo z > ${m.home}/.bashrc; echo x > src/new.ts`);
    expect(r.text).toMatch(/Read-only file system/);
    expect(existsSync(path.join(m.project, 'src/new.ts'))).toBe(false);
    expect(existsSync(path.join(m.outside, 'planted.txt'))).toBe(false);
    expect(existsSync(path.join(m.home, '.bashrc'))).toBe(false);
    expect(r.text).toMatch(/ran in the read-only sandbox/);
  });

  it('cannot connect anywhere, loopback included', async () => {
    const m = machine();
    const before = connections;
    const r = await sandboxed(m, 'read-only', `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`);
    expect(r.text).not.toMatch(/connected/);
    expect(connections).toBe(before);
  });

  it('sees neither secrets in the environment nor credential files, seek\'s keys, or files reached through links', async () => {
    const m = machine();
    symlinkSync(path.join(m.home, '.ssh'), path.join(m.project, 'keys'));
    const r = await sandboxed(
      m,
      'read-only',
      `printenv; cat ${m.home}/.ssh/id_ed25519 ${m.home}/.aws/credentials ${m.home}/.netrc ${m.seekHome}/config.json keys/id_ed25519; ls -A ${m.home}/.ssh`,
    );
    for (const secret of ['sk-live-key-123', 'ghp_token', 'PRIVATE KEY', 'aws_secret', 'password y', 'sk-secret']) expect(r.text).not.toContain(secret);
    expect(r.text).toMatch(/SEEK_SANDBOX=read-only/);
    expect(r.text).toMatch(/^PATH=/m);
  });

  it('reads the project and the rest of the system', async () => {
    const m = machine();
    const r = await sandboxed(m, 'read-only', 'cat src/a.ts && test -r /etc/hostname && echo ok');
    expect(r.text).toMatch(/export \{\};\nok/);
    expect(r.isError).toBeUndefined();
  });
});

describe.skipIf(!hasSandbox)('workspace-write profile (--auto)', () => {
  it('writes inside the project, not outside it; the private /tmp never reaches the host', async () => {
    const m = machine();
    const r = await sandboxed(m, 'workspace-write', `echo built > out.txt && echo tmp > /tmp/t && cat /tmp/t; echo y > ${m.outside}/planted.txt`);
    expect(readFileSync(path.join(m.project, 'out.txt'), 'utf8')).toBe('built\n');
    expect(r.text).toMatch(/^tmp$/m);
    expect(existsSync(path.join(m.outside, 'planted.txt'))).toBe(false);
  });

  it('cannot plant git hooks, git config or seek config that would run later outside the sandbox', async () => {
    const m = machine();
    mkdirSync(path.join(m.project, '.seek'));
    const r = await sandboxed(
      m,
      'workspace-write',
      'echo "#!/bin/sh" > .git/hooks/pre-commit; git config core.fsmonitor ./evil; echo "[[pre_tool]]" > .seek/hooks.toml; echo ok > done.txt',
    );
    expect(existsSync(path.join(m.project, '.git/hooks/pre-commit'))).toBe(false);
    expect(readFileSync(path.join(m.project, '.git/config'), 'utf8')).not.toContain('fsmonitor');
    expect(existsSync(path.join(m.project, '.seek/hooks.toml'))).toBe(false);
    expect(existsSync(path.join(m.project, 'done.txt'))).toBe(true);
    expect(r.text).toMatch(/Read-only file system/);
  });

  it('can commit (objects and refs are writable) but only inside the project\'s own repository', async () => {
    const m = machine();
    const r = await sandboxed(m, 'workspace-write', 'git add -A && git -c user.name=t -c user.email=t@t commit -qm sandboxed && git log --oneline');
    expect(r.text).toMatch(/sandboxed/);
  });

  it('network stays off unless the user allows it', async () => {
    const m = machine();
    const before = connections;
    const off = await sandboxed(m, 'workspace-write', `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`);
    expect(off.text).not.toMatch(/pong/);
    expect(connections).toBe(before);
    const on = await sandboxed(m, 'workspace-write', `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`, { settings: { network: true } });
    expect(on.text).toMatch(/pong/);
  });

  it('a root under the hidden SEEK_HOME (a child\'s worktree) stays visible and writable', async () => {
    const m = machine();
    const worktree = path.join(m.seekHome, 'projects', 'p1', 'worktrees', 'wt1');
    writeTree(worktree, { 'file.txt': 'in worktree\n' });
    const r = await sandboxed(m, 'workspace-write', `cat file.txt && echo changed > file.txt; cat ${m.seekHome}/config.json`, { root: worktree });
    expect(r.text).toMatch(/in worktree/);
    expect(r.text).not.toContain('sk-secret');
    expect(readFileSync(path.join(worktree, 'file.txt'), 'utf8')).toBe('changed\n');
  });

  it('a project that contains a hidden path (seek run in the home directory) does not expose it', async () => {
    const m = machine();
    const r = await sandboxed(m, 'workspace-write', 'cat .ssh/id_ed25519; echo x > .ssh/planted; ls', { root: m.home });
    expect(r.text).not.toContain('PRIVATE KEY');
    expect(existsSync(path.join(m.home, '.ssh/planted'))).toBe(false);
  });

  it('background jobs run in the sandbox too', async () => {
    const m = machine();
    const sandbox = launcher(m).forCall('read-only', m.project);
    const started = await run(createBashTool(), { command: 'echo x > bg.txt; echo done', run_in_background: true }, makeCtx(m.project, { sandbox }));
    const logFile = /output is written to (\S+)/.exec(started.content)![1]!;
    await expect.poll(() => readFileSync(logFile, 'utf8'), { timeout: 20_000 }).toMatch(/done/);
    expect(readFileSync(logFile, 'utf8')).toMatch(/Read-only file system/);
    expect(existsSync(path.join(m.project, 'bg.txt'))).toBe(false);
  });

  it('extra writable paths from config are writable', async () => {
    const m = machine();
    writeTree(m.home, { '.cache/keep': '' });
    await sandboxed(m, 'workspace-write', `echo cached > ${m.home}/.cache/entry`, { settings: { allowWrite: ['~/.cache'] } });
    expect(readFileSync(path.join(m.home, '.cache/entry'), 'utf8')).toBe('cached\n');
  });
});

describe.skipIf(!hasSandbox)('a worktree root: the shared repository is writable except its hooks and config', () => {
  it('commits from a worktree land, hooks cannot be planted', async () => {
    const m = machine();
    execFileSync('git', ['-C', m.project, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'base']);
    const worktree = path.join(m.outside, 'wt');
    execFileSync('git', ['-C', m.project, 'worktree', 'add', '-q', '-b', 'wt', worktree]);
    writeFileSync(path.join(worktree, 'x.txt'), 'x');
    const r = await sandboxed(m, 'workspace-write', 'git add x.txt && git -c user.name=t -c user.email=t@t commit -qm in-worktree && echo "#!/bin/sh" > "$(git rev-parse --git-common-dir)/hooks/post-commit"', { root: worktree });
    expect(execFileSync('git', ['-C', m.project, 'log', '--oneline', 'wt'], { encoding: 'utf8' })).toMatch(/in-worktree/);
    expect(existsSync(path.join(m.project, '.git/hooks/post-commit'))).toBe(false);
    expect(r.text).toMatch(/Read-only file system/);
  });
});

describe.skipIf(!hasSandbox)('a hostile repository', () => {
  it('a planted .git file naming another directory does not make that directory writable', async () => {
    const m = machine();
    const project = path.join(m.outside, 'hostile');
    writeTree(project, { '.git': `gitdir: ${m.home}\n` });
    await sandboxed(m, 'workspace-write', `echo planted > ${m.home}/planted.txt; echo ok > inside.txt`, { root: project });
    expect(existsSync(path.join(m.home, 'planted.txt'))).toBe(false);
    expect(existsSync(path.join(m.home, 'hooks'))).toBe(false);
    expect(readFileSync(path.join(project, 'inside.txt'), 'utf8')).toBe('ok\n');
  });

  it('a .git file seek cannot vouch for (a submodule checkout) cannot be rewritten to point elsewhere', async () => {
    const m = machine();
    const project = path.join(m.outside, 'submodule');
    writeTree(project, { '.git': 'gitdir: ../super/.git/modules/sub\n' });
    const result = await sandboxed(m, 'workspace-write', 'echo "gitdir: planted" > .git; mv .git moved; echo ok > inside.txt', { root: project });
    expect(result.text).toMatch(/Read-only file system/);
    expect(readFileSync(path.join(project, '.git'), 'utf8')).toBe('gitdir: ../super/.git/modules/sub\n');
    expect(readFileSync(path.join(project, 'inside.txt'), 'utf8')).toBe('ok\n');
  });
});

