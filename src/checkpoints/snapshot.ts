/**
 * Taking a checkpoint: the whole working tree (tracked changes staged or not, untracked files that
 * are not ignored, deletions, modes, symlinks) as a git commit, without touching the user's index,
 * stash, branches, HEAD or history.
 *
 * The tree is written through a temporary index (GIT_INDEX_FILE in a temp directory), started as a
 * copy of the repository's own index so git's stat cache spares it from re-reading unchanged
 * files (see `withTempIndex` in worktree/rescue.ts), then `git add -A` (which respects
 * .gitignore: ignored files are never captured) and `git write-tree`. The commit's parent is the
 * session's previous checkpoint, or HEAD for the first one; when the tree equals the parent's, the
 * checkpoint is the parent itself (no new commit), which keeps an idle turn cheap.
 */
import { copyFile, rename } from 'node:fs/promises';
import { withTempIndex } from '../worktree/rescue.js';
import { listDriverOverrides, runGitWithOverrides } from '../worktree/git.js';
import type { CheckpointRepository } from './repository.js';

export interface Snapshot {
  commit: string;
  tree: string;
}

/** The tree of the working tree as it is now. Writes objects, never a ref or the user's index. */
export async function snapshotTree(repo: CheckpointRepository): Promise<string> {
  // The repository's config is listed once for the whole snapshot, not before each command.
  const git = repo.git.withRunner(runGitWithOverrides(await listDriverOverrides({ cwd: repo.root, env: repo.git.environment })));
  return withTempIndex(git, repo.root, async (env) => {
    await git.ok(repo.root, ['add', '-A'], { env });
    const tree = await git.value(repo.root, ['write-tree'], { env });
    if (repo.shadowIndex) {
      // The shadow repository's index is seek's own: keep it as the stat cache for the next time.
      const next = `${repo.shadowIndex}.${process.pid}.tmp`;
      await copyFile(env.GIT_INDEX_FILE, next);
      await rename(next, repo.shadowIndex);
    }
    return tree;
  }, repo.indexPath);
}

/** HEAD's commit and tree; undefined when there is no commit (a fresh repository or shadow). */
export async function headSnapshot(repo: CheckpointRepository): Promise<Snapshot | undefined> {
  const result = await repo.git.run(repo.root, ['rev-parse', 'HEAD^{commit}', 'HEAD^{tree}']);
  if (result.code !== 0) return undefined;
  const [commit, tree] = result.stdout.trim().split('\n');
  return commit && tree ? { commit, tree } : undefined;
}

export interface CheckpointOptions {
  /** Where the checkpoint is recorded (`update-ref`); overwritten if it exists. */
  ref: string;
  /** The session's previous checkpoint; HEAD (if any) when absent. */
  parent?: Snapshot;
  message: string;
}

/** Takes a checkpoint of the working tree and points `ref` at it. Throws (a GitError) when git fails. */
export async function takeCheckpoint(repo: CheckpointRepository, options: CheckpointOptions): Promise<Snapshot> {
  return commitCheckpoint(repo, await snapshotTree(repo), options);
}

/** Records `tree` (from `snapshotTree`) as a checkpoint at `options.ref`. */
export async function commitCheckpoint(repo: CheckpointRepository, tree: string, options: CheckpointOptions): Promise<Snapshot> {
  const parent = options.parent ?? (await headSnapshot(repo));
  const commit =
    parent && parent.tree === tree
      ? parent.commit
      : // commit-tree only reads trees and writes a commit: no filter, diff or merge driver runs,
        // so the config listing runGit does first is not needed.
        await repo.git.withRunner(runGitWithOverrides([])).value(repo.root, ['commit-tree', '--no-gpg-sign', tree, ...(parent ? ['-p', parent.commit] : []), '-m', options.message]);
  await repo.git.ok(repo.root, ['update-ref', '-m', 'seek checkpoint', options.ref, commit]);
  return { commit, tree };
}

/** The commit and tree a ref points at; undefined when the ref does not exist. */
export async function readRef(repo: CheckpointRepository, ref: string): Promise<Snapshot | undefined> {
  const result = await repo.git.run(repo.root, ['rev-parse', `${ref}^{commit}`, `${ref}^{tree}`]);
  if (result.code !== 0) return undefined;
  const [commit, tree] = result.stdout.trim().split('\n');
  return commit && tree ? { commit, tree } : undefined;
}

/** The checkpoint message: session, turn and time on the first line, the prompt's first line after. */
export function checkpointMessage(sessionId: string, turn: number, at: Date, what: string): string {
  return `seek checkpoint: session ${sessionId}, turn ${turn}, ${at.toISOString()}\n\n${what}\n`;
}
