/**
 * `isolation: "worktree"` for a child: a fresh seek worktree before it starts (its working
 * directory, file tools and permission scope all inside), and after it ends, cleanup with `keep`:
 * a clean worktree is removed, a dirty one stays for the parent to review or merge, and the
 * parent's result says where (CONTRACT.md: `— worktree: <path> (branch <b>, <n> changes)`).
 */
import { relative, resolve } from 'node:path';
import type { WorktreeManager } from '../worktree/manager.js';
import type { WorktreeInfo } from '../worktree/types.js';

export interface Isolation {
  worktree: WorktreeInfo;
  /** The child's working directory: the parent's, relative to the project, inside the worktree. */
  cwd: string;
  /** For hooks: the worktree's paths said as project paths. */
  view: { worktree: { path: string; branch: string }; mapToProject(text: string): string };
}

/**
 * `parentRoot` is the tree the parent works in: the project, or the worktree it entered. The
 * child's worktree starts at that tree's HEAD (not the project's), so a parent working in its own
 * worktree hands its children its own commits; hooks still see project paths.
 */
export async function isolate(manager: WorktreeManager, projectRoot: string, parentRoot: string, parentCwd: string, ownerSubSid: string): Promise<Isolation> {
  const worktree = await manager.create({ ownerSubSid, baseDir: parentRoot });
  const inside = relative(parentRoot, parentCwd);
  const cwd = inside.startsWith('..') ? worktree.path : resolve(worktree.path, inside);
  return {
    worktree,
    cwd,
    view: { worktree: { path: worktree.path, branch: worktree.branch }, mapToProject: (text) => text.split(worktree.path).join(projectRoot) },
  };
}

/** Cleans up after the child (keep) and returns the line for the parent's result, or ''. Never throws. */
export async function releaseIsolation(manager: WorktreeManager, isolation: Isolation): Promise<string> {
  const { path, branch } = isolation.worktree;
  try {
    const outcome = await manager.cleanup(path, 'keep');
    if (outcome.kind === 'kept') return `\n— worktree: ${outcome.path} (branch ${outcome.branch}, ${outcome.changes} changes)`;
    if (outcome.kind === 'cleaned') return '';
    return `\n— worktree cleanup error: ${outcome.result} (path=${path} branch=${branch})`;
  } catch (error) {
    return `\n— worktree cleanup error: ${(error as Error).message} (path=${path} branch=${branch})`;
  }
}

/** The paragraph a worktree child's system prompt gets. */
export function isolationInstructions(worktree: WorktreeInfo): string {
  return `You work in your own git worktree at ${worktree.path} (branch ${worktree.branch}), a separate copy of the project: edit and run commands there only. Your changes stay in it for the parent to review or merge; do not commit unless the task says so.`;
}
