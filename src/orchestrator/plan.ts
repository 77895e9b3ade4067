/**
 * Turning task specs into a plan that can run: ids, roles, edges, no cycles, serial or graph, and
 * whether writers could overlap. Every problem is found before anything runs and reported at once,
 * so the model (or the author of a plan file) can fix them in one go.
 */
import { createHash } from 'node:crypto';
import type { Plan, PlanTask, RoleKind, TaskSpec } from './types.js';

export const MAX_TASKS = 20;
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

/** What the plan needs to know of a role. */
export interface RoleInfo {
  kind: RoleKind;
  reviews: boolean;
}

/** One thing wrong with a plan; `task` is the position (0-based) of the task it is about, `field`
 * the key of that task it is about (so a plan file can leave out what its own checks said). */
export interface PlanProblem {
  text: string;
  task?: number;
  field?: 'id' | 'role' | 'task' | 'depends_on';
}

/** A plan that cannot run. `problems` are one sentence each; `message` joins them. */
export class PlanError extends Error {
  override readonly name = 'PlanError';
  readonly problems: PlanProblem[];
  constructor(problems: Array<PlanProblem | string>) {
    const list = problems.map((problem) => (typeof problem === 'string' ? { text: problem } : problem));
    super(list.length === 1 ? list[0]!.text : `${list.length} problems:\n${list.map((p) => `- ${p.text}`).join('\n')}`);
    this.problems = list;
  }
}

/**
 * Validates and normalises `specs`. Ids default to `t1`, `t2`, … by position. Throws a PlanError
 * listing every problem: no tasks, too many, empty task text, unknown roles, malformed or duplicate
 * ids, unknown or self dependencies, and cycles (named as a path).
 */
export function buildPlan(specs: readonly TaskSpec[], roles: (role: string) => RoleInfo | undefined, roleNames: readonly string[], goal?: string): Plan {
  const problems: PlanProblem[] = [];
  const about = (task: number, field: PlanProblem['field'], text: string): void => void problems.push({ task, field, text });
  if (specs.length === 0) throw new PlanError(['the plan has no tasks']);
  if (specs.length > MAX_TASKS) problems.push({ text: `the plan has ${specs.length} tasks; at most ${MAX_TASKS} run in one call (split it)` });

  // Any depends_on, even an empty one, declares a graph: `depends_on: []` on every task says they
  // are independent (run in parallel), not "run in order".
  const mode = specs.some((spec) => spec.depends_on !== undefined) ? 'graph' : 'serial';
  const ids = specs.map((spec, index) => spec.id?.trim() || `t${index + 1}`);
  const seen = new Map<string, number>();
  ids.forEach((id, index) => {
    if (!ID_PATTERN.test(id)) about(index, 'id', `task ${index + 1}: id "${id}" must be 1-40 letters, digits, '-', '_' or '.'`);
    const first = seen.get(id);
    if (first !== undefined) about(index, 'id', `tasks ${first + 1} and ${index + 1} have the same id "${id}"`);
    else seen.set(id, index);
  });

  const tasks: PlanTask[] = specs.map((spec, index) => {
    const id = ids[index]!;
    const role = spec.role.trim();
    const info = roles(role);
    if (!info) about(index, 'role', `task ${id}: unknown role "${spec.role}" (roles: ${roleNames.join(', ')})`);
    if (spec.task.trim() === '') about(index, 'task', `task ${id}: the task text is empty`);
    const dependsOn =
      mode === 'serial' ? ids.slice(0, index) : [...new Set((spec.depends_on ?? []).map((dep) => dep.trim()))];
    if (mode === 'graph') {
      for (const dep of dependsOn) {
        if (dep === id) about(index, 'depends_on', `task ${id} depends on itself`);
        else if (!seen.has(dep)) about(index, 'depends_on', `task ${id} depends on unknown task "${dep}" (ids: ${[...new Set(ids)].join(', ')})`);
      }
    }
    return { id, index, task: spec.task.trim(), role, kind: info?.kind ?? 'reader', reviews: info?.reviews ?? false, dependsOn };
  });
  for (const cycle of findCycles(tasks)) {
    about(tasks.findIndex((task) => task.id === cycle[0]), 'depends_on', `the dependencies form a cycle: ${cycle.join(' -> ')} (each waits for the next)`);
  }
  if (problems.length > 0) throw new PlanError(problems);

  const reach = reachability(tasks);
  const writers = tasks.filter((task) => task.kind === 'writer');
  const concurrentWriters = writers.some((a, i) => writers.slice(i + 1).some((b) => concurrent(reach, a, b)));
  return { ...(goal?.trim() ? { goal: goal.trim() } : {}), mode, tasks, hash: planHash(tasks, goal), concurrentWriters };
}

/**
 * Dependency cycles as paths of ids (the first id repeated at the end), in plan order; a cycle
 * sharing a task with one already found is not reported again. Works on a plan with other problems
 * too: edges to unknown ids and to the task itself (reported on their own) are ignored, and a
 * duplicated id stands for its first task.
 */
function findCycles(tasks: readonly PlanTask[]): string[][] {
  const byId = new Map<string, PlanTask>();
  for (const task of tasks) if (!byId.has(task.id)) byId.set(task.id, task);
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const inCycle = new Set<string>();
  const visit = (id: string): void => {
    state.set(id, 'visiting');
    stack.push(id);
    for (const dep of byId.get(id)!.dependsOn) {
      if (dep === id || !byId.has(dep)) continue;
      if (state.get(dep) === 'visiting') {
        const cycle = [...stack.slice(stack.indexOf(dep)), dep];
        if (!cycle.some((member) => inCycle.has(member))) {
          cycles.push(cycle);
          for (const member of cycle) inCycle.add(member);
        }
      } else if (!state.has(dep)) {
        visit(dep);
      }
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const id of byId.keys()) if (!state.has(id)) visit(id);
  return cycles;
}

/** For each task, every task it (transitively) depends on. */
export function reachability(tasks: readonly PlanTask[]): Map<string, Set<string>> {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const memo = new Map<string, Set<string>>();
  const ancestors = (id: string): Set<string> => {
    const known = memo.get(id);
    if (known) return known;
    const result = new Set<string>();
    memo.set(id, result);
    for (const dep of byId.get(id)?.dependsOn ?? []) {
      result.add(dep);
      for (const further of ancestors(dep)) result.add(further);
    }
    return result;
  };
  for (const task of tasks) ancestors(task.id);
  return memo;
}

/** Neither waits for the other, so they may run at the same time. */
export function concurrent(reach: Map<string, Set<string>>, a: PlanTask, b: PlanTask): boolean {
  return a.id !== b.id && !reach.get(a.id)?.has(b.id) && !reach.get(b.id)?.has(a.id);
}

/** Identifies a plan for resume: the same goal, ids, roles, texts and edges give the same hash. */
function planHash(tasks: readonly PlanTask[], goal: string | undefined): string {
  const canonical = JSON.stringify({ goal: goal?.trim() ?? '', tasks: tasks.map((t) => [t.id, t.role, t.task, t.dependsOn]) });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** The tasks that can start together, wave by wave (for showing the plan; the scheduler starts
 * each task as soon as its own dependencies are done, not wave by wave). */
export function waves(plan: Plan): string[][] {
  const done = new Set<string>();
  const result: string[][] = [];
  let left = [...plan.tasks];
  while (left.length > 0) {
    const wave = left.filter((task) => task.dependsOn.every((dep) => done.has(dep)));
    if (wave.length === 0) break; // cannot happen for a validated plan
    result.push(wave.map((task) => task.id));
    for (const task of wave) done.add(task.id);
    left = left.filter((task) => !wave.includes(task));
  }
  return result;
}
