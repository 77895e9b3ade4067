import { relative, resolve } from 'node:path';
import type { ToolResult } from '../agent/types.js';
import type { PermissionPolicy } from '../policy/policy.js';
import { createEnterWorktreeTool, createExitWorktreeTool } from '../tools/index.js';
import type { Tool } from '../agent/types.js';
import type { WorktreeManager } from '../worktree/manager.js';
import type { WorktreeInfo } from '../worktree/types.js';

/**
 * Where an agent works: the project, or a seek worktree it entered. Tools read `cwd` and `root`
 * per call, and the policy's containment root follows, so after enter_worktree every relative
 * path, every command and the permission scope point into the worktree until exit_worktree.
 */
export class Workspace {
  private entered: WorktreeInfo | undefined;

  constructor(
    readonly projectRoot: string,
    private readonly startCwd: string,
    private readonly policy: PermissionPolicy,
  ) {}

  get worktree(): WorktreeInfo | undefined {
    return this.entered;
  }

  /** The working directory: inside a worktree, the same place relative to its root. */
  get cwd(): string {
    if (!this.entered) return this.startCwd;
    return resolve(this.entered.path, relative(this.projectRoot, this.startCwd));
  }

  get root(): string {
    return this.entered?.path ?? this.projectRoot;
  }

  enter(info: WorktreeInfo): void {
    this.entered = info;
    this.policy.setRoot(info.path);
  }

  leave(): void {
    this.entered = undefined;
    this.policy.setRoot(this.projectRoot);
  }

  /** For hooks: a path inside the worktree, said as the same path in the project. */
  mapToProject(text: string): string {
    return this.entered ? text.split(this.entered.path).join(this.projectRoot) : text;
  }
}

/** enter_worktree and exit_worktree bound to one workspace and the project's worktree manager. */
export function createWorktreeTools(manager: WorktreeManager, workspace: Workspace, onChange: (text: string) => void): Tool[] {
  const enter = async (args: { branch?: string; base?: string }): Promise<ToolResult> => {
    if (workspace.worktree) {
      return { content: `[worktree: failed reason=create_error] already working in ${workspace.worktree.path}; call exit_worktree first.`, isError: true };
    }
    try {
      const info = await manager.create({ ...(args.branch ? { branch: args.branch } : {}), ...(args.base ? { base: args.base } : {}) });
      workspace.enter(info);
      onChange(`working in worktree ${info.path} (branch ${info.branch})`);
      return {
        content: `[worktree: created path=${info.path} branch=${info.branch} base=${info.base}]\nYour working directory is now ${workspace.cwd}; file tools and bash act there until exit_worktree.`,
      };
    } catch (error) {
      return { content: `[worktree: failed reason=create_error] ${(error as Error).message}`, isError: true };
    }
  };
  const exit = async (args: { path: string; if_dirty?: 'keep' | 'discard' | 'merge' }): Promise<ToolResult> => {
    const target = resolve(workspace.cwd, args.path);
    const outcome = await manager.cleanup(target, args.if_dirty ?? 'keep');
    const leaving = workspace.worktree !== undefined && workspace.worktree.path === target && outcome.kind !== 'failed' && outcome.kind !== 'merge_conflict';
    if (leaving) {
      workspace.leave();
      onChange(`back in ${workspace.projectRoot}`);
    }
    const back = leaving ? `\nYou are back in ${workspace.cwd}.` : '';
    return { content: `${outcome.result}${back}`, isError: outcome.kind === 'failed' || outcome.kind === 'merge_conflict' };
  };
  return [
    createEnterWorktreeTool({ enter }),
    createExitWorktreeTool({ exit, projectRoot: () => workspace.projectRoot }),
  ];
}
