import { readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyRestore,
  checkpointRef,
  openCheckpointRepository,
  restorePlan,
  snapshotTree,
  takeCheckpoint,
  type CheckpointRepository,
} from '../../../src/checkpoints/index.js';
import { tempDir } from '../../support/temp-dirs.js';
import { makeRepo, writeFiles } from './helpers.js';

const SID = '20260101-000000-abcdef';

/**
 * A sandboxed command still running while a rewind restores: between the plan and the restore it
 * swaps a directory of the tree for a symlink to a directory outside. The restore must neither
 * write nor delete through it.
 */
describe('a checkpoint restore stays inside the tree', () => {
  async function planned(files: Record<string, string>, change: (root: string) => void) {
    const { root, home } = makeRepo();
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    writeFiles(root, files);
    const snap = await takeCheckpoint(repo, { ref: checkpointRef(SID, 1), message: 'one' });
    change(root);
    const plan = await restorePlan(repo, (await snapshotTree(repo)).tree, snap.tree);
    const outside = tempDir('seek-ckpt-outside-');
    return { root, repo, snap, plan, outside };
  }

  /** Moves `dir` aside (inside the tree) and puts a symlink to `outside` in its place. */
  function swapForLink(root: string, dir: string, outside: string): void {
    renameSync(join(root, dir), join(root, `${dir}.moved`));
    symlinkSync(outside, join(root, dir));
  }

  /** `repo` whose git runs `before` just ahead of `git checkout-index` (after every check git makes). */
  function swappingBeforeCheckout(repo: CheckpointRepository, before: () => void): CheckpointRepository {
    const git = new Proxy(repo.git, {
      get(target, key, receiver) {
        if (key !== 'ok') return Reflect.get(target, key, receiver) as unknown;
        return (cwd: string, args: string[], options?: object) => {
          if (args[0] === 'checkout-index') before();
          return target.ok(cwd, args, options);
        };
      },
    });
    return { ...repo, git };
  }

  it('refuses to write a file whose directory became a symlink leading out', async () => {
    const { root, repo, snap, plan, outside } = await planned({ 'deep/dir/x.txt': 'checkpointed\n' }, (r) => writeFiles(r, { 'deep/dir/x.txt': 'changed\n' }));
    expect(plan.map((c) => `${c.status} ${c.path}`)).toEqual(['modified deep/dir/x.txt']);
    const racing = swappingBeforeCheckout(repo, () => swapForLink(root, 'deep/dir', outside));
    await expect(applyRestore(racing, snap.tree, plan)).rejects.toThrow(`refusing to write ${join(root, 'deep/dir/x.txt')}: deep/dir is a symbolic link to ${outside}, leading outside ${root}`);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses to delete through a directory that became a symlink leading out', async () => {
    const { root, repo, snap, plan, outside } = await planned({}, (r) => writeFiles(r, { 'made/victim.txt': 'made by the turn\n' }));
    expect(plan.map((c) => `${c.status} ${c.path}`)).toEqual(['deleted made/victim.txt']);
    writeFiles(outside, { 'victim.txt': 'precious\n' });
    swapForLink(root, 'made', outside);
    await expect(applyRestore(repo, snap.tree, plan)).rejects.toThrow(/refusing to remove .*made is a symbolic link/);
    expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('precious\n');
  });

  it('replaces a symlink standing where the checkpoint has a file, without following it', async () => {
    const { root, repo, snap, plan, outside } = await planned({ 'conf.txt': 'checkpointed\n' }, (r) => writeFiles(r, { 'conf.txt': 'changed\n' }));
    writeFiles(outside, { 'target.txt': 'outside\n' });
    rmSync(join(root, 'conf.txt'));
    symlinkSync(join(outside, 'target.txt'), join(root, 'conf.txt'));
    await applyRestore(repo, snap.tree, plan);
    expect(readFileSync(join(root, 'conf.txt'), 'utf8')).toBe('checkpointed\n');
    expect(readFileSync(join(outside, 'target.txt'), 'utf8')).toBe('outside\n');
  });
});
