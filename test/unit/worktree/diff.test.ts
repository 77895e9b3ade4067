/**
 * WorktreeManager.diff against real git: what a worktree holds since the commit it started from
 * (commits, staged and unstaged changes, new files with their content), without touching it.
 */
import { describe, expect, it } from 'vitest';
import { WorktreeError } from '../../../src/worktree/manager.js';
import { git, makeProject, writeFiles } from './helpers.js';

describe('WorktreeManager.diff', () => {
  it('shows commits, uncommitted and new files against the base, leaves the worktree untouched, and cuts at the byte cap', async () => {
    const { manager } = makeProject({ 'a.txt': 'one\ntwo\n', '.gitignore': 'ignored.txt\n' });
    const info = await manager.create();
    expect(await manager.diff(info.id)).toEqual({ id: info.id, base: info.base, text: '' });

    writeFiles(info.path, { 'committed.txt': 'in a commit\n' });
    git(info.path, 'add', 'committed.txt');
    git(info.path, 'commit', '-qm', 'a commit in the worktree');
    writeFiles(info.path, { 'a.txt': 'one\nTWO\n', 'new file.txt': 'brand new\n', 'ignored.txt': 'secret\n' });
    git(info.path, 'add', 'a.txt');
    const statusBefore = git(info.path, 'status', '--porcelain');

    const { text } = await manager.diff(info.path);
    expect(text.split('\n').slice(0, 4)).toEqual([' a.txt         | 2 +-', ' committed.txt | 1 +', ' new file.txt  | 1 +', ' 3 files changed, 3 insertions(+), 1 deletion(-)']);
    expect(text).toContain('-two\n+TWO\n');
    expect(text).toContain('+in a commit\n');
    expect(text).toContain('+brand new\n');
    expect(text).not.toContain('secret');
    expect(git(info.path, 'status', '--porcelain')).toBe(statusBefore);

    const cut = await manager.diff(info.id, 200);
    expect(Buffer.byteLength(cut.text)).toBeLessThanOrEqual(200);
    expect(cut.text).toMatch(/… \(diff cut at 200 bytes; the whole of it: git diff [0-9a-f]{12} [0-9a-f]{12}\)$/);
  });

  it('names an unknown worktree', async () => {
    const { manager } = makeProject();
    await expect(manager.diff('nope')).rejects.toBeInstanceOf(WorktreeError);
  });
});
