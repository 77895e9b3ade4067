/**
 * Rewinding a session, headless (the `seek rewind` command, and later the TUI's /rewind, drive
 * this): the list of its checkpoints with what changed since each, and the code restore with its
 * safety check. The conversation restore is a fork (session/resume.ts `forkSessionBefore`).
 *
 * Safety, and its approximation: the session keeps `refs/seek/checkpoints/<sid>/seen` at the state
 * it last saw (moved at the end of every turn and after every restore). A path that differs
 * between that state and the tree now was changed by something else since: the user's editor,
 * another program, another seek session in the same tree. A restore that would overwrite such a
 * path is refused unless forced. Approximate because a change made during a turn by something
 * other than the session (an editor save while the model worked) is attributed to the turn, and
 * when a turn ended abnormally (a crash before its end) its own changes count as outside ones.
 */
import { checkpointMessage, commitCheckpoint, readRef, snapshotTree, type Snapshot } from './snapshot.js';
import { checkpointRef, seenRef, type CheckpointRepository } from './repository.js';
import { applyRestore, diffTrees, numstat, restorePlan, type NumstatRow, type TreeChange } from './restore.js';
import type { CheckpointRecord } from './record.js';
import type { UnrestorableFile } from './large-files.js';
import { underLeftOut, type LeftOutDirectory } from './untracked.js';
import { mapLimit } from '../util/map-limit.js';

/** git processes at once while listing (a long session has hundreds of checkpoints). */
const LIST_CONCURRENCY = 4;

export interface RewindPoint extends CheckpointRecord {
  /** What differs between this checkpoint and the working tree now (what rewinding would undo). */
  changedSince: NumstatRow[];
}

/** The session's checkpoints with the files changed since each (one snapshot of the tree now). */
export async function rewindPoints(repo: CheckpointRepository, records: readonly CheckpointRecord[]): Promise<RewindPoint[]> {
  const { tree: now } = await snapshotTree(repo);
  return mapLimit(records, LIST_CONCURRENCY, async (record) => {
    const changedSince = record.root === repo.root ? await numstat(repo, record.tree, now).catch(() => []) : [];
    return { ...record, changedSince };
  });
}

export interface CodeRewindPlan {
  target: CheckpointRecord;
  /** The tree of the working tree now. */
  currentTree: string;
  /** What the restore writes and deletes. */
  changes: TreeChange[];
  /** Paths the restore would overwrite that changed since the session last saw them, or whose
   * content now is too large to checkpoint first (`unrecoverable`): it needs the user's consent. */
  conflicts: string[];
  /** The conflicts a restore could not undo: files too large to checkpoint, overwritten or deleted. */
  unrecoverable: string[];
  /** The checkpoint's files that were too large to copy: left as they are now. */
  notRestorable: UnrestorableFile[];
  /** The files too large to copy now (recorded with the pre-restore checkpoint). */
  currentUnrestorable: UnrestorableFile[];
  /** The untracked directories too large to copy now (recorded with the pre-restore checkpoint). */
  currentLeftOut: LeftOutDirectory[];
}

/**
 * What restoring `target` would do now. `latest` is the session's newest checkpoint, the
 * reference for outside changes when the session has no `seen` ref yet.
 */
export async function planCodeRewind(repo: CheckpointRepository, sessionId: string, target: CheckpointRecord, latest: CheckpointRecord): Promise<CodeRewindPlan> {
  if ((await repo.git.run(repo.root, ['cat-file', '-e', `${target.tree}^{tree}`])).code !== 0) {
    throw new Error(`checkpoint ${target.turn} is no longer in the repository (pruned by seek gc, or by git gc after its ref was deleted)`);
  }
  const current = await snapshotTree(repo);
  const targetLarge = new Map((target.unrestorable ?? []).map((f) => [f.path, f]));
  const currentLarge = new Map(current.unrestorable.map((f) => [f.path, f]));
  // A path the checkpoint could not copy is left as it is (the diff would delete it otherwise), and
  // so is what lies under a directory it left out for its size (untracked.ts).
  const targetLeftOut = target.leftOut ?? [];
  const changes = (await restorePlan(repo, current.tree, target.tree)).filter((c) => !targetLarge.has(c.path) && !underLeftOut(targetLeftOut, c.path));
  const notRestorable = [...targetLarge.values()].filter((f) => currentLarge.get(f.path)?.sha256 !== f.sha256);
  // A large file now that the checkpoint has as an ordinary file, or does not have at all, is
  // overwritten or deleted, and the pre-restore checkpoint cannot hold it.
  const planned = new Set(changes.map((c) => c.path));
  for (const path of currentLarge.keys()) {
    if (!planned.has(path) && !targetLarge.has(path)) changes.push({ path, status: 'deleted' });
  }
  // So is a file the checkpoint has where the tree now has a directory too large to checkpoint first.
  const unrecoverable = changes.filter((c) => currentLarge.has(c.path) || underLeftOut(current.leftOut, c.path)).map((c) => c.path);
  const seen = (await readRef(repo, seenRef(sessionId)))?.tree ?? latest.tree;
  const outside = new Set((await diffTrees(repo, seen, current.tree)).map((c) => c.path));
  const conflicts = [...new Set([...changes.filter((c) => outside.has(c.path)).map((c) => c.path), ...unrecoverable])];
  return { target, currentTree: current.tree, changes, conflicts, unrecoverable, notRestorable, currentUnrestorable: current.unrestorable, currentLeftOut: current.leftOut };
}

export interface CodeRewindResult {
  /** The checkpoint of the state before the restore (rewinding to it undoes the restore). */
  before: CheckpointRecord;
  /** Paths left alone because git ignores them now. */
  skippedIgnored: string[];
}

export interface CodeRewindOptions {
  sessionId: string;
  /** The number the pre-restore checkpoint gets in the session. */
  turn: number;
  /** Its parent: the session's newest checkpoint. */
  parent: Snapshot;
  /** Records the pre-restore checkpoint in the session before anything is changed. */
  record: (checkpoint: CheckpointRecord) => void | Promise<void>;
  now?: Date;
}

/**
 * Carries out a plan: checkpoints the tree as it is (recorded through `options.record`), restores
 * the target, and moves the session's `seen` ref to the target. The caller has checked conflicts.
 */
export async function rewindCode(repo: CheckpointRepository, plan: CodeRewindPlan, options: CodeRewindOptions): Promise<CodeRewindResult> {
  const at = options.now ?? new Date();
  const what = `before rewinding to ${plan.target.turn}`;
  const ref = checkpointRef(options.sessionId, options.turn);
  const snapshot = await commitCheckpoint(repo, plan.currentTree, { ref, parent: options.parent, message: checkpointMessage(options.sessionId, options.turn, at, what) });
  const before: CheckpointRecord = {
    turn: options.turn,
    kind: 'restore',
    ref,
    ...snapshot,
    root: repo.root,
    prompt: what,
    at: at.toISOString(),
    ...(plan.currentUnrestorable.length > 0 ? { unrestorable: plan.currentUnrestorable } : {}),
    ...(plan.currentLeftOut.length > 0 ? { leftOut: plan.currentLeftOut } : {}),
  };
  await options.record(before);
  let skippedIgnored: string[];
  try {
    skippedIgnored = await applyRestore(repo, plan.target.tree, plan.changes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`the rewind stopped part way: ${reason}; the tree as it was before is checkpoint ${options.turn} (seek rewind ${options.turn} --code --force --session ${options.sessionId})`);
  }
  await repo.git.ok(repo.root, ['update-ref', '-m', 'seek: state after a rewind', seenRef(options.sessionId), plan.target.commit]);
  return { before, skippedIgnored };
}
