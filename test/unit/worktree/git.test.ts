import { describe, expect, it } from 'vitest';
import { GitClient, GitError, gitOrThrow, isGitRepository, runGit } from '../../../src/worktree/git.js';
import { GIT_ENV, git, makeProject, tempDir } from './helpers.js';

describe('runGit', () => {
  it('returns exit status and output, and never throws', async () => {
    const { root } = makeProject();
    const ok = await runGit(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: root });
    expect(ok).toMatchObject({ stdout: 'main\n', code: 0 });
    const bad = await runGit(['rev-parse', '--verify', 'nope'], { cwd: root });
    expect(bad.code).toBe(128);
    expect(bad.stderr).toContain('fatal');
    const missing = await runGit(['status'], { cwd: '/nonexistent/dir' });
    expect(missing.code).toBe(-1);
    const aborted = await runGit(['status'], { cwd: root, signal: AbortSignal.abort() });
    expect(aborted.code).toBe(-1);
  });

  it('ignores an inherited GIT_DIR and passes stdin', async () => {
    const { root } = makeProject();
    const other = makeProject().root;
    const result = await runGit(['rev-parse', '--absolute-git-dir'], { cwd: root, env: { GIT_DIR: `${other}/.git` } });
    expect(result.stdout.trim()).toBe(`${other}/.git`); // explicit env wins...
    process.env.GIT_DIR = `${other}/.git`;
    try {
      expect((await runGit(['rev-parse', '--absolute-git-dir'], { cwd: root })).stdout.trim()).toBe(`${root}/.git`); // ...inherited is dropped
    } finally {
      delete process.env.GIT_DIR;
    }
    const hashed = await runGit(['hash-object', '--stdin'], { cwd: root, input: 'hello\n' });
    expect(hashed.stdout.trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('gitOrThrow throws a GitError with git stderr; isGitRepository', async () => {
    const { root } = makeProject();
    const failure = gitOrThrow(runGit, ['checkout', 'no-such-branch'], { cwd: root });
    await expect(failure).rejects.toBeInstanceOf(GitError);
    await expect(failure).rejects.toThrow(/no-such-branch/);
    expect(await isGitRepository(root)).toBe(true);
    expect(await isGitRepository(tempDir())).toBe(false);
  });

  it('adds a seek identity only when user.email is not configured', async () => {
    const { root } = makeProject();
    const client = new GitClient(runGit, GIT_ENV);
    expect(await client.identityArgs(root)).toEqual(['-c', 'user.name=seek', '-c', 'user.email=seek@localhost']);
    git(root, 'config', 'user.email', 'me@example.com');
    expect(await client.identityArgs(root)).toEqual([]);
  });
});
