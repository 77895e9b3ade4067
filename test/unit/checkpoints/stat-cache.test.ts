/**
 * The private index snapshots reuse (stat-cache.ts) must never make a snapshot differ from one
 * taken from a fresh copy of the user's index: same-size edits in the same second, the user's
 * index changing under it, config changed mid-session, and the user's index never written.
 */
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointLimits, DEFAULT_CHECKPOINT_SETTINGS, openCheckpointRepository, snapshotTree } from '../../../src/checkpoints/index.js';
import { StatCache, type EarlyListing } from '../../../src/checkpoints/stat-cache.js';
import { workingStateTree } from '../../../src/worktree/rescue.js';
import { GitClient, runGit } from '../../../src/worktree/git.js';
import { git, gitState, makeRepo, writeFiles } from './helpers.js';

/** The tree a snapshot from a fresh copy of the user's index gives (the reference). */
const reference = (root: string): Promise<string> => workingStateTree(new GitClient(runGit), root);
const blob = (root: string, tree: string, path: string): string => git(root, 'cat-file', '-p', `${tree}:${path}`);

/** Configures a filter driver that would leave a marker, changes a file it applies to, and checks
 * that the next snapshot takes the file as it is without running the filter. */
async function expectNewFilterNeutralised(root: string, repo: Awaited<ReturnType<typeof openCheckpointRepository>>): Promise<void> {
  const marker = join(root, '..', 'filter-ran');
  git(root, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
  writeFiles(root, { '.gitattributes': '*.txt filter=evil\n', 'b.txt': 'changed after the config\n' });
  const { tree } = await snapshotTree(repo);
  expect(blob(root, tree, 'b.txt')).toBe('changed after the config\n');
  expect(existsSync(marker)).toBe(false);
}

describe('the private index of checkpoints', () => {
  it('sees same-size edits made in the same second as the previous snapshot', async () => {
    const { root, home } = makeRepo();
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    for (const content of ['one\n', 'two\n', 'six\n']) {
      writeFiles(root, { 'b.txt': content, 'new.txt': content });
      const { tree } = await snapshotTree(repo);
      expect(blob(root, tree, 'b.txt')).toBe(content);
      expect(blob(root, tree, 'new.txt')).toBe(content);
      expect(tree).toBe(await reference(root));
    }
  });

  it("follows the user's index when it changes (a commit, a removal from the index), and never writes it", async () => {
    const { root, home } = makeRepo();
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    await snapshotTree(repo);
    git(root, 'commit', '-qm', 'user commit');
    writeFiles(root, { 'c.txt': 'added by the user\n' });
    git(root, 'add', 'c.txt');
    const state = gitState(root);
    expect((await snapshotTree(repo)).tree).toBe(await reference(root));
    // The user stops tracking a file that .gitignore matches: it leaves the snapshot too.
    writeFiles(root, { 'keep.log': 'tracked on purpose\n' });
    git(root, 'add', '-f', 'keep.log');
    expect(blob(root, (await snapshotTree(repo)).tree, 'keep.log')).toBe('tracked on purpose\n');
    git(root, 'rm', '-q', '--cached', 'keep.log');
    const { tree } = await snapshotTree(repo);
    expect(tree).toBe(await reference(root));
    expect(git(root, 'ls-tree', '-r', '--name-only', tree)).not.toContain('keep.log');
    expect(gitState(root).head).toBe(state.head);
  });

  it('neutralises a filter driver configured after the first snapshot', async () => {
    const { root, home } = makeRepo();
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    await snapshotTree(repo);
    await expectNewFilterNeutralised(root, repo);
  });

  it('takes files whose names look like pathspecs literally', async () => {
    const { root, home } = makeRepo();
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    writeFiles(root, { '*.txt': 'a star\n', ':(exclude)x': 'magic\n' });
    const { tree } = await snapshotTree(repo);
    expect(blob(root, tree, '*.txt')).toBe('a star\n');
    expect(blob(root, tree, ':(exclude)x')).toBe('magic\n');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('alpha staged\n');
    expect(tree).toBe(await reference(root));
  });
});

describe('the config listing begun when the repository is opened', () => {
  /** A StatCache for `root` given an early listing that ignores secret.txt (so its use shows). */
  function cacheWithEarlyListing(root: string, early: { ageMs?: number; includes?: boolean } = {}) {
    const ignoreFile = join(root, '..', 'early-excludes');
    writeFileSync(ignoreFile, 'secret.txt\n');
    const configPaths = ['config', 'config.worktree'].map((name) => join(root, git(root, 'rev-parse', '--git-path', name).trim()));
    if (early.ageMs !== undefined) {
      const then = new Date(Date.now() - early.ageMs);
      utimesSync(configPaths[0]!, then, then);
    }
    const listing: EarlyListing = { startedAt: Date.now(), result: Promise.resolve({ args: ['-c', `core.excludesFile=${ignoreFile}`], includes: early.includes ?? false }) };
    const target = { root, git: new GitClient(runGit), indexPath: join(root, '.git', 'index'), configPaths };
    return { ...target, shadow: false, statCache: new StatCache(target, listing), maxFileSize: 1 << 20, limits: { ...checkpointLimits(DEFAULT_CHECKPOINT_SETTINGS), maxFileSize: 1 << 20 } };
  }
  const paths = (root: string, tree: string): string => git(root, 'ls-tree', '-r', '--name-only', tree);

  it('serves the first snapshot when no config file was written since well before it began', async () => {
    const { root } = makeRepo();
    writeFiles(root, { 'secret.txt': 'untracked\n' });
    const repo = cacheWithEarlyListing(root, { ageMs: 60_000 });
    expect(paths(root, (await snapshotTree(repo)).tree)).not.toContain('secret.txt');
  });

  it('is not used when a config file was written after it began, or just before', async () => {
    const { root } = makeRepo(); // its config was written a moment ago
    writeFiles(root, { 'secret.txt': 'untracked\n' });
    const repo = cacheWithEarlyListing(root);
    expect(paths(root, (await snapshotTree(repo)).tree)).toContain('secret.txt');
  });

  it('is not used when the config includes other files (their changes cannot be seen)', async () => {
    const { root } = makeRepo();
    writeFiles(root, { 'secret.txt': 'untracked\n' });
    const repo = cacheWithEarlyListing(root, { ageMs: 60_000, includes: true });
    expect(paths(root, (await snapshotTree(repo)).tree)).toContain('secret.txt');
  });

  it('neutralises a filter driver configured after the repository was opened, before its first snapshot', async () => {
    const { root, home } = makeRepo();
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(root, '.git', 'config'), old, old);
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    await expectNewFilterNeutralised(root, repo);
  });
});
