/**
 * The worktree half of `seek worktree gc` (WorktreeManager.collectStale): clean worktrees whose
 * seek process is gone are removed the way a clean exit would remove them.
 */
import { hostname } from 'node:os';
import { removeClean, worktreeStatus, type CleanupContext } from './cleanup.js';
import { createdAt, problemOf, type ScannedWorktree } from './housekeeping.js';
import { liveOtherOwner } from './store.js';

/** What `collectStale` did, by worktree id. */
export interface StaleCollection {
  removed: string[];
  /** Old enough, but with uncommitted changes (or an unreadable status): kept. */
  dirty: string[];
  /** Old enough, but the seek process that made it (or resumed work in it) still runs. */
  inUse: string[];
}

/** Removes the clean worktrees of `found` created before `cutoff` (ms; every one when
 * `olderThanMs` is 0) whose process is gone; see WorktreeManager.collectStale. */
export async function collectStale(ctx: CleanupContext, found: readonly ScannedWorktree[], olderThanMs: number, cutoff: number): Promise<StaleCollection> {
  const collection: StaleCollection = { removed: [], dirty: [], inUse: [] };
  for (const entry of found) {
    if (problemOf(entry) || (olderThanMs > 0 && Date.parse(createdAt(entry)) >= cutoff)) continue;
    const meta = entry.meta;
    if ((meta?.owner_pid === process.pid && meta.owner_host === hostname()) || liveOtherOwner(meta) !== undefined) {
      collection.inUse.push(entry.id);
      continue;
    }
    const status = await worktreeStatus(ctx.wtGit, entry.path).catch(() => undefined);
    if (!status || status.changes > 0) {
      collection.dirty.push(entry.id);
      continue;
    }
    const outcome = await removeClean(ctx, { id: entry.id, path: entry.path, meta });
    if (outcome.kind === 'cleaned') collection.removed.push(entry.id);
  }
  return collection;
}
