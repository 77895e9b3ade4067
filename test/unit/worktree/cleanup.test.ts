import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGit, type GitRunner } from '../../../src/worktree/git.js';
import { git, head, makeProject, read, refs, writeFiles } from './helpers.js';

/** A tracked modification, a staged one, a deletion and an untracked file. */
function makeDirty(path: string): void {
  writeFiles(path, { 'a.txt': 'one\nTWO\nthree\n', 'b.txt': 'staged\n', 'new/untracked.txt': 'brand new\n' });
  git(path, 'add', 'b.txt');
  git(path, 'rm', '-q', 'c.txt');
}

const FILES = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n', 'c.txt': 'c\n' };

describe('WorktreeManager.cleanup', () => {
  it('removes a clean worktree, its anchor ref, its empty branch and its metadata', async () => {
    const { root, manager } = makeProject(FILES);
    const info = await manager.create();
    const outcome = await manager.cleanup(info.path);
    expect(outcome).toEqual({ kind: 'cleaned', result: '[worktree: cleaned]' });
    expect(existsSync(info.path)).toBe(false);
    expect(existsSync(join(manager.worktreesDir, `${info.id}.json`))).toBe(false);
    expect(refs(root, 'refs/seek/')).toEqual([]);
    expect(refs(root, 'refs/heads/seek/')).toEqual([]);
    expect(git(root, 'worktree', 'list', '--porcelain')).not.toContain(info.id);
  });

  it('keeps the branch of a clean worktree that holds commits', async () => {
    const { root, manager } = makeProject(FILES);
    const info = await manager.create();
    writeFiles(info.path, { 'a.txt': 'committed\n' });
    git(info.path, 'commit', '-q', '-am', 'work');
    const tip = head(info.path);
    expect((await manager.cleanup(info.path)).result).toBe('[worktree: cleaned]');
    expect(git(root, 'rev-parse', info.branch).trim()).toBe(tip);
  });

  it('keeps a dirty worktree by default and reports path, branch and change count', async () => {
    const { root, manager } = makeProject(FILES);
    const info = await manager.create();
    makeDirty(info.path);
    const outcome = await manager.cleanup(info.path);
    expect(outcome.result).toBe(`[worktree: kept path=${info.path} branch=${info.branch} changes=4]`);
    expect(outcome).toMatchObject({ kind: 'kept', path: info.path, branch: info.branch, changes: 4 });
    expect(read(info.path, 'new/untracked.txt')).toBe('brand new\n');
    expect(refs(root, 'refs/seek/worktrees/')).toEqual([`refs/seek/worktrees/${info.id}`]);
  });

  it('discards after a rescue that holds tracked, staged and untracked changes', async () => {
    const { root, manager } = makeProject(FILES);
    const info = await manager.create();
    makeDirty(info.path);
    const outcome = await manager.cleanup(info.path, 'discard');
    expect(outcome.kind).toBe('discarded');
    expect(outcome.result).toMatch(/^\[worktree: discarded changes=4\] rescue stash at refs\/seek\/discarded\/\d{8}-\d{6}$/);
    const ref = outcome.kind === 'discarded' ? outcome.rescueRef! : '';
    expect(outcome.result.endsWith(ref)).toBe(true);
    expect(existsSync(info.path)).toBe(false);
    expect(refs(root, 'refs/seek/worktrees/')).toEqual([]);
    expect(refs(root, 'refs/heads/seek/')).toEqual([]);

    expect(git(root, 'show', `${ref}:a.txt`)).toBe('one\nTWO\nthree\n');
    expect(git(root, 'show', `${ref}:b.txt`)).toBe('staged\n');
    expect(git(root, 'show', `${ref}:new/untracked.txt`)).toBe('brand new\n');
    expect(git(root, 'ls-tree', '--name-only', ref)).not.toContain('c.txt');
    expect(git(root, 'log', '-1', '--format=%s', ref).trim()).toMatch(/^seek discarded worktree \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // The documented recovery: `git stash apply --index <ref>` brings everything back, staging included.
    git(root, 'stash', 'apply', '--index', ref);
    expect(read(root, 'a.txt')).toBe('one\nTWO\nthree\n');
    expect(read(root, 'new/untracked.txt')).toBe('brand new\n');
    expect(existsSync(join(root, 'c.txt'))).toBe(false);
    expect(git(root, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([' M a.txt', '?? new/', 'D  c.txt', 'M  b.txt']);
  });

  it('aborts before any reset when the rescue snapshot fails', async () => {
    const { root, make } = makeProject(FILES);
    const calls: string[] = [];
    const failing: GitRunner = async (args, options) => {
      calls.push(args.filter((arg) => !arg.startsWith('user.') && arg !== '-c')[0] ?? '');
      if (args.includes('commit-tree')) return { stdout: '', stderr: 'fatal: injected failure', code: 128 };
      return runGit(args, options);
    };
    const manager = make({ git: failing });
    const info = await manager.create();
    makeDirty(info.path);
    const before = git(info.path, 'status', '--porcelain');
    calls.length = 0;
    const outcome = await manager.cleanup(info.path, 'discard');
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'rescue_failed' });
    expect(outcome.result).toBe('[worktree: failed reason=rescue_failed] rescue stash failed: fatal: injected failure');
    expect(calls).not.toContain('reset');
    expect(calls).not.toContain('clean');
    expect(git(info.path, 'status', '--porcelain')).toBe(before);
    expect(read(info.path, 'a.txt')).toBe('one\nTWO\nthree\n');
    expect(read(info.path, 'new/untracked.txt')).toBe('brand new\n');
    expect(refs(root, 'refs/seek/discarded/')).toEqual([]);
    expect(refs(root, 'refs/seek/worktrees/')).toEqual([`refs/seek/worktrees/${info.id}`]);
  });

  it('gives discards in the same second distinct rescue refs', async () => {
    const fixed = new Date('2025-03-04T05:06:07Z');
    const { root, make } = makeProject(FILES);
    const manager = make({ clock: () => fixed });
    const first = await manager.create();
    const second = await manager.create();
    writeFileSync(join(first.path, 'a.txt'), 'first\n');
    writeFileSync(join(second.path, 'a.txt'), 'second\n');
    expect((await manager.cleanup(first.path, 'discard')).result).toBe('[worktree: discarded changes=1] rescue stash at refs/seek/discarded/20250304-050607');
    expect((await manager.cleanup(second.path, 'discard')).result).toBe('[worktree: discarded changes=1] rescue stash at refs/seek/discarded/20250304-050607-2');
    expect(git(root, 'show', 'refs/seek/discarded/20250304-050607:a.txt')).toBe('first\n');
    expect(git(root, 'show', 'refs/seek/discarded/20250304-050607-2:a.txt')).toBe('second\n');
  });

  it('refuses paths that are not seek worktrees and unknown if_dirty values', async () => {
    const { root, manager } = makeProject(FILES);
    const outcome = await manager.cleanup(root);
    expect(outcome.result).toBe(`[worktree: failed reason=cleanup_error] ${root} is not a seek-managed worktree of this project`);
    const info = await manager.create();
    expect((await manager.cleanup(info.path, 'later' as never)).result).toBe('[worktree: failed reason=cleanup_error] unknown if_dirty value "later"');
  });

  it('reports unknown_status when git cannot read the worktree', async () => {
    const { manager } = makeProject(FILES);
    const info = await manager.create();
    writeFileSync(join(info.path, '.git'), 'gitdir: /nonexistent/place\n');
    const outcome = await manager.cleanup(info.path, 'discard');
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'unknown_status' });
    expect(outcome.result).toMatch(/^\[worktree: failed reason=unknown_status\] fatal: /);
    expect(readFileSync(join(info.path, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });
});
