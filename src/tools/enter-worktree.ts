import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export const enterWorktreeSchema = lazySchema((z) =>
  z
    .object({
      branch: z.string().min(1).optional().describe('Branch to create (default seek/wt/<id>)'),
      base: z.string().min(1).optional().describe('Commit or branch to start from (default HEAD)'),
    })
    .strict(),
);

export type EnterWorktreeArgs = z.infer<ReturnType<typeof enterWorktreeSchema>>;

export interface EnterWorktreeDeps {
  /** Creates the worktree and moves the session into it; returns the contract result. */
  enter: (args: EnterWorktreeArgs, ctx: ToolContext) => Promise<ToolResult>;
}

/**
 * enter_worktree: moves this agent into a fresh git worktree of the project, so its edits and
 * commands cannot disturb the user's working tree. Registered only inside git repositories.
 * Needs no permission (kind `worktree`, allowed by default): the worktree is seek-managed and
 * nothing in it is ever lost. Plan mode refuses it: it creates a branch and a worktree.
 */
export function createEnterWorktreeTool(deps: EnterWorktreeDeps): Tool<EnterWorktreeArgs> {
  return {
    name: 'enter_worktree',
    summary: 'git worktrees',
    description:
      'Create an isolated git worktree of this project and work in it: from now on your working directory, file tools and bash are inside the worktree, and the user\'s working tree is untouched. Leave it with exit_worktree.',
    parameters: TOOL_PARAMETERS.enter_worktree,
    get schema() {
      return enterWorktreeSchema();
    },
    readOnly: false,
    describe: (args) => ({
      kind: 'worktree',
      paths: [],
      summary: `enter a new worktree${args.branch ? ` on branch ${args.branch}` : ''}${args.base ? ` from ${args.base}` : ''}`,
    }),
    execute: (args, ctx) => deps.enter(args, ctx),
  };
}
