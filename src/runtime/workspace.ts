import { relative, resolve } from 'node:path';
import { lazySchema } from '../util/zod.js';
import type { ToolResult } from '../agent/types.js';
import type { UserMessage } from '../providers/types.js';
import { injectedContext } from '../session/context.js';
import type { IndexedEntry } from '../session/reader.js';
import type { SessionWriter } from '../session/writer.js';
import type { PermissionPolicy } from '../policy/policy.js';
import { mergeGuard } from '../policy/write-guard.js';
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
  /** Hears every move (the session records it, so `--resume` knows where the agent was). */
  onMove: ((entered: WorktreeInfo | undefined) => void) | undefined;
  /** Hear the root change (MCP servers' roots follow it). */
  private readonly rootListeners = new Set<(root: string) => void>();

  constructor(
    readonly projectRoot: string,
    private readonly startCwd: string,
    readonly policy: PermissionPolicy,
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
    this.onMove?.(info);
    for (const listener of this.rootListeners) listener(info.path);
  }

  onRootChange(listener: (root: string) => void): void {
    this.rootListeners.add(listener);
  }

  leave(): void {
    this.entered = undefined;
    this.policy.setRoot(this.projectRoot);
    this.onMove?.(undefined);
    for (const listener of this.rootListeners) listener(this.projectRoot);
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
    // A merge brings no file the agent's rules deny or protect (policy/write-guard.ts).
    const outcome = await manager.cleanup(target, args.if_dirty ?? 'keep', { guard: mergeGuard(workspace.policy) });
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

// ---- Resume -------------------------------------------------------------------------------------

/** Session event names that record the agent's moves (written by `recordMoves`). */
const ENTER_EVENT = 'worktree_enter';
const EXIT_EVENT = 'worktree_exit';

const enteredSchema = lazySchema((z) => z.object({ id: z.string(), path: z.string(), branch: z.string(), base: z.string() }));

/** Records every move of `workspace` in the session file, so `--resume` knows where the agent was. */
export function recordMoves(workspace: Workspace, writer: SessionWriter): void {
  workspace.onMove = (entered) => recordMove(writer, entered);
}

/** One move: into `entered`, or (undefined) back to the project. */
export function recordMove(writer: SessionWriter, entered: WorktreeInfo | undefined): void {
  const data = entered ? { id: entered.id, path: entered.path, branch: entered.branch, base: entered.base } : undefined;
  writer.append(entered ? { type: 'event', name: ENTER_EVENT, data } : { type: 'event', name: EXIT_EVENT });
}

/** The worktree a saved session was inside when it stopped: its last move, when that was an enter. */
export function savedWorktree(entries: readonly IndexedEntry[]): WorktreeInfo | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const { entry } = entries[i]!;
    if (entry.type !== 'event') continue;
    if (entry.name === EXIT_EVENT) return undefined;
    if (entry.name === ENTER_EVENT) {
      const parsed = enteredSchema().safeParse(entry.data);
      return parsed.success ? parsed.data : undefined;
    }
  }
  return undefined;
}

export interface RestoredWorkspace {
  notice: { level: 'info' | 'warn'; text: string };
  /** For the model when its worktree is gone: its history says it works there, and it must not
   * mistake the main working tree for its isolated copy. */
  note?: UserMessage;
}

/**
 * `--resume` of a session that stopped inside a worktree: back into it when it still exists (the
 * history the model sees says it works there); otherwise the session stays in the project and
 * both the user and the model are told.
 */
export async function restoreWorkspace(workspace: Workspace, manager: WorktreeManager | undefined, saved: WorktreeInfo): Promise<RestoredWorkspace> {
  const found = await manager?.findByPathOrId(saved.path).catch(() => undefined);
  if (found && !found.problem) {
    await manager?.adopt(found.id);
    workspace.enter({ id: found.id, path: found.path, branch: found.branch, base: saved.base });
    return { notice: { level: 'info', text: `resumed inside worktree ${found.path} (branch ${found.branch})` } };
  }
  workspace.leave(); // recorded, so the next resume does not look for it again
  const text = `this session was working in worktree ${saved.path} (branch ${saved.branch}), which no longer exists; tools now act on the main working tree ${workspace.projectRoot}`;
  return {
    notice: { level: 'warn', text },
    note: injectedContext(
      'worktree',
      `The worktree ${saved.path} you were working in no longer exists. Your working directory is now the main working tree ${workspace.cwd}: changes there are not isolated. Call enter_worktree for a new isolated copy if you need one.`,
    ),
  };
}
