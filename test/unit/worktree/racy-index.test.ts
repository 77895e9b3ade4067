/**
 * Diff and rescue see an edit that git's stat cache cannot: same size, same mtime, made in the
 * second the worktree's index was written. git re-reads such "racily clean" entries by content
 * only while the index file is not newer than them, so the private index copy that diff and rescue
 * work on must keep that property.
 *
 * Deterministic: instead of racing the clock, the test puts the file's mtime and the index's mtime
 * in the same (past) second with utimes, and turns off core.trustctime so that the ctime the edit
 * itself sets (which utimes cannot reset) does not give the change away.
 */
import { utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitClient, runGit } from '../../../src/worktree/git.js';
import { rescueCommit } from '../../../src/worktree/rescue.js';
import { GIT_ENV, git, head, makeProject } from './helpers.js';

const BEFORE = 'one\ntwo\nthree\n';
const AFTER = 'ONE\ntwo\nthree\n'; // same size

/** A worktree whose index was written in the same second as a.txt's last change, which keeps
 * its size and mtime: only git's racy-timestamp check can notice it. */
async function racyWorktree() {
  const { root, manager } = makeProject({ 'a.txt': BEFORE });
  git(root, 'config', 'core.trustctime', 'false');
  const info = await manager.create();
  const file = join(info.path, 'a.txt');
  const second = new Date((Math.floor(Date.now() / 1000) - 3600) * 1000);
  utimesSync(file, second, second);
  git(info.path, 'update-index', '--refresh'); // the index now caches that mtime for a.txt
  const index = resolve(info.path, git(info.path, 'rev-parse', '--git-path', 'index').trim());
  utimesSync(index, second, second); // ...and was written in that same second
  writeFileSync(file, AFTER);
  utimesSync(file, second, second);
  return { info, manager };
}

describe('worktree diff and rescue with a racily clean index entry', () => {
  it('diff shows a same-size edit made in the second the index was written', async () => {
    const { info, manager } = await racyWorktree();
    const { text } = await manager.diff(info.id);
    expect(text).toContain('-one\n+ONE\n');
  });

  it('the rescue commit holds that edit, and the index as it was', async () => {
    const { info } = await racyWorktree();
    const gitClient = new GitClient(runGit, GIT_ENV);
    const base = head(info.path);
    const sha = await rescueCommit(gitClient, info.path, base, 'rescue', ['-c', 'user.name=t', '-c', 'user.email=t@t']);
    expect(git(info.path, 'show', `${sha}:a.txt`)).toBe(AFTER);
    expect(git(info.path, 'show', `${sha}^2:a.txt`)).toBe(BEFORE);
  });
});
