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
 * Problems are reported as `<file>:<line>: <what>`, all of them at once, in line order: the shape
 * (unknown keys are errors, so a typo like `depend_on` is not silently ignored) together with the
 * plan's own problems (roles, ids, dependencies, cycles), minus what the shape already said. YAML
 * syntax errors say `<file>:<line>:<column>: <what>`, every one of them; when there are any, the
 * rest is not checked (what the parser recovered is not what the author meant).
 */
import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument, isNode } from 'yaml';
import { z } from 'zod';
import { buildPlan, PlanError, type PlanProblem, type RoleInfo } from './plan.js';
import type { Plan, TaskSpec } from './types.js';

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

type TaskField = NonNullable<PlanProblem['field']>;

/** A problem found in the file, at its line. */
interface LocatedProblem {
  line: number;
  text: string;
}

export interface PlanFile {
  path: string;
  goal: string;
  /** The tasks as far as they could be read (a key of the wrong type reads as empty). */
  tasks: TaskSpec[];
  /** The line (1-based) where task `index` starts. */
  lineOfTask(index: number): number | undefined;
  /** What is wrong with the file's shape; `checkPlanFile` reports it with the plan's problems. */
  shapeProblems: readonly LocatedProblem[];
  /** Whether the shape check already said what is wrong with this key of task `index` (or with
   * the whole task, or with `tasks`, when `field` is undefined). */
  shapeBroken(index: number | undefined, field?: TaskField): boolean;
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

/** Reads the file's YAML (throwing a PlanFileError with every syntax error) and its shape (kept
 * in `shapeProblems` until the plan is checked too). */
export function parsePlanFile(text: string, path: string): PlanFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new PlanFileError(
      doc.errors.map((error) => {
        const { line, col } = lines.linePos(error.pos[0]);
        return `${path}:${line}:${col}: ${error.message.split('\n')[0]}`;
      }),
    );
  }
  const lineAt = (keys: ReadonlyArray<string | number>): number | undefined => {
    for (let depth = keys.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(keys.slice(0, depth), true);
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
    }
    return undefined;
  };
  const raw: unknown = doc.toJS();
  const shapeProblems: LocatedProblem[] = [];
  const broken = new Set<string>();
  const parsed = fileSchema.safeParse(raw);
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const keys = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
    const unknownKey = issue.code === 'unrecognized_keys';
    const where = keys.length > 0 ? `${keys.join('.')}: ` : '';
    shapeProblems.push({ line: lineAt(unknownKey ? [...keys, issue.keys[0] ?? ''] : keys) ?? 1, text: `${where}${issue.message}` });
    // An unknown key breaks nothing else; any other issue makes its place unusable for the plan.
    if (!unknownKey && (keys.length === 0 || keys[0] === 'tasks')) broken.add(keys.slice(1, 3).join('.'));
  }
  const record = isRecord(raw) ? raw : {};
  return {
    path,
    goal: typeof record.goal === 'string' ? record.goal : '',
    tasks: Array.isArray(record.tasks) ? record.tasks.map(readTask) : [],
    lineOfTask: (index) => lineAt(['tasks', index]),
    shapeProblems,
    shapeBroken: (index, field) =>
      broken.has('') || (index !== undefined && (broken.has(String(index)) || (field !== undefined && broken.has(`${index}.${field}`)))),
  };
}

/**
 * The plan of a parsed file, or a PlanFileError with every problem: the shape's and the plan's
 * (cycles included), each said once, in line order.
 */
export function checkPlanFile(file: PlanFile, roles: (role: string) => RoleInfo | undefined, roleNames: readonly string[]): Plan {
  const problems = [...file.shapeProblems];
  let plan: Plan | undefined;
  if (file.tasks.length > 0 && !file.shapeBroken(undefined)) {
    try {
      plan = buildPlan(file.tasks, roles, roleNames, file.goal);
    } catch (error) {
      if (!(error instanceof PlanError)) throw error;
      for (const problem of error.problems) {
        if (problem.task !== undefined && file.shapeBroken(problem.task, problem.field)) continue;
        problems.push({ line: (problem.task !== undefined ? file.lineOfTask(problem.task) : undefined) ?? 1, text: problem.text });
      }
    }
  }
  if (problems.length > 0 || !plan) {
    throw new PlanFileError(problems.sort((a, b) => a.line - b.line).map((problem) => `${file.path}:${problem.line}: ${problem.text}`));
  }
  return plan;
}

/** A task as far as it can be read; a key of the wrong type reads as empty (the shape check says
 * what is wrong with it), a `depends_on` of the wrong type as no dependencies. */
function readTask(item: unknown): TaskSpec {
  const task = isRecord(item) ? item : {};
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const idOf = (value: unknown): string | undefined => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);
  const id = idOf(task.id);
  const deps = task.depends_on;
  return {
    task: text(task.task),
    role: text(task.role),
    ...(id !== undefined ? { id } : {}),
    ...('depends_on' in task ? { depends_on: typeof deps === 'string' ? [deps] : Array.isArray(deps) ? deps.map(idOf).filter((dep) => dep !== undefined) : [] } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
