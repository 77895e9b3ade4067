/**
 * Taking a checkpoint: the whole working tree (tracked changes staged or not, untracked files that
 * are not ignored, deletions, modes, symlinks) as a git commit, without touching the user's index,
 * stash, branches, HEAD or history.
 *
 * The tree is written through a private index (stat-cache.ts), never the user's: `git status`
 * lists what differs from it (changed, deleted and untracked files; git ignores what .gitignore
 * ignores, so ignored files are never captured), `git add -A` stages only those, and `git
 * write-tree` writes the tree. Changed files above the size limit are left out and recorded by
 * hash (large-files.ts); untracked directories above the count or byte cap are left out and
 * named (untracked.ts). The commit's parent is the session's previous
 * checkpoint, or HEAD for the first one; when the tree equals the parent's, the checkpoint is the
 * parent itself (no new commit), which keeps an idle turn cheap.
 */
import { partitionBySize, type UnrestorableFile } from './large-files.js';
import { admitUntracked, type LeftOutDirectory } from './untracked.js';
import type { CheckpointRepository } from './repository.js';
import { runGitWithOverrides, type GitClient } from '../worktree/git.js';

export interface Snapshot {
  commit: string;
  tree: string;
}

/** The working tree as a git tree, and the files too large to be in it. */
export interface TreeState {
  tree: string;
  unrestorable: UnrestorableFile[];
  /** Untracked directories left out for their size (untracked.ts), this snapshot's. */
  leftOut: LeftOutDirectory[];
}

/**
 * What differs from the private index: `git status` with git's untracked cache (kept in the
 * private index, which status refreshes and writes back, so unchanged directories are not read
 * again and unchanged files not hashed again). Changed and deleted tracked paths, and untracked
 * entries (a wholly untracked directory as `dir/`). Submodules count when their commit moved.
 */
async function listChanges(git: GitClient, root: string, env: Record<string, string>): Promise<{ changed: string[]; untracked: string[] }> {
  const args = ['-c', 'core.untrackedCache=true', 'status', '--porcelain=v1', '-z', '--untracked-files=normal', '--no-renames', '--ignore-submodules=dirty'];
  const listed = await git.ok(root, args, { env });
  const changed: string[] = [];
  const untracked: string[] = [];
  for (const field of listed.split('\0')) {
    if (field.length < 4) continue;
    const [x, y, path] = [field[0], field[1], field.slice(3)];
    if (x === '?' && y === '?') untracked.push(path);
    // The worktree differs from the index (unmerged paths too: their Y is never blank); a
    // staged-only change is already in the index.
    else if (y !== ' ') changed.push(path);
  }
  return { changed, untracked };
}

/** The working tree as it is now. Writes objects, never a ref or the user's index. */
export async function snapshotTree(repo: CheckpointRepository): Promise<TreeState> {
  const cache = repo.statCache;
  return cache.run(async (git, index) => {
    // Pathspecs from the listing are paths, never patterns (a file may be called `*.ts`).
    const env = { ...index, GIT_LITERAL_PATHSPECS: '1' };
    const { changed, untracked } = await listChanges(git, repo.root, env);
    const admitted = await admitUntracked(git, repo.root, env, untracked, repo.limits, cache.leftOut);
    const newFiles = new Set(admitted.files);
    const newlyIgnored = await ignoredByRules(git, repo.root, [...cache.addedSinceSeed]);
    const candidates = [...changed, ...admitted.files].filter((p) => !newlyIgnored.has(p));
    const { copy, large } = await partitionBySize(repo.root, candidates, repo.limits.maxFileSize);
    if (copy.length > 0) {
      await git.ok(repo.root, ['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], { env, input: copy.map((p) => `${p}\0`).join('') });
      for (const path of copy) if (newFiles.has(path)) cache.addedSinceSeed.add(path);
    }
    // A large file git tracks keeps its old version in the index: take it out, so the tree never
    // holds a stale copy that a restore would write back. Files ignored now leave the same way.
    const removed = [...large.map((f) => f.path), ...newlyIgnored];
    if (removed.length > 0) {
      await git.ok(repo.root, ['update-index', '--force-remove', '-z', '--stdin'], { env, input: removed.map((p) => `${p}\0`).join('') });
      for (const path of removed) cache.addedSinceSeed.delete(path);
    }
    const tree = await git.value(repo.root, ['write-tree'], { env });
    return { tree, unrestorable: large, leftOut: admitted.matched };
  });
}

/** Which of `paths` an ignore rule matches now, whether the index tracks them or not. */
async function ignoredByRules(git: GitClient, root: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const result = await git.run(root, ['check-ignore', '--no-index', '-z', '--stdin'], { input: paths.map((p) => `${p}\0`).join('') });
  if (result.code === 1) return new Set();
  if (result.code !== 0) throw new Error(`git check-ignore failed: ${result.stderr.trim()}`);
  return new Set(result.stdout.split('\0').filter(Boolean));
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
  /** More refs pointed at the same commit, in the same git process (atomically with `ref`). */
  alsoRefs?: readonly string[];
  /** The session's previous checkpoint; HEAD (if any) when absent. A promise lets the caller read
   * HEAD while the tree is being snapshotted. */
  parent?: Snapshot | Promise<Snapshot | undefined>;
  message: string;
}

/** Takes a checkpoint of the working tree and points `ref` at it. Throws (a GitError) when git fails. */
export async function takeCheckpoint(repo: CheckpointRepository, options: CheckpointOptions): Promise<Snapshot> {
  return commitCheckpoint(repo, (await snapshotTree(repo)).tree, options);
}

/** Records `tree` (from `snapshotTree`) as a checkpoint at `options.ref`. */
export async function commitCheckpoint(repo: CheckpointRepository, tree: string, options: CheckpointOptions): Promise<Snapshot> {
  const parent = options.parent !== undefined ? await options.parent : await headSnapshot(repo);
  const commit =
    parent && parent.tree === tree
      ? parent.commit
      : // commit-tree only reads trees and writes a commit: no filter, diff or merge driver runs,
        // so the config listing runGit does first is not needed.
        await repo.git.withRunner(runGitWithOverrides([])).value(repo.root, ['commit-tree', '--no-gpg-sign', tree, ...(parent ? ['-p', parent.commit] : []), '-m', options.message]);
  const refs = [options.ref, ...(options.alsoRefs ?? [])];
  if (refs.length === 1) await repo.git.ok(repo.root, ['update-ref', '-m', 'seek checkpoint', options.ref, commit]);
  else await repo.git.ok(repo.root, ['update-ref', '-m', 'seek checkpoint', '--stdin'], { input: refs.map((ref) => `update ${ref} ${commit}\n`).join('') });
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
