/**
 * Plan files for `seek run PLAN.yaml`: the `delegate_tasks` schema plus a top-level `goal`.
 *
 *   goal: Validate user input in the signup form
 *   tasks:
 *     - id: find
 *       role: explorer
 *       task: Find where the signup form is parsed
 *     - id: fix
 *       role: editor
 *       task: Add validation
 *       depends_on: [find]
 *
 * Every problem is reported as `<file>:<line>: <what>`: YAML syntax, the shape (unknown keys are
 * errors, so a typo like `depend_on` is not silently ignored), and the plan's own problems.
 */
import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument, isNode } from 'yaml';
import { z } from 'zod';
import { PlanError } from './plan.js';
import type { TaskSpec } from './types.js';

const taskSchema = z.strictObject({
  task: z.string().min(1, 'task is empty'),
  role: z.string().min(1, 'role is empty'),
  id: z.union([z.string(), z.number()]).transform(String).optional(),
  depends_on: z
    .union([z.string(), z.array(z.union([z.string(), z.number()]).transform(String))])
    .transform((value) => (typeof value === 'string' ? [value] : value))
    .optional(),
});
const fileSchema = z.strictObject({
  goal: z.string().min(1, 'goal is empty'),
  tasks: z.array(taskSchema).min(1, 'tasks is empty'),
});

export interface PlanFile {
  path: string;
  goal: string;
  tasks: TaskSpec[];
  /** The line (1-based) where task `index` starts. */
  lineOfTask(index: number): number | undefined;
}

/** A plan file that cannot be used; `problems` are `<file>:<line>: <what>` lines. */
export class PlanFileError extends Error {
  override readonly name = 'PlanFileError';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

export async function readPlanFile(path: string): Promise<PlanFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new PlanFileError([`${path}: cannot read the plan file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]);
  }
  return parsePlanFile(text, path);
}

export function parsePlanFile(text: string, path: string): PlanFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new PlanFileError(doc.errors.map((error) => `${path}:${error.linePos?.[0]?.line ?? 1}: ${error.message.split('\n')[0]}`));
  }
  const lineAt = (keys: ReadonlyArray<string | number>): number | undefined => {
    for (let depth = keys.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(keys.slice(0, depth), true);
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
    }
    return undefined;
  };
  const parsed = fileSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    throw new PlanFileError(
      parsed.error.issues.map((issue) => {
        const keys = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
        const unknown = issue.code === 'unrecognized_keys' ? [...keys, issue.keys[0] ?? ''] : keys;
        const where = keys.length > 0 ? `${keys.join('.')}: ` : '';
        return `${path}:${lineAt(unknown) ?? 1}: ${where}${issue.message}`;
      }),
    );
  }
  return {
    path,
    goal: parsed.data.goal,
    tasks: parsed.data.tasks.map((task) => ({ task: task.task, role: task.role, ...(task.id ? { id: task.id } : {}), ...(task.depends_on ? { depends_on: task.depends_on } : {}) })),
    lineOfTask: (index) => lineAt(['tasks', index]),
  };
}

/** A plan's problems said at the lines of the tasks they are about. */
export function planFileProblems(file: PlanFile, error: PlanError): string[] {
  return error.problems.map((problem) => `${file.path}:${(problem.task !== undefined ? file.lineOfTask(problem.task) : undefined) ?? 1}: ${problem.text}`);
}
