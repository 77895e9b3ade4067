import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conflictRegions, overwrittenFiles } from '../../../src/worktree/merge.js';
import { git, head, makeProject, read, refs, writeFiles } from './helpers.js';

const FILES = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n' };

function readOrigHead(tree: string): string {
  try {
    return git(tree, 'rev-parse', '--verify', '--quiet', 'ORIG_HEAD').trim();
  } catch {
    return '<none>';
  }
}

/** Everything "exactly as it was" covers: file bytes, status, HEAD, ORIG_HEAD, the index entries
 * (stage, mode, blob per path; the index file's stat cache is rewritten by the abort). */
function snapshot(tree: string, files: string[]): Record<string, string> {
  const state: Record<string, string> = {
    status: git(tree, 'status', '--porcelain', '--untracked-files=all'),
    head: head(tree),
    index: git(tree, 'ls-files', '--stage'),
    cached: git(tree, 'diff', '--cached'),
    orig: readOrigHead(tree),
  };
  for (const file of files) state[`file:${file}`] = existsSync(join(tree, file)) ? readFileSync(join(tree, file)).toString('base64') : '<absent>';
  return state;
}

describe('merging a worktree', () => {
  it('commits the changes on the worktree branch and merges it into the current branch', async () => {
    const { root, manager } = makeProject(FILES);
    const info = await manager.create();
    writeFiles(info.path, { 'a.txt': 'one\ntwo (worktree)\nthree\n', 'new.txt': 'new file\n' });
    writeFiles(root, { 'b.txt': 'b on main\n' });
    git(root, 'commit', '-q', '-am', 'main moves on');

    const outcome = await manager.cleanup(info.path, 'merge');
    const mergeCommit = head(root);
    expect(outcome.result).toBe(`[worktree: merged branch=${info.branch} commit=${mergeCommit}]`);
    expect(outcome).toMatchObject({ kind: 'merged', branch: info.branch, commit: mergeCommit });
    expect(read(root, 'a.txt')).toBe('one\ntwo (worktree)\nthree\n');
    expect(read(root, 'new.txt')).toBe('new file\n');
    expect(read(root, 'b.txt')).toBe('b on main\n');
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(git(root, 'log', '-1', '--format=%s%n%P', mergeCommit).split('\n')[0]).toBe(`seek: merge worktree ${info.id}`);
    // The branch stays and holds the snapshot; the worktree and its anchor are gone.
    expect(git(root, 'rev-parse', `${mergeCommit}^2`).trim()).toBe(git(root, 'rev-parse', info.branch).trim());
    expect(git(root, 'show', `${info.branch}:new.txt`)).toBe('new file\n');
    expect(existsSync(info.path)).toBe(false);
    expect(refs(root, 'refs/seek/')).toEqual([]);
  });

  it('includes commits the model made in the worktree, plus uncommitted work on top', async () => {
    const { root, manager } = makeProject(FILES);
    const info = await manager.create();
    writeFiles(info.path, { 'c.txt': 'committed\n' });
    git(info.path, 'add', 'c.txt');
    git(info.path, 'commit', '-q', '-m', 'model commit');
    writeFiles(info.path, { 'd.txt': 'uncommitted\n' });
    const outcome = await manager.merge(info.id);
    expect(outcome.kind).toBe('merged');
    expect(read(root, 'c.txt')).toBe('committed\n');
    expect(read(root, 'd.txt')).toBe('uncommitted\n');
    expect(git(root, 'log', '--format=%s', info.branch).split('\n')).toContain('model commit');
  });

  it('merges a clean worktree whose branch has commits, and cleans one with nothing to merge', async () => {
    const { root, manager } = makeProject(FILES);
    const withCommit = await manager.create();
    writeFiles(withCommit.path, { 'c.txt': 'c\n' });
    git(withCommit.path, 'add', 'c.txt');
    git(withCommit.path, 'commit', '-q', '-m', 'c');
    expect((await manager.cleanup(withCommit.path, 'merge')).kind).toBe('merged');
    expect(read(root, 'c.txt')).toBe('c\n');

    const before = head(root);
    const untouched = await manager.create();
    expect((await manager.cleanup(untouched.path, 'merge')).result).toBe('[worktree: cleaned]');
    expect(head(root)).toBe(before);
  });

  it('on conflict aborts, leaves both trees exactly as they were and reports the hunks', async () => {
    const { root, manager } = makeProject(FILES);
    const info = await manager.create();
    writeFiles(info.path, { 'a.txt': 'one\nTWO from worktree\nthree\n', 'wt-new.txt': 'new\n' });
    writeFiles(root, { 'a.txt': 'one\nTWO from main\nthree\n' });
    git(root, 'commit', '-q', '-am', 'main edits line two');
    writeFiles(root, { 'b.txt': 'unrelated local edit\n', 'scratch.txt': 'untracked in main\n' });
    git(root, 'reset', '-q', '--soft', 'HEAD'); // sets ORIG_HEAD, which must survive

    const files = ['a.txt', 'b.txt', 'scratch.txt', 'wt-new.txt'];
    const mainBefore = snapshot(root, files);
    const wtBefore = snapshot(info.path, files);
    const branchBefore = git(root, 'rev-parse', info.branch).trim();

    const outcome = await manager.cleanup(info.path, 'merge');
    expect(outcome.kind).toBe('merge_conflict');
    expect(outcome.result.split('\n')[0]).toBe('[worktree: merge_conflict files=1]');
    expect(outcome.result).toContain('<<<<<<< HEAD\nTWO from main\n=======\nTWO from worktree\n>>>>>>> ');
    if (outcome.kind !== 'merge_conflict') return;
    expect(outcome.report.files).toEqual(['a.txt']);
    expect(outcome.report.hunks[0]?.file).toBe('a.txt');
    expect(outcome.report.message).toMatch(/aborted, both working trees are as they were/);

    expect(snapshot(root, files)).toEqual(mainBefore);
    expect(existsSync(join(root, '.git', 'MERGE_HEAD'))).toBe(false);
    expect(snapshot(info.path, files)).toEqual(wtBefore);
    expect(git(root, 'rev-parse', info.branch).trim()).toBe(branchBefore);
    expect(existsSync(info.path)).toBe(true);
  });

  it('is refused, changing nothing, when local changes in the main tree would be overwritten', async () => {
    const { root, manager } = makeProject(FILES);
    const info = await manager.create();
    writeFiles(info.path, { 'a.txt': 'worktree version\n', 'scratch.txt': 'from worktree\n' });
    writeFiles(root, { 'a.txt': 'local uncommitted edit\n', 'scratch.txt': 'untracked in main\n' });
    const files = ['a.txt', 'scratch.txt'];
    const mainBefore = snapshot(root, files);
    const wtBefore = snapshot(info.path, files);

    const outcome = await manager.cleanup(info.path, 'merge');
    expect(outcome.kind).toBe('merge_conflict');
    if (outcome.kind !== 'merge_conflict') return;
    expect(outcome.report.files).toEqual(['a.txt', 'scratch.txt']);
    expect(outcome.result).toMatch(/^\[worktree: merge_conflict files=2\]\nmerge refused: it would overwrite local changes/);
    expect(snapshot(root, files)).toEqual(mainBefore);
    expect(snapshot(info.path, files)).toEqual(wtBefore);

    // With the local edit gone, the untracked file in main is what blocks it.
    git(root, 'checkout', '--', 'a.txt');
    const second = await manager.cleanup(info.path, 'merge');
    expect(second.kind === 'merge_conflict' && second.report.files).toEqual(['scratch.txt']);
    expect(read(root, 'scratch.txt')).toBe('untracked in main\n');
  });

  it('refuses to start while the main tree is in the middle of a merge', async () => {
    const { root, manager } = makeProject(FILES);
    const info = await manager.create();
    writeFiles(info.path, { 'c.txt': 'c\n' });
    writeFileSync(join(root, '.git', 'MERGE_HEAD'), `${head(root)}\n`);
    const outcome = await manager.cleanup(info.path, 'merge');
    expect(outcome.result).toBe('[worktree: failed reason=merge_error] the main working tree has a merge in progress; finish or abort it first');
    expect(existsSync(join(root, '.git', 'MERGE_HEAD'))).toBe(true);
  });

  it('works in a repository with no user.email: seek commits as seek <seek@localhost>', async () => {
    const { root, manager } = makeProject(FILES); // the hermetic env has no global identity
    expect(git(root, 'config', '--local', '--list')).not.toContain('user.email');
    const merging = await manager.create();
    writeFiles(merging.path, { 'a.txt': 'merged\n' });
    expect((await manager.cleanup(merging.path, 'merge')).kind).toBe('merged');
    expect(git(root, 'log', '-1', '--format=%an <%ae>|%cn <%ce>').trim()).toBe('seek <seek@localhost>|seek <seek@localhost>');

    const discarding = await manager.create();
    writeFiles(discarding.path, { 'a.txt': 'discarded\n', 'u.txt': 'u\n' });
    const outcome = await manager.cleanup(discarding.path, 'discard');
    expect(outcome.kind).toBe('discarded');
    const ref = outcome.kind === 'discarded' ? outcome.rescueRef! : '';
    expect(git(root, 'show', `${ref}:u.txt`)).toBe('u\n');
    expect(git(root, 'log', '-1', '--format=%ae', ref).trim()).toBe('seek@localhost');
  });

  it("uses the user's identity when one is configured", async () => {
    const { root, manager } = makeProject(FILES);
    git(root, 'config', 'user.name', 'Ada');
    git(root, 'config', 'user.email', 'ada@example.com');
    const info = await manager.create();
    writeFiles(info.path, { 'a.txt': 'merged\n' });
    expect((await manager.cleanup(info.path, 'merge')).kind).toBe('merged');
    expect(git(root, 'log', '-1', '--format=%an <%ae>').trim()).toBe('Ada <ada@example.com>');
    expect(git(root, 'log', '-1', '--format=%an <%ae>', info.branch).trim()).toBe('Ada <ada@example.com>');
  });
});

describe('merge helpers', () => {
  it('extracts conflict regions and the files a refusal lists', () => {
    const text = 'a\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> abc\nb\n<<<<<<< HEAD\np\n=======\nq\n>>>>>>> abc\n';
    expect(conflictRegions(text)).toBe('<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> abc\n\n<<<<<<< HEAD\np\n=======\nq\n>>>>>>> abc');
    const stderr = 'error: Your local changes to the following files would be overwritten by merge:\n\ta.txt\n\tdir/b.txt\nPlease commit your changes or stash them before you merge.\nAborting\n';
    expect(overwrittenFiles(stderr)).toEqual(['a.txt', 'dir/b.txt']);
  });
});
