/**
 * `seek worktree list | diff | gc | merge | remove` through the real `seek` process against real git: the
 * worktrees are made by the test with the WorktreeManager itself (no model involved).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectId } from '../../src/config/paths.js';
import { WorktreeManager } from '../../src/worktree/manager.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';

/** Hermetic git for the test and for seek: no global or system config. */
const gitConfig = join(tempDir('seek-wt-cli-'), 'gitconfig');
writeFileSync(gitConfig, '');
const GIT_ENV = { GIT_CONFIG_GLOBAL: gitConfig, GIT_CONFIG_NOSYSTEM: '1' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    env: { ...process.env, ...GIT_ENV },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const FILES = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n' };

function fixture(files: Record<string, string> = FILES) {
  const { root, home } = makeProject(files);
  const manager = (clock?: () => Date) =>
    new WorktreeManager({ projectRoot: root, seekHome: home, projectId: projectId(root), env: GIT_ENV, ...(clock ? { clock } : {}) });
  const seek = (...args: string[]) => runSeek(['worktree', ...args], { cwd: root, env: { SEEK_HOME: home, ...GIT_ENV } });
  const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');
  const write = (dir: string, path: string, content: string) => writeFileSync(join(dir, path), content);
  return { root, home, manager, seek, read, write, head: () => git(root, 'rev-parse', 'HEAD').trim() };
}

describe('seek worktree list', () => {
  it('refuses outside a git repository with exit 1', async () => {
    const dir = tempDir('seek-nogit-');
    const run = await runSeek(['worktree', 'list'], { cwd: dir, env: { SEEK_HOME: join(dir, 'home'), ...GIT_ENV } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`seek: ${dir} is not a git repository; seek worktrees need one (run git init, or cd into a repository)\n`);
    expect(run.stdout).toBe('');
  });

  it('says so when there are none', async () => {
    const f = fixture();
    const run = await f.seek('list');
    expect(run).toMatchObject({ code: 0, stdout: 'no seek-managed worktrees in this project\n' });
    expect(JSON.parse((await f.seek('list', '--json')).stdout)).toEqual([]);
  });

  it('lists id, branch, changes, owner, age and path newest first, marks problems, and prints JSON', async () => {
    const f = fixture();
    const at = (iso: string) => () => new Date(iso);
    const old = await f.manager(at('2025-01-01T10:00:00Z')).create({ ownerSubSid: '20250101-095959-a1b2c3' });
    const gone = await f.manager(at('2025-01-01T11:00:00Z')).create();
    const dirty = await f.manager(at('2025-01-01T12:00:00Z')).create({ branch: 'feature/x' });
    f.write(dirty.path, 'a.txt', 'changed\n');
    f.write(dirty.path, 'new.txt', 'new\n');
    rmSync(gone.path, { recursive: true, force: true });

    const run = await f.seek('list');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +BRANCH +CHANGES +OWNER +AGE +PATH$/);
    expect(lines[1]).toMatch(new RegExp(`^${dirty.id} +feature/x +2 +- +\\d+d +${dirty.path}$`));
    expect(lines[2]).toMatch(new RegExp(`^${gone.id} +seek/wt/${gone.id} +- +- +\\d+d +${gone.path}  ! missing directory$`));
    expect(lines[3]).toMatch(new RegExp(`^${old.id} +seek/wt/${old.id} +0 +a1b2c3 +\\d+d +${old.path}$`));
    expect(lines.slice(4)).toEqual(['', `${gone.id}: missing directory; clean up with: seek worktree remove ${gone.id}`]);

    const json = JSON.parse((await f.seek('list', '--json')).stdout) as Array<Record<string, unknown>>;
    expect(json.map((row) => row.id)).toEqual([dirty.id, gone.id, old.id]);
    expect(json[0]).toMatchObject({ id: dirty.id, path: dirty.path, branch: 'feature/x', changes: 2, createdAt: '2025-01-01T12:00:00.000Z' });
    expect(json[1]).toMatchObject({ id: gone.id, problem: 'missing_directory' });
    expect(json[1]).not.toHaveProperty('changes');
    expect(json[2]).toMatchObject({ id: old.id, changes: 0, ownerSubSid: '20250101-095959-a1b2c3' });
  });
});

describe('seek worktree merge', () => {
  it('merges a worktree\'s uncommitted changes into the current branch and removes it', async () => {
    const f = fixture();
    const info = await f.manager().create();
    f.write(info.path, 'a.txt', 'one\nTWO\nthree\n');
    const run = await f.seek('merge', info.id.slice(0, 19)); // a unique prefix will do
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const commit = f.head();
    expect(run.stdout).toBe(
      `[worktree: merged branch=${info.branch} commit=${commit}]\nmerged ${info.branch} into the current branch as ${commit}; the worktree is removed, its branch kept\n`,
    );
    expect(f.read(f.root, 'a.txt')).toBe('one\nTWO\nthree\n');
    expect(git(f.root, 'status', '--porcelain')).toBe('');
    expect(existsSync(info.path)).toBe(false);
  });

  it('on a conflict prints the files and hunks, exits 1, and leaves both trees as they were', async () => {
    const f = fixture();
    const info = await f.manager().create();
    f.write(info.path, 'a.txt', 'one\nworktree\nthree\n');
    f.write(f.root, 'a.txt', 'one\nmain\nthree\n');
    git(f.root, 'commit', '-qam', 'main side');
    const before = f.head();

    const run = await f.seek('merge', info.path);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('[worktree: merge_conflict files=1]');
    expect(lines[1]).toMatch(/^merge stopped on conflicts in 1 file; it was aborted, both working trees are as they were/);
    expect(lines.slice(2, 5)).toEqual(['files:', '  a.txt', '--- a.txt']);
    expect(lines[5]).toMatch(/^<<<<<<< /);
    expect(run.stdout).toContain('main\n=======\nworktree\n>>>>>>> ');

    expect(f.head()).toBe(before);
    expect(git(f.root, 'status', '--porcelain')).toBe('');
    expect(f.read(f.root, 'a.txt')).toBe('one\nmain\nthree\n');
    expect(f.read(info.path, 'a.txt')).toBe('one\nworktree\nthree\n');
    expect(existsSync(join(f.root, '.git', 'MERGE_HEAD'))).toBe(false);
  });

  it('names an unknown worktree and exits 1', async () => {
    const f = fixture();
    const run = await f.seek('merge', 'nope-nope');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('seek: no seek worktree nope-nope in this project; run seek worktree list to see them\n');
  });
});

describe('seek worktree remove', () => {
  it('refuses a dirty worktree without --discard, naming the change count and both ways forward', async () => {
    const f = fixture();
    const info = await f.manager().create();
    f.write(info.path, 'b.txt', 'edited\n');
    const run = await f.seek('remove', info.id);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      [
        `seek: worktree ${info.id} has 1 uncommitted change (${info.path}); nothing was removed`,
        `  keep them by merging into the current branch:  seek worktree merge ${info.id}`,
        `  drop them (saved under refs/seek/discarded/ first):  seek worktree remove ${info.id} --discard`,
        '',
      ].join('\n'),
    );
    expect(f.read(info.path, 'b.txt')).toBe('edited\n');
  });

  it('with --discard rescues the changes, removes the worktree and says how to get them back', async () => {
    const f = fixture();
    const info = await f.manager().create();
    f.write(info.path, 'b.txt', 'edited\n');
    f.write(info.path, 'c.txt', 'brand new\n');
    const run = await f.seek('remove', info.id, '--discard');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const ref = /rescue stash at (refs\/seek\/discarded\/\d{8}-\d{6})\n/.exec(run.stdout)?.[1];
    expect(ref).toBeDefined();
    expect(run.stdout.split('\n')[0]).toBe(`[worktree: discarded changes=2] rescue stash at ${ref}`);
    expect(run.stdout).toContain(`git restore --source=${ref} --worktree -- .`);
    expect(run.stdout).toContain(`git show ${ref}:<path>`);
    expect(existsSync(info.path)).toBe(false);
    expect(git(f.root, 'show', `${ref}:b.txt`)).toBe('edited\n');
    expect(git(f.root, 'show', `${ref}:c.txt`)).toBe('brand new\n');
  });

  it('removes a clean worktree', async () => {
    const f = fixture();
    const info = await f.manager().create();
    const run = await f.seek('remove', info.id);
    expect(run).toMatchObject({ code: 0, stdout: '[worktree: cleaned]\nthe worktree is removed\n' });
    expect(existsSync(info.path)).toBe(false);
  });
});

describe('seek worktree diff', () => {
  it('prints what a worktree holds since it started (new files included), and names an unknown one', async () => {
    const f = fixture();
    const info = await f.manager().create();
    expect((await f.seek('diff', info.id)).stdout).toBe(`worktree ${info.id} holds nothing new since ${info.base.slice(0, 12)}\n`);
    f.write(info.path, 'b.txt', 'B\n');
    f.write(info.path, 'c.txt', 'new\n');
    const run = await f.seek('diff', info.id.slice(0, 12));
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').slice(0, 3)).toEqual([' b.txt | 2 +-', ' c.txt | 1 +', ' 2 files changed, 2 insertions(+), 1 deletion(-)']);
    expect(run.stdout).toContain('-b\n+B\n');
    expect(run.stdout).toContain('+++ b/c.txt\n@@ -0,0 +1 @@\n+new\n');
    const unknown = await f.seek('diff', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^seek: .*nope.*; run seek worktree list to see them\n$/);
  });
});

describe('seek worktree gc', () => {
  it('prunes discarded refs older than 48h by default, all of them with --older-than 0', async () => {
    const f = fixture();
    git(f.root, 'update-ref', 'refs/seek/discarded/20200101-000000', 'HEAD');
    const fresh = `refs/seek/discarded/${new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}`;
    git(f.root, 'update-ref', fresh, 'HEAD');
    const refs = () => git(f.root, 'for-each-ref', '--format=%(refname)', 'refs/seek/discarded/').split('\n').filter(Boolean);

    expect(await f.seek('gc')).toMatchObject({ code: 0, stdout: 'pruned 1 discarded ref\n' });
    expect(refs()).toEqual([fresh]);
    expect(await f.seek('gc', '--older-than', '7d')).toMatchObject({ code: 0, stdout: 'no discarded refs to prune\n' });
    expect(await f.seek('gc', '--older-than', '0')).toMatchObject({ code: 0, stdout: 'pruned 1 discarded ref\n' });
    expect(refs()).toEqual([]);
  });

  it('removes clean abandoned worktrees past the age, keeping dirty ones and those of a running seek', async () => {
    const f = fixture();
    const old = f.manager(() => new Date(Date.now() - 72 * 3_600_000));
    const deadPid = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const abandon = (id: string) => {
      const file = join(old.worktreesDir, `${id}.json`);
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), owner_pid: Number(deadPid) }));
    };
    const cleanOld = await old.create();
    const dirtyOld = await old.create();
    const liveOld = await old.create(); // its owner is this test process, which runs
    const cleanNew = await f.manager().create();
    for (const info of [cleanOld, dirtyOld, cleanNew]) abandon(info.id);
    f.write(dirtyOld.path, 'a.txt', 'changed\n');

    const run = await f.seek('gc');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        'no discarded refs to prune',
        'removed 1 clean worktree whose seek process had ended',
        `kept 1 worktree with uncommitted changes: ${dirtyOld.id} (merge them, or seek worktree remove ID --discard)`,
        `kept 1 worktree of a seek process still running: ${liveOld.id}`,
        '',
      ].join('\n'),
    );
    expect(existsSync(cleanOld.path)).toBe(false);
    expect(f.read(dirtyOld.path, 'a.txt')).toBe('changed\n');
    expect(existsSync(liveOld.path) && existsSync(cleanNew.path)).toBe(true);

    const all = await f.seek('gc', '--older-than', '0');
    expect(all.stdout).toContain('removed 1 clean worktree whose seek process had ended');
    expect(existsSync(cleanNew.path)).toBe(false);
    expect(git(f.root, 'for-each-ref', '--format=%(refname)', 'refs/seek/worktrees/').split('\n').filter(Boolean).sort()).toEqual(
      [`refs/seek/worktrees/${dirtyOld.id}`, `refs/seek/worktrees/${liveOld.id}`].sort(),
    );
  });

  it('rejects a bad duration as a usage error (exit 2)', async () => {
    const f = fixture();
    const run = await f.seek('gc', '--older-than', 'soon');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('expected a duration such as 48h, 30m, 7d, 90s, or 0 for all');
  });
});
