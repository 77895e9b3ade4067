/**
 * The private index snapshots reuse (stat-cache.ts) must never make a snapshot differ from one
 * taken from a fresh copy of the user's index: same-size edits in the same second, the user's
 * index changing under it, config changed mid-session, and the user's index never written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpointRepository, snapshotTree } from '../../../src/checkpoints/index.js';
import { workingStateTree } from '../../../src/worktree/rescue.js';
import { GitClient, runGit } from '../../../src/worktree/git.js';
import { git, gitState, makeRepo, writeFiles } from './helpers.js';

/** The tree a snapshot from a fresh copy of the user's index gives (the reference). */
const reference = (root: string): Promise<string> => workingStateTree(new GitClient(runGit), root);
const blob = (root: string, tree: string, path: string): string => git(root, 'cat-file', '-p', `${tree}:${path}`);

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
    const marker = join(root, '..', 'filter-ran');
    git(root, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
    writeFiles(root, { '.gitattributes': '*.txt filter=evil\n', 'b.txt': 'changed after the config\n' });
    const { tree } = await snapshotTree(repo);
    expect(blob(root, tree, 'b.txt')).toBe('changed after the config\n');
    expect(existsSync(marker)).toBe(false);
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
