/**
 * Making the working tree equal a checkpoint's tree, for every path that is in the checkpoint or
 * in the tree as it is now: changed and added files are written from the checkpoint (through a
 * temporary index and `git checkout-index`, which also sets modes and symlinks), files the
 * checkpoint does not have are deleted (and directories left empty by that removed). Files
 * ignored by git are never touched: they are in neither snapshot, and a path the checkpoint has
 * but which is ignored now is skipped. The user's index, HEAD and branches are not touched.
 */
import { lstat, mkdtemp, readdir, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CheckpointRepository } from './repository.js';

export type ChangeStatus = 'added' | 'modified' | 'deleted';

/** One path that differs between two trees, seen from the first: added = only in the second. */
export interface TreeChange {
  path: string;
  status: ChangeStatus;
}

/** The paths that differ between two trees (no rename detection: a rename is a delete and an add). */
export async function diffTrees(repo: CheckpointRepository, from: string, to: string): Promise<TreeChange[]> {
  if (from === to) return [];
  const out = await repo.git.ok(repo.root, ['diff-tree', '-r', '-z', '--no-renames', '--raw', from, to]);
  const fields = out.split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i] ?? '';
    const path = fields[i + 1] ?? '';
    const letter = meta.trim().split(' ').at(-1) ?? '';
    changes.push({ path, status: letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified' });
  }
  return changes;
}

export interface NumstatRow {
  path: string;
  /** Lines added and removed; undefined for binary files. */
  added?: number;
  removed?: number;
}

/** `git diff --numstat` between two trees: what changed from `from` to `to`, with line counts. */
export async function numstat(repo: CheckpointRepository, from: string, to: string): Promise<NumstatRow[]> {
  if (from === to) return [];
  const out = await repo.git.ok(repo.root, ['diff-tree', '-r', '-z', '--no-renames', '--numstat', from, to]);
  const rows: NumstatRow[] = [];
  for (const field of out.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(field);
    if (!m) continue;
    rows.push({ path: m[3] ?? '', ...(m[1] === '-' ? {} : { added: Number(m[1]), removed: Number(m[2]) }) });
  }
  return rows;
}

/** What restoring `target` over `current` does, path by path (seen from the restore: `added` is
 * written because only the checkpoint has it, `deleted` is removed). */
export async function restorePlan(repo: CheckpointRepository, currentTree: string, targetTree: string): Promise<TreeChange[]> {
  return diffTrees(repo, currentTree, targetTree);
}

/**
 * Applies a plan from `restorePlan`: writes what the checkpoint has, deletes what it does not.
 * Returns the paths skipped: ignored now, or a directory holding ignored files now stands there.
 */
export async function applyRestore(repo: CheckpointRepository, targetTree: string, plan: readonly TreeChange[]): Promise<string[]> {
  if (plan.length === 0) return [];
  const dir = await mkdtemp(join(tmpdir(), 'seek-restore-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    const writes = plan.filter((c) => c.status !== 'deleted').map((c) => c.path);
    const ignored = new Set(await ignoredNow(repo, writes));
    // Deletions first: a file may stand where the checkpoint has a directory.
    for (const change of plan) {
      if (change.status === 'deleted') await removeFile(repo.root, change.path);
    }
    // A directory still standing where the checkpoint has a file holds something git ignores (the
    // rest was deleted above); checkout-index --force would remove it whole, so it is left alone.
    const blocked = new Set<string>();
    for (const path of writes) {
      if (!ignored.has(path) && (await lstat(join(repo.root, path)).catch(() => undefined))?.isDirectory()) blocked.add(path);
    }
    const toWrite = writes.filter((path) => !ignored.has(path) && !blocked.has(path));
    if (toWrite.length > 0) {
      await repo.git.ok(repo.root, ['read-tree', targetTree], { env });
      await repo.git.ok(repo.root, ['checkout-index', '-f', '-z', '--stdin'], { env, input: toWrite.map((p) => `${p}\0`).join('') });
    }
    return [...ignored, ...blocked];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Which of `paths` git ignores now: matched by an ignore rule and not tracked in the repository's
 * own index (check-ignore only reads it).
 */
async function ignoredNow(repo: CheckpointRepository, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const result = await repo.git.run(repo.root, ['check-ignore', '-z', '--stdin'], { input: paths.map((p) => `${p}\0`).join('') });
  if (result.code === 1) return [];
  if (result.code !== 0) throw new Error(`git check-ignore failed: ${result.stderr.trim()}`);
  return result.stdout.split('\0').filter(Boolean);
}

/** Removes a file (or symlink), then the directories above it that it left empty. */
async function removeFile(root: string, path: string): Promise<void> {
  await rm(join(root, path), { force: true });
  for (let dir = dirname(path); dir !== '.' && dir !== '/' && dir !== ''; dir = dirname(dir)) {
    const full = join(root, dir);
    const entries = await readdir(full).catch(() => undefined);
    if (!entries || entries.length > 0) return;
    await rmdir(full).catch(() => undefined);
  }
}
