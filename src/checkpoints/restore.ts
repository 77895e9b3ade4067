/**
 * Making the working tree equal a checkpoint's tree, for every path that is in the checkpoint or
 * in the tree as it is now: changed and added files are written from the checkpoint (through a
 * temporary index and `git checkout-index` into a staging directory, which gives modes, symlinks
 * and the repository's checkout conversions, then copied into the tree), files the
 * checkpoint does not have are deleted (and directories left empty by that removed). Files
 * ignored by git are never touched: they are in neither snapshot, and a path the checkpoint has
 * but which is ignored now is skipped. The user's index, HEAD and branches are not touched.
 *
 * Every write and removal stays inside the tree (util/confined-fs.ts): a sandboxed command still
 * running may swap a directory for a symlink while the restore runs, and a restore must neither
 * write nor delete through it (git's own checkout checks for links before it writes, not as it
 * writes). So git writes only into the private staging directory, and seek copies each file into
 * the tree, confined; a path whose parent has become a link stops the restore with an error
 * naming it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  ConfinementError,
  copyFileConfined,
  lstatConfined,
  readlinkConfined,
  rmdirIfEmptyConfined,
  symlinkConfined,
  unlinkConfined,
} from '../util/confined-fs.js';
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
      if (change.status === 'deleted') removeFile(repo.root, change.path);
    }
    // A directory still standing where the checkpoint has a file holds something git ignores (the
    // rest was deleted above); it is left alone.
    const blocked = new Set<string>();
    for (const path of writes) {
      if (!ignored.has(path) && lstatConfined(repo.root, path)?.isDirectory()) blocked.add(path);
    }
    const toWrite = writes.filter((path) => !ignored.has(path) && !blocked.has(path));
    if (toWrite.length > 0) {
      const stage = join(dir, 'tree');
      await repo.git.ok(repo.root, ['read-tree', targetTree], { env });
      await repo.git.ok(repo.root, ['checkout-index', '-f', '-z', '--stdin', `--prefix=${stage}/`], { env, input: toWrite.map((p) => `${p}\0`).join('') });
      for (const path of toWrite) await placeStaged(stage, repo.root, path);
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

/** Moves what checkout-index staged for `path` into the tree, replacing what stands there (a file
 * or a link, never followed). A path git staged nothing for (a submodule) is left alone. */
async function placeStaged(stage: string, root: string, path: string): Promise<void> {
  const staged = lstatConfined(stage, path);
  if (staged?.isSymbolicLink()) symlinkConfined(root, path, readlinkConfined(stage, path), { replace: true });
  else if (staged?.isFile()) await copyFileConfined({ root: stage, path }, { root, path });
}

/** Removes a file (or symlink), then the directories above it that it left empty. */
function removeFile(root: string, path: string): void {
  unlinkConfined(root, path);
  try {
    for (let dir = dirname(path); dir !== '.' && dir !== '/' && dir !== ''; dir = dirname(dir)) {
      if (!rmdirIfEmptyConfined(root, dir)) return;
    }
  } catch (error) {
    // A parent became a link after the file was removed: leave the directories be.
    if (!(error instanceof ConfinementError)) throw error;
  }
}
