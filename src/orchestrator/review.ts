/**
 * Reviewing a plan before it runs (interactive ask mode): front ends show the graph and the user
 * approves it, edits it (drops a task, changes a role) or rejects it. The edits here are pure, on
 * task specs with explicit ids, so a serial plan stays serial and ids never shift under the user.
 */
import { waves } from './plan.js';
import type { Plan, TaskSpec } from './types.js';

export interface PlanReviewRequest {
  plan: Plan;
  /** Tasks that can start together, wave by wave. */
  waves: string[][];
  /** Editors get worktrees (several can run at once). */
  isolatedWriters: boolean;
  /** Roles the user may switch a task to. */
  roles: readonly string[];
  /** The request for edited tasks (validated again); throws a PlanError when they cannot run. */
  revise(tasks: TaskSpec[]): PlanReviewRequest;
}

export type PlanDecision = { kind: 'run'; tasks: TaskSpec[] } | { kind: 'reject'; reason?: string };

export type ReviewPlanFn = (request: PlanReviewRequest, signal: AbortSignal) => Promise<PlanDecision>;

export function reviewRequest(plan: Plan, isolatedWriters: boolean, roles: readonly string[], revise: (tasks: TaskSpec[]) => PlanReviewRequest): PlanReviewRequest {
  return { plan, waves: waves(plan), isolatedWriters, roles, revise };
}

/** The plan's tasks as specs with explicit ids, and in graph mode every task's depends_on (an
 * empty one too: without it a graph of independent tasks would come back as a serial plan). */
export function specsOf(plan: Plan): TaskSpec[] {
  return plan.tasks.map((task) => ({
    id: task.id,
    role: task.role,
    task: task.task,
    ...(plan.mode === 'graph' ? { depends_on: [...task.dependsOn] } : {}),
  }));
}

/** Without task `id`; tasks that waited for it no longer do (they run without its result). */
export function dropTask(specs: readonly TaskSpec[], id: string): TaskSpec[] {
  return specs
    .filter((spec) => spec.id !== id)
    // An emptied depends_on stays (as []): the plan remains a graph, its tasks independent.
    .map((spec) => (spec.depends_on ? { ...spec, depends_on: spec.depends_on.filter((dep) => dep !== id) } : spec));
}

export function setRole(specs: readonly TaskSpec[], id: string, role: string): TaskSpec[] {
  return specs.map((spec) => (spec.id === id ? { ...spec, role } : spec));
}

/** The role after `role` in `roles` (wrapping), for a one-key "change role". */
export function nextRole(roles: readonly string[], role: string): string {
  const index = roles.indexOf(role);
  return roles[(index + 1) % roles.length] ?? role;
}

/** The plan as text lines, for plain front ends and logs: one line per task, then the waves. */
export function describePlan(request: PlanReviewRequest): string[] {
  const { plan } = request;
  const lines = [`${plan.tasks.length} tasks, ${plan.mode}${request.isolatedWriters ? ', editors in their own worktrees' : ''}${plan.goal ? ` — goal: ${plan.goal}` : ''}`];
  for (const task of plan.tasks) {
    const after = plan.mode === 'graph' && task.dependsOn.length > 0 ? `  ← ${task.dependsOn.join(', ')}` : '';
    lines.push(`  ${task.id}  ${task.role.padEnd(9)} ${task.task.split('\n')[0]}${after}`);
  }
  lines.push(`  runs as: ${request.waves.map((wave) => (wave.length > 1 ? `[${wave.join(' ∥ ')}]` : wave[0])).join(' → ')}`);
  return lines;
}
