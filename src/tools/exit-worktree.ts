import { z } from 'zod';
import type { ActionRequest, Tool, ToolContext, ToolResult } from '../agent/types.js';

const schema = z
  .object({
    path: z.string().min(1).describe('The worktree path enter_worktree returned'),
    if_dirty: z.enum(['keep', 'discard', 'merge']).optional().describe('keep (default); discard (a rescue ref keeps a copy); merge into the main working tree'),
  })
  .strict();

export type ExitWorktreeArgs = z.infer<typeof schema>;

export interface ExitWorktreeDeps {
  /** Cleans up (keep, discard with rescue, or merge) and moves the session back; the contract result. */
  exit: (args: ExitWorktreeArgs, ctx: ToolContext) => Promise<ToolResult>;
  /** The main working tree, which a merge writes to. */
  projectRoot: () => string;
}

/**
 * exit_worktree: leaves a seek worktree. A merge changes the user's working tree, so it is a
 * write the policy gates like any other; keep and discard touch only seek's own worktree
 * (discard keeps a rescue ref), so they need no permission.
 */
export function createExitWorktreeTool(deps: ExitWorktreeDeps): Tool<ExitWorktreeArgs> {
  return {
    name: 'exit_worktree',
    description: 'Leave a worktree made by enter_worktree and return to the project. Clean worktrees are removed; dirty ones are kept, discarded or merged as if_dirty says.',
    schema,
    readOnly: false,
    describe: (args): ActionRequest =>
      args.if_dirty === 'merge'
        ? { kind: 'write', paths: [deps.projectRoot()], summary: `merge worktree ${args.path} into the main working tree` }
        : { kind: 'worktree', paths: [], summary: `exit worktree ${args.path} (${args.if_dirty ?? 'keep'})` },
    execute: (args, ctx) => deps.exit(args, ctx),
  };
}
