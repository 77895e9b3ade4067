import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorktreeManager } from '../../../src/worktree/manager.js';
import { makeHostileRepo } from '../tools/hostile-repo.js';
import { GIT_ENV, tempDir } from './helpers.js';

/** The environment of the setup's own git calls: hermetic config and a fixed identity. */
function setupEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  for (const [key, value] of Object.entries(GIT_ENV)) if (value !== undefined) env[key] = value;
  return env;
}

describe('the worktree manager in a repository whose config names programs', () => {
  it('never runs them: create, status, diff, snapshot, list, housekeeping, discard, merge', async () => {
    const env = setupEnv();
    const repo = makeHostileRepo(tempDir('seek-wt-hostile-'), tempDir('seek-wt-outside-'), env);
    // The repository is armed: plain git runs the program (fsmonitor, the clean filter, hooks).
    writeFileSync(join(repo.root, 'a.txt'), 'one\ntwo\nthree (changed)\n');
    execFileSync('git', ['status'], { cwd: repo.root, env, stdio: 'ignore' });
    expect(repo.runs()).not.toBe('');
    repo.disarmedGit('checkout', '-q', '--', 'a.txt');
    repo.clear();
    repo.disarmedGit('status');
    expect(repo.runs()).toBe(''); // and the test's own disarmed git does not

    const manager = new WorktreeManager({ projectRoot: repo.root, seekHome: tempDir('seek-wt-home-'), projectId: '0123456789abcdef', env: GIT_ENV });
    const first = await manager.create();
    writeFileSync(join(first.path, 'a.txt'), 'one\ntwo (worktree)\nthree\n');
    writeFileSync(join(first.path, 'new.inc'), 'new\n');
    expect(await manager.status(first.path)).toBe(2);
    expect((await manager.diff(first.id)).text).toContain('two (worktree)');
    await manager.snapshotTree(first.path);
    expect(await manager.list()).toHaveLength(1);
    await manager.housekeep();
    expect(await manager.treeChanges()).toBe(0);
    expect((await manager.cleanup(first.path, 'discard')).kind).toBe('discarded');

    // A merge that needs the content merge driver: both sides change the same line.
    const second = await manager.create();
    writeFileSync(join(second.path, 'a.txt'), 'one\ntwo (worktree)\nthree\n');
    writeFileSync(join(repo.root, 'a.txt'), 'one\ntwo (main)\nthree\n');
    repo.disarmedGit('commit', '-q', '-am', 'main');
    expect(repo.runs()).toBe('');
    expect((await manager.cleanup(second.path, 'merge')).kind).toBe('merge_conflict');
    // A clean merge: a commit, a ref update, post-merge territory.
    writeFileSync(join(second.path, 'a.txt'), 'one\ntwo (main)\nthree\n');
    writeFileSync(join(second.path, 'c.txt'), 'c\n');
    expect((await manager.cleanup(second.path, 'merge')).kind).toBe('merged');

    expect(repo.runs()).toBe('');
  });
});
