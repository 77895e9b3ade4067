import path from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { ActionRequest, Tool, ToolContext, ToolResult } from '../agent/types.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export const exitWorktreeSchema = lazySchema((z) =>
  z
    .object({
      path: z.string().min(1).describe('The worktree path enter_worktree returned'),
      if_dirty: z.enum(['keep', 'discard', 'merge']).optional().describe('keep (default); discard (a rescue ref keeps a copy); merge into the main working tree'),
    })
    .strict(),
);

export type ExitWorktreeArgs = z.infer<ReturnType<typeof exitWorktreeSchema>>;

export interface ExitWorktreeDeps {
  /** Cleans up (keep, discard with rescue, or merge) and moves the session back; the contract result.
   * The worktree manager refuses a worktree another running seek process owns. */
  exit: (args: ExitWorktreeArgs, ctx: ToolContext) => Promise<ToolResult>;
  /** The main working tree, which a merge writes to. */
  projectRoot: () => string;
}

/**
 * exit_worktree: leaves a seek worktree. Merge and discard destroy or move work, so the policy
 * gates them as writes (asked, denied headless and in plan mode unless allowed): a merge writes
 * the user's working tree, a discard deletes the worktree's uncommitted changes (a rescue ref
 * keeps a copy, but the worktree may be another session's). keep only removes a worktree with no
 * changes (its branch stays when it holds commits), so it needs no permission.
 */
export function createExitWorktreeTool(deps: ExitWorktreeDeps): Tool<ExitWorktreeArgs> {
  return {
    name: 'exit_worktree',
    summary: 'git worktrees',
    description: 'Leave a worktree made by enter_worktree and return to the project. Clean worktrees are removed; dirty ones are kept, discarded or merged as if_dirty says.',
    parameters: TOOL_PARAMETERS.exit_worktree,
    get schema() {
      return exitWorktreeSchema();
    },
    readOnly: false,
    describe: (args, ctx): ActionRequest => {
      if (args.if_dirty === 'merge') {
        return { kind: 'write', paths: [deps.projectRoot()], summary: `merge worktree ${args.path} into the main working tree` };
      }
      if (args.if_dirty === 'discard') {
        const worktree = path.resolve(ctx.cwd, args.path);
        return { kind: 'write', paths: [worktree], summary: `discard worktree ${args.path}: its uncommitted changes are deleted (a rescue ref keeps a copy)` };
      }
      return { kind: 'worktree', paths: [], summary: `exit worktree ${args.path} (keep)` };
    },
    execute: (args, ctx) => deps.exit(args, ctx),
  };
}
