/**
 * Snapshots of a worktree's state that never touch the worktree, its index or its branch, and the
 * `refs/seek/discarded/*` rescue refs.
 *
 * `git stash create` leaves untracked files out, so a discard would lose new files. seek builds
 * the commits itself with a temporary index (a copy of the worktree's index, then `git add -A`):
 * tracked changes, staged or not, and untracked non-ignored files are all in the snapshot's tree.
 *
 * The rescue commit is shaped like a stash (parents: HEAD, then a commit of the index as it was),
 * so both of these work on it:
 *   git stash apply --index refs/seek/discarded/<ts>    (restores changes, staged state, new files)
 *   git show refs/seek/discarded/<ts>:<path>            (one file, new files included)
 */
import { copyFileSync, statSync, utimesSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GitClient } from './git.js';

export const DISCARDED_PREFIX = 'refs/seek/discarded/';

/** How much older than the worktree's index its private copy is made (see withTempIndex). */
const RACY_MARGIN_MS = 1000;

/** Indexes up to this size are copied synchronously (seedIndex). */
const SYNC_COPY_BYTES = 4 * 1024 * 1024;

/**
 * Runs `fn` with `GIT_INDEX_FILE` set to a private copy of the worktree's index.
 *
 * The copy keeps git's racy-timestamp protection: git trusts an entry's cached stat data only when
 * the file was last modified before the index file itself was written; an entry modified in the
 * same second (git built without nanosecond timestamps, as Debian's is) is compared by content.
 * A fresh copy is written now, which would make every such entry look safely older, so an edit
 * that kept the file's size, made in the second the worktree was created, would be missed. The
 * copy therefore gets the original's mtime minus one second: every entry that was racy in the
 * original is racy in the copy (a few more may be re-read, which only costs a hash).
 */
export async function withTempIndex<T>(
  git: GitClient,
  worktree: string,
  fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>,
  /** The worktree's index file when the caller knows it already (saves a git process). */
  knownIndexPath?: string,
): Promise<T> {
  const indexPath = knownIndexPath ?? resolve(worktree, await git.value(worktree, ['rev-parse', '--git-path', 'index']));
  const dir = await mkdtemp(join(tmpdir(), 'seek-index-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    await seedIndex(git, worktree, indexPath, env.GIT_INDEX_FILE);
    return await fn(env);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Writes `dest` as a private copy of the index at `indexPath` that keeps its racy-timestamp
 * protection (see withTempIndex), or, when there is no index or no faithful copy, as HEAD's tree
 * (an empty index when there is no HEAD either).
 */
export async function seedIndex(git: GitClient, worktree: string, indexPath: string, dest: string): Promise<void> {
  try {
    // A usual index (up to SYNC_COPY_BYTES, some 40,000 files) is copied synchronously, in about a
    // millisecond, where three thread-pool round trips would wait on a main thread busy with the
    // turn's first request; a larger one is copied without blocking.
    const original = statSync(indexPath);
    if (original.size <= SYNC_COPY_BYTES) copyFileSync(indexPath, dest);
    else await copyFile(indexPath, dest);
    utimesSync(dest, original.atime, new Date(original.mtimeMs - RACY_MARGIN_MS));
  } catch {
    // No index yet, or no faithful copy: start from HEAD. Such an index caches no stat data, so
    // every file is compared by content.
    await rm(dest, { force: true });
    const head = await git.run(worktree, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
    if (head.code === 0) await git.ok(worktree, ['read-tree', 'HEAD'], { env: { GIT_INDEX_FILE: dest } });
  }
}

/** The tree of everything in the worktree: tracked and untracked, ignored files excepted. */
async function fullTree(git: GitClient, worktree: string, env: { GIT_INDEX_FILE: string }): Promise<string> {
  await git.ok(worktree, ['add', '-A'], { env });
  return git.value(worktree, ['write-tree'], { env });
}

/** The tree of everything in `dir` (a worktree or the main tree), untracked files included and
 * ignored ones excepted, without touching its index or files. */
export async function workingStateTree(git: GitClient, dir: string): Promise<string> {
  return withTempIndex(git, dir, (env) => fullTree(git, dir, env));
}

/**
 * A commit of the worktree's full state with parent `head`, or `head` itself when that state
 * equals `head`'s tree (nothing to commit). Used by merge: the worktree is left untouched.
 */
export async function snapshotCommit(git: GitClient, worktree: string, head: string, message: string, identity: string[]): Promise<string> {
  const tree = await withTempIndex(git, worktree, (env) => fullTree(git, worktree, env));
  if (tree === (await git.value(worktree, ['rev-parse', `${head}^{tree}`]))) return head;
  return git.value(worktree, [...identity, 'commit-tree', tree, '-p', head, '-m', message]);
}

/**
 * The rescue commit for a discard: tree = the worktree's full state; parents = `head` and a commit
 * of the index as it was (the HEAD tree when the index cannot be written, e.g. unmerged entries).
 * Throws (a GitError with git's stderr) when any step fails; nothing has been changed then.
 */
export async function rescueCommit(git: GitClient, worktree: string, head: string, message: string, identity: string[]): Promise<string> {
  return withTempIndex(git, worktree, async (env) => {
    const indexTree = await git
      .value(worktree, ['write-tree'], { env })
      .catch(() => git.value(worktree, ['rev-parse', `${head}^{tree}`]));
    const indexCommit = await git.value(worktree, [...identity, 'commit-tree', indexTree, '-p', head, '-m', `index on ${message}`]);
    const tree = await fullTree(git, worktree, env);
    return git.value(worktree, [...identity, 'commit-tree', tree, '-p', head, '-p', indexCommit, '-m', message]);
  });
}

/** UTC `YYYYMMDD-HHMMSS`. */
export function utcStamp(now: Date): string {
  const iso = now.toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
}

/**
 * Points a new `refs/seek/discarded/<UTC YYYYMMDD-HHMMSS>` at `sha` and returns its name. The ref
 * must not exist (`update-ref <ref> <sha> ""`), so two discards in the same second never overwrite
 * each other: the second gets `-2`, the next `-3`, and so on.
 */
export async function writeRescueRef(git: GitClient, root: string, sha: string, now: Date): Promise<string> {
  const stamp = utcStamp(now);
  for (let n = 1; n <= 1000; n++) {
    const ref = `${DISCARDED_PREFIX}${stamp}${n === 1 ? '' : `-${n}`}`;
    const result = await git.run(root, ['update-ref', '-m', 'seek: rescue of a discarded worktree', ref, sha, '']);
    if (result.code === 0) return ref;
    const exists = await git.run(root, ['rev-parse', '--verify', '--quiet', ref]);
    if (exists.code !== 0) throw new Error(`cannot create ${ref}: ${result.stderr.trim()}`);
  }
  throw new Error(`cannot create a rescue ref under ${DISCARDED_PREFIX}${stamp}`);
}

/** The time (ms since epoch) encoded in a discarded ref's name; undefined when malformed. */
export function discardedRefTime(ref: string): number | undefined {
  if (!ref.startsWith(DISCARDED_PREFIX)) return undefined;
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(?:-\d+)?$/.exec(ref.slice(DISCARDED_PREFIX.length));
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const time = Date.UTC(year, month - 1, day, hour, minute, second);
  // Reject dates that roll over (month 13, Feb 30): the round trip must give the same digits.
  return utcStamp(new Date(time)) === `${m[1]}${m[2]}${m[3]}-${m[4]}${m[5]}${m[6]}` ? time : undefined;
}

/**
 * Deletes discarded refs whose name says they are older than `olderThanMs` (0 = all of them).
 * Malformed names are never touched. Returns how many were deleted.
 */
export async function pruneDiscarded(git: GitClient, root: string, olderThanMs: number, now: Date): Promise<number> {
  const refs = (await git.ok(root, ['for-each-ref', '--format=%(refname)', DISCARDED_PREFIX])).split('\n').filter(Boolean);
  const cutoff = now.getTime() - olderThanMs;
  const doomed = refs.filter((ref) => {
    const time = discardedRefTime(ref);
    return time !== undefined && (olderThanMs <= 0 || time < cutoff);
  });
  if (doomed.length === 0) return 0;
  await git.ok(root, ['update-ref', '--stdin'], { input: doomed.map((ref) => `delete ${ref}\n`).join('') });
  return doomed.length;
}

/** The `seek worktree gc` message. */
export function formatPruneMessage(count: number): string {
  if (count === 0) return 'no discarded refs to prune';
  return count === 1 ? 'pruned 1 discarded ref' : `pruned ${count} discarded refs`;
}
