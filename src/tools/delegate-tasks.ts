import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { lazySchema } from '../util/zod.js';

export const MAX_DELEGATED_TASKS = 20;

export interface DelegatedTask {
  task: string;
  role: string;
  id?: string;
  depends_on?: string[];
}

export interface DelegateTasksOptions {
  /** Role names in the order the model sees them (built-in roles, then subagent types). Fixed for a session. */
  roles: readonly string[];
  maxConcurrent: number;
  /** Validates, (in ask mode) has the user review, runs, and returns the result. Never throws. */
  run: (tasks: DelegatedTask[], ctx: ToolContext) => Promise<ToolResult>;
}

/**
 * delegate_tasks: splits work into role-typed subtasks run by subagents, in order or as a graph,
 * passing results on. No permission of its own (every child has its own, tighter gate), but not
 * read-only: its writers merge into the working tree, so it runs in order with other changes and
 * never beside another delegate_tasks call.
 * Schema and description depend only on the role list, so they are byte-identical for a session.
 */
export function createDelegateTasksTool(options: DelegateTasksOptions): Tool<{ tasks: DelegatedTask[] }> {
  const [first = 'explorer', ...rest] = options.roles;
  const schema = lazySchema((z) =>
    z
      .object({
        tasks: z
          .array(
            z
              .object({
                task: z.string().min(1).describe('Self-contained subtask'),
                role: z.enum([first, ...rest]),
                id: z.string().min(1).optional().describe('Default t1, t2, …'),
                depends_on: z.array(z.string().min(1)).optional().describe('Ids it waits for; it gets only their results'),
              })
              .strict(),
          )
          .min(1)
          .max(MAX_DELEGATED_TASKS),
      })
      .strict(),
  );
  return {
    name: 'delegate_tasks',
    summary: 'subagents',
    description: [
      'Run a multi-step job as role-typed subtasks, each a subagent with a fresh context; one result with every summary and per-task statistics.',
      'Roles: explorer (read-only), editor (changes code), reviewer (read-only; judges the diffs of the editors it depends on: approve or problems); subagent types work as roles too.',
      `No depends_on: in order, each task gets all earlier results. With depends_on: a graph, independent tasks in parallel (max ${options.maxConcurrent}); parallel editors get own worktrees, merged back in order (a conflict fails that task).`,
      'A failure skips its dependants. Calling again with the same tasks reuses completed ones.',
    ].join('\n'),
    get schema() {
      return schema();
    },
    readOnly: false,
    hookDenialResult: (message) => `[delegate_tasks: failed] a pre_tool hook refused: ${message}`,
    execute: (args, ctx) => options.run(args.tasks, ctx),
  };
}
