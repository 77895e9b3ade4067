import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { worktreesDir } from '../../../src/config/paths.js';
import { isSessionId } from '../../../src/session/format.js';
import { WorktreeError } from '../../../src/worktree/manager.js';
import { git, head, makeProject, read, refs, writeFiles } from './helpers.js';

describe('WorktreeManager.create', () => {
  it('adds a worktree on seek/wt/<id> at HEAD, anchored by refs/seek/worktrees/<id>', async () => {
    const { root, home, manager } = makeProject();
    const info = await manager.create({ ownerSubSid: '20250101-000000-abcdef' });
    expect(isSessionId(info.id)).toBe(true);
    expect(info.path).toBe(join(worktreesDir(home, '0123456789abcdef'), info.id));
    expect(info.branch).toBe(`seek/wt/${info.id}`);
    expect(info.base).toBe(head(root));
    expect(read(info.path, 'a.txt')).toBe('one\ntwo\nthree\n');
    expect(git(info.path, 'symbolic-ref', '--short', 'HEAD').trim()).toBe(info.branch);
    expect(git(root, 'rev-parse', `refs/seek/worktrees/${info.id}`).trim()).toBe(info.base);
    const meta = JSON.parse(readFileSync(join(manager.worktreesDir, `${info.id}.json`), 'utf8'));
    expect(meta).toMatchObject({ id: info.id, branch: info.branch, base: info.base, owner_sub_sid: '20250101-000000-abcdef' });
    expect(await manager.status(info.path)).toBe(0);
  });

  it('honours base and branch', async () => {
    const { root, manager } = makeProject();
    const first = head(root);
    writeFiles(root, { 'a.txt': 'changed\n' });
    git(root, 'commit', '-q', '-am', 'second');
    const info = await manager.create({ base: first, branch: 'feature/x' });
    expect(info.base).toBe(first);
    expect(info.branch).toBe('feature/x');
    expect(read(info.path, 'a.txt')).toBe('one\ntwo\nthree\n');
    expect(git(root, 'rev-parse', 'feature/x').trim()).toBe(first);
  });

  it('fails with git stderr and leaves nothing behind', async () => {
    const { root, manager } = makeProject();
    const attempt = manager.create({ base: 'no-such-ref' });
    await expect(attempt).rejects.toBeInstanceOf(WorktreeError);
    await expect(attempt).rejects.toThrow(/cannot resolve base no-such-ref: fatal/);
    git(root, 'branch', 'taken');
    await expect(manager.create({ branch: 'taken' })).rejects.toThrow(/already exists/);
    expect(refs(root, 'refs/seek/')).toEqual([]);
    expect(existsSync(manager.worktreesDir) ? readdirSync(manager.worktreesDir) : []).toEqual([]);
    expect(git(root, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(git(root, 'rev-parse', 'taken').trim()).toBe(head(root));
  });

  it('cleans up a half-made worktree when preparing it fails', async () => {
    const { root, make } = makeProject({ 'a.txt': 'a\n', '.gitignore': '.env\n' });
    writeFiles(root, { '.worktreeinclude': '.env\n', '.env': 'X=1\n' });
    const manager = make({
      git: async (args, options) => {
        const { runGit } = await import('../../../src/worktree/git.js');
        if (args[0] === 'check-ignore') return { stdout: '', stderr: 'boom', code: 128 };
        return runGit(args, options);
      },
    });
    await expect(manager.create()).rejects.toThrow(/preparing the worktree failed: .*boom/);
    expect(refs(root, 'refs/seek/')).toEqual([]);
    expect(refs(root, 'refs/heads/seek/')).toEqual([]);
    expect(readdirSync(manager.worktreesDir)).toEqual([]);
    expect(git(root, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  });
});
