import { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';

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
  const schema = z
    .object({
      tasks: z
        .array(
          z
            .object({
              task: z.string().min(1).describe('What this subtask must do; self-contained'),
              role: z.enum([first, ...rest]),
              id: z.string().min(1).optional().describe('Name for depends_on (default t1, t2, … by position)'),
              depends_on: z.array(z.string().min(1)).optional().describe('Ids this task waits for; it receives only their results'),
            })
            .strict(),
        )
        .min(1)
        .max(MAX_DELEGATED_TASKS),
    })
    .strict();
  return {
    name: 'delegate_tasks',
    description: [
      'Split a larger job into role-typed subtasks, each run by a subagent with a fresh context; only their summaries come back, in one result with per-task statistics.',
      'Roles: explorer (read-only research), editor (makes changes), reviewer (read-only; gets the diffs of the editors it depends on and returns a verdict: approve or a list of problems); subagent types may be used as roles too.',
      'Without depends_on the tasks run in order and each receives the results of all earlier ones. With depends_on they form a graph: a task starts when its dependencies finish and receives only their results; independent tasks run in parallel ' +
        `(at most ${options.maxConcurrent} at once). Editors that can run at the same time each work in their own git worktree and are merged back in order; a merge conflict fails that task with a report.`,
      'A failed task skips the tasks that depend on it. Calling again with the same tasks reuses the ones that already completed. Use it for work with several distinct steps; for one question use agent.',
    ].join('\n'),
    schema,
    readOnly: false,
    hookDenialResult: (message) => `[delegate_tasks: failed] a pre_tool hook refused: ${message}`,
    execute: (args, ctx) => options.run(args.tasks, ctx),
  };
}
