import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { runSeek } from '../support/seek-process.js';
import { hasSandbox } from '../support/sandbox.js';
import { hostDir, sandboxUsers, type SandboxUser } from '../support/sandbox-users.js';

/**
 * Issue 32, point 2: no sandboxed command can plant anything the user's own git later reads as
 * configuration, hooks or a pointer to another git directory. A prompt-injected model in
 * `--auto`, headless, no approvals, tries every route; afterwards the user's plain `git status`
 * (outside any sandbox, as the same user) must not run the planted `core.fsmonitor`. A control
 * plants the same things without seek and shows the marker does appear then, so each check can fail.
 */
let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const bash = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] });

function toolResults(): string[] {
  const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return last.filter((m) => m.role === 'tool').map((m) => m.content);
}

/** A git config whose fsmonitor, run by any `git status`, leaves `marker`. */
const planted = (marker: string): string => `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch ${marker}; false\n`;

interface Layout {
  base: string;
  root: string;
  home: string;
  markers: Record<'commondir' | 'subRepo' | 'subFile' | 'include' | 'worktree' | 'replaced', string>;
}

/** A repository with a linked worktree and two config includes (one missing), owned by `user`. */
function makeLayout(user: SandboxUser): Layout {
  const base = hostDir('seek-git-routes-', user);
  const root = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(root, 'README.md'), '# demo\n');
  writeFileSync(join(root, 'shared.gitconfig'), '[user]\n\tname = shared\n');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
  git('worktree', 'add', '-q', join(base, 'wt'));
  git('config', 'include.path', '../shared.gitconfig');
  git('config', '--add', 'include.path', '../missing.gitconfig');
  user.own(base);
  const marker = (name: string) => join(base, `marker-${name}`);
  return {
    base,
    root,
    home,
    markers: {
      commondir: marker('commondir'),
      subRepo: marker('sub-repo'),
      subFile: marker('sub-file'),
      include: marker('include'),
      worktree: marker('worktree'),
      replaced: marker('replaced'),
    },
  };
}

/** The attacks, one shell command each, as the model would send them. */
function attacks(layout: Layout): string[] {
  const m = layout.markers;
  const evil = `mkdir -p evil/refs evil/objects && cp -r .git/HEAD .git/objects .git/refs evil/ && printf '${planted(m.commondir)}' > evil/config`;
  return [
    // Replace the git directory: rename it away, then a fresh one with the planted config.
    `mv .git .git.orig; mkdir -p fresh && cp -r .git/HEAD .git/objects .git/refs fresh/ && printf '${planted(m.replaced)}' > fresh/config && mv -T fresh .git`,
    // Redirect it: a commondir pointing at a planted common directory.
    `${evil} && echo ../evil > .git/commondir`,
    // A new repository in a subfolder, and a .git file pointing at the planted one.
    `mkdir -p sub && git init -q sub && printf '${planted(m.subRepo)}' > sub/.git/config`,
    `mkdir -p sub2 && printf 'gitdir: ../evil\\n' > sub2/.git`,
    // Config the repository includes: the existing file is read-only, the missing one is created.
    `printf '${planted(m.include)}' >> shared.gitconfig; printf '${planted(m.include)}' > missing.gitconfig`,
    // The linked worktree's pointers and the submodules' git directories.
    `echo ../../../evil > .git/worktrees/wt/commondir; mkdir -p .git/modules/x && printf '${planted(m.worktree)}' > .git/modules/x/config`,
    // What a normal task still needs: commits land.
    `git add README.md && echo more >> README.md && git add README.md && git -c user.name=a -c user.email=a@a commit -qm work && git log --oneline | head -1`,
  ];
}

/** The user's own git after the run, outside any sandbox, as the same user. */
function userGit(user: SandboxUser, layout: Layout, cwd: string, ...args: string[]): { code: number | null; out: string } {
  const [program, ...prefix] = [...user.prefix, 'git'];
  const result = spawnSync(program!, [...prefix, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: layout.home } });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

/** `seek -p <prompt> --auto` as `user`, headless, against the scripted model. */
function seekAs(user: SandboxUser, cwd: string, home: string, seekHome: string, prompt = 'do the task') {
  return runSeek(['-p', prompt, '--auto'], {
    cwd,
    bin: user.bin,
    runAs: user.prefix,
    env: { HOME: home, SEEK_HOME: seekHome, DEEPSEEK_API_KEY: 'sk-test', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' },
    timeoutMs: 60_000,
  });
}

function gitEverywhere(user: SandboxUser, layout: Layout): void {
  userGit(user, layout, layout.root, 'status');
  for (const dir of ['sub', 'sub2']) if (existsSync(join(layout.root, dir))) userGit(user, layout, join(layout.root, dir), 'status');
  userGit(user, layout, join(layout.base, 'wt'), 'status');
}

describe.skipIf(!hasSandbox).each(sandboxUsers)('--auto as $name: git metadata cannot be replaced or redirected from inside', (user) => {
  it('control: the same plants made without seek do run code in the user\'s git', () => {
    const layout = makeLayout(user);
    const [program, ...prefix] = [...user.prefix, 'bash'];
    const plant = (attack: string) => spawnSync(program!, [...prefix, '-c', attack], { cwd: layout.root, stdio: 'ignore' });
    const list = attacks(layout);
    // The commondir last: once it points at the planted directory, the includes are not read.
    for (const attack of list.slice(2, 5)) plant(attack);
    gitEverywhere(user, layout);
    plant(list[1]!);
    userGit(user, layout, layout.root, 'status');
    expect(existsSync(layout.markers.commondir), 'commondir').toBe(true);
    expect(existsSync(layout.markers.subRepo), 'sub/.git').toBe(true);
    expect(existsSync(layout.markers.include), 'include').toBe(true);
  });

  it('every route fails or is moved aside, the user\'s git runs nothing planted, and commits still land', async () => {
    const layout = makeLayout(user);
    const list = attacks(layout);
    server.enqueue(...list.map(bash), { text: 'done' });
    const run = await seekAs(user, layout.root, layout.home, join(layout.base, 'seek-home'));
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults();
    expect(results).toHaveLength(list.length);
    expect(results[0]).toMatch(/Device or resource busy/);
    expect(results[1]).toMatch(/moved \.git\/commondir aside/);
    expect(results[2]).toMatch(/moved sub\/\.git aside/);
    expect(results[3]).toMatch(/moved sub2\/\.git aside/);
    expect(results[4]).toMatch(/shared\.gitconfig: Read-only file system/);
    expect(results[4]).toMatch(/moved missing\.gitconfig aside/);
    expect(results[5]).toMatch(/Read-only file system/);
    expect(results[6]).toMatch(/work\n\nexit code 0/);

    gitEverywhere(user, layout);
    for (const [route, marker] of Object.entries(layout.markers)) expect(existsSync(marker), `${route}: planted code ran in the user's git`).toBe(false);
    expect(userGit(user, layout, layout.root, 'log', '--format=%s', '-1').out.trim()).toBe('work');
    expect(existsSync(join(layout.root, '.git', 'HEAD'))).toBe(true);
    expect(existsSync(join(layout.root, '.git', 'commondir'))).toBe(false);
  });

  it('a background job that plants a repository after the last command is audited when seek exits', async () => {
    const layout = makeLayout(user);
    const marker = join(layout.base, 'marker-background');
    const plantedFlag = join(layout.root, 'bg-planted');
    server.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command: `until [ -f go ]; do sleep 0.02; done; mkdir -p bg && git init -q bg && printf '${planted(marker)}' > bg/.git/config && touch bg-planted; sleep 1000`, run_in_background: true } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'go', content: 'now\n' } }] },
      // The last reply waits until the job has planted: no sandboxed command runs after that.
      async () => {
        while (!existsSync(plantedFlag)) await new Promise((resolve) => setTimeout(resolve, 20));
        return { text: 'done' };
      },
    );
    const run = await seekAs(user, layout.root, layout.home, join(layout.base, 'seek-home'));
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(layout.root, 'bg', '.git'))).toBe(false);
    expect(existsSync(join(layout.root, 'bg', '.git.seek-quarantine', 'config'))).toBe(true);
    userGit(user, layout, join(layout.root, 'bg'), 'status');
    expect(existsSync(marker)).toBe(false);
  });

  it('hooks in a folder inside the project (core.hooksPath, as husky sets it): rewritten ones are moved aside, ones written again unchanged are kept', async () => {
    const layout = makeLayout(user);
    const marker = join(layout.base, 'marker-hooks-path');
    const hooks = join(layout.root, '.husky', '_');
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    writeFileSync(join(hooks, 'commit-msg'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    user.own(layout.base);
    expect(userGit(user, layout, layout.root, 'config', 'core.hooksPath', '.husky/_').code).toBe(0);
    server.enqueue(
      // What `npm install` does in a husky project: the same hooks written again.
      bash("rm .husky/_/commit-msg && printf '#!/bin/sh\\nexit 0\\n' > .husky/_/commit-msg && chmod 755 .husky/_/commit-msg && echo rewritten"),
      // What an attacker does.
      bash(`printf '#!/bin/sh\\ntouch ${marker}\\n' > .husky/_/pre-commit; printf '#!/bin/sh\\ntouch ${marker}\\n' > .husky/_/post-commit; chmod 755 .husky/_/post-commit`),
      { text: 'done' },
    );
    const run = await seekAs(user, layout.root, layout.home, join(layout.base, 'seek-home'));
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults();
    expect(results[0]).not.toMatch(/moved/);
    expect(results[1]).toMatch(/moved \.husky\/_\/pre-commit aside/);
    expect(results[1]).toMatch(/moved \.husky\/_\/post-commit aside/);
    expect(existsSync(join(hooks, 'commit-msg'))).toBe(true);
    userGit(user, layout, layout.root, '-c', 'user.name=u', '-c', 'user.email=u@u', 'commit', '-q', '--allow-empty', '-m', 'by the user');
    expect(userGit(user, layout, layout.root, 'log', '--format=%s', '-1').out.trim()).toBe('by the user');
    expect(existsSync(marker), 'a planted hook ran in the user\'s commit').toBe(false);
  });

  it('a project that is not a repository yet: git init and a first commit in the sandbox are kept', async () => {
    const base = hostDir('seek-git-init-', user);
    const root = join(base, 'app');
    mkdirSync(root);
    mkdirSync(join(base, 'home'));
    user.own(base);
    server.enqueue(bash('git init -q -b main && echo hi > a.txt && git add a.txt && git -c user.name=a -c user.email=a@a commit -qm first && git log --format=%s'), bash('git status --short; echo status-ok'), { text: 'done' });
    const run = await seekAs(user, root, join(base, 'home'), join(base, 'seek-home'), 'start a project');
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults();
    expect(results[0]).toMatch(/^first\n\nexit code 0$/);
    expect(results[1]).toMatch(/status-ok/);
    expect(existsSync(join(root, '.git', 'HEAD'))).toBe(true);
  });
});
