/**
 * A plan as one BullMQ flow, so the engine enforces `depends_on`: a task's job has its
 * dependencies as children and cannot start before they complete, whether or not the
 * coordinator is alive. BullMQ gives a job one parent while a plan is a graph, so a dependency
 * with several dependants is a real job once (the child of its first dependant met from the
 * plan's last tasks) and a reference job under each other dependant; a reference completes with
 * the referenced job's value once that job has completed (gates.ts). Every child fails its parent
 * when it fails, so a failed task's dependants fail too (the coordinator reports them skipped).
 *
 * Submitting again (a resumed coordinator) adds only the tasks whose job failed or is missing,
 * with references to the others; jobs that are done or under way are left as they are.
 */
import { randomBytes } from 'node:crypto';
import { FlowProducer, type FlowJobNode, type FlowJob as BullFlowJob, type JobsOptions } from 'bullmq';
import { WORKTREE_AT_HEAD } from '../orchestrator/orchestrator.js';
import type { Plan, PlanTask } from '../orchestrator/types.js';
import type { DispatchContext } from '../runtime/orchestration.js';
import { SEEK_VERSION } from '../util/version.js';
import { connectionOptions, fleetTimings, QUEUE_NAME } from './connection.js';
import { CANCELLED, clearCancelled, clearJobCancelled } from './gates.js';
import { git } from './git.js';
import type { FleetJobs } from './jobs.js';
import { assertNoSecrets, jobIdOf, REF_JOB, type FleetJob, type FleetRef } from './payload.js';
import { capReached, resetAttemptErrors, resetJobSpend, runSpend } from './spend.js';

export interface FlowSettings {
  jobs: FleetJobs;
  url: string;
  repoUrl: string;
  /** Job ids are `<prefix>.<task id>`. */
  prefix: string;
  runId: string;
  mode: FleetJob['mode'];
  maxTurns: number;
  limits: { costCapUsd?: number; tokenCap?: number; maxJobs?: number };
  /** Run again the tasks an earlier, cancelled run of the plan left undone. */
  rerunCancelled: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

/** Why a task was not submitted. */
export type Held = { kind: 'capped'; why: string } | { kind: 'cancelled' };

export interface Submitted {
  /** Tasks left out, and why; every other task has a job (new, running or done). */
  held: ReadonlyMap<string, Held>;
  jobIdOf(taskId: string): string;
  /** Submits one task again (its job failed because a dependency's first job failed, and that
   * dependency has completed since): the task alone, its dependencies as references. */
  resubmit(taskId: string): Promise<void>;
}

const FAILED_OR_MISSING = new Set(['failed', 'unknown']);

export async function submitPlan(settings: FlowSettings, context: DispatchContext): Promise<Submitted> {
  const { plan } = context;
  const { jobs } = settings;
  jobs.noteRun(settings.runId); // its caps are reported at the end, whether or not a job is submitted now
  const idOf = (taskId: string): string => jobIdOf(settings.prefix, taskId);
  const held = new Map<string, Held>();
  const open = plan.tasks.filter((task) => !context.completed.has(task.id));
  const states = new Map(await Promise.all(open.map(async (task) => [task.id, await stateOf(jobs, idOf(task.id))] as const)));
  let redo = open.filter((task) => FAILED_OR_MISSING.has(states.get(task.id)!.state));
  const submitted: Submitted = { held, jobIdOf: idOf, resubmit: (taskId) => add([plan.tasks.find((task) => task.id === taskId)!]) };
  if (context.cancelledBefore && !settings.rerunCancelled) {
    // What the cancel stopped stays stopped: jobs failed "cancelled" (or by a cancelled
    // dependency), and jobs the cancelled run never submitted. A job that failed by itself is
    // submitted again as after any interruption.
    const stopped = (task: PlanTask): boolean => {
      const { state, reason } = states.get(task.id)!;
      return state === 'unknown' || reason === CANCELLED || /^(child|dependency) \S+ failed/.test(reason ?? '');
    };
    for (const task of redo.filter(stopped)) held.set(task.id, { kind: 'cancelled' });
    redo = redo.filter((task) => !stopped(task));
  }
  if (redo.length === 0) return submitted;
  await clearCancelled(jobs.redis, settings.runId);
  const cap = capReached(await runSpend(jobs.redis, settings.runId), settings.limits);
  if (cap) {
    for (const task of redo) held.set(task.id, { kind: 'capped', why: cap });
    return submitted;
  }
  await add(redo);
  return submitted;

  async function add(tasks: readonly PlanTask[]): Promise<void> {
    const payload = await payloads(settings, context);
    for (const task of tasks) {
      const job = await jobs.queue.getJob(idOf(task.id));
      if (job) {
        await job.remove({ removeChildren: false });
        await Promise.all([resetJobSpend(jobs.redis, job.id!), resetAttemptErrors(jobs.redis, job.id!)]);
      }
      await clearJobCancelled(jobs.redis, idOf(task.id));
      context.recordJob(task.id, idOf(task.id));
    }
    const trees = flowTrees(plan, tasks, idOf, payload, jobOptions(settings.env), settings.runId);
    for (const tree of trees) assertNoSecrets(tree);
    const producer = new FlowProducer({ connection: connectionOptions(settings.url) });
    producer.on('error', jobs.watch.onError);
    try {
      await producer.addBulk(trees);
    } finally {
      await producer.close();
    }
  }
}

/** Options of every job of a flow: retries, kept a week, a failure fails the parent. */
function jobOptions(env: Readonly<Record<string, string | undefined>>): (jobId: string) => JobsOptions {
  const timings = fleetTimings(env);
  return (jobId) => ({
    jobId,
    attempts: timings.attempts,
    backoff: { type: 'fixed', delay: timings.backoffMs },
    removeOnComplete: { age: 7 * 24 * 3600 },
    removeOnFail: { age: 7 * 24 * 3600 },
    failParentOnFailure: true,
  });
}

/** The jobs' payloads: the plan's tree at HEAD (earlier editors merged in), pushed to the job
 * repository, is where every job starts. */
async function payloads(settings: FlowSettings, context: DispatchContext): Promise<(task: PlanTask) => FleetJob> {
  const { plan } = context;
  let base: string | undefined;
  if (context.worktrees) {
    base = (await git(context.tree, ['rev-parse', 'HEAD'])).trim();
    await git(context.tree, ['push', '--quiet', '--force', settings.repoUrl, `${base}:refs/seek/fleet/${settings.prefix.replace(/:/g, '_')}.base`]);
  }
  const uncommitted = context.worktrees ? await context.worktrees.treeChanges(context.tree).catch(() => 0) : 0;
  return (task) => ({
    seekVersion: SEEK_VERSION,
    runId: settings.runId,
    taskId: task.id,
    role: task.role,
    prompt: task.task,
    writes: task.kind === 'writer',
    repo: { url: settings.repoUrl, ...(base ? { base } : {}) },
    resultBranch: `seek/fleet/${jobIdOf(settings.prefix, task.id)}`,
    mode: settings.mode,
    limits: { maxTurns: settings.maxTurns, ...settings.limits },
    plan: {
      ...(plan.goal ? { goal: plan.goal } : {}),
      task: { id: task.id, index: task.index, task: task.task, role: task.role, kind: task.kind, reviews: task.reviews, dependsOn: [...task.dependsOn] },
      deps: inPlanOrder(plan, task.dependsOn).map((dep) => ({ id: dep.id, role: dep.role, kind: dep.kind, reviews: dep.reviews })),
      ...(uncommitted && task.kind === 'writer' ? { worktreeNote: WORKTREE_AT_HEAD } : {}),
    },
  });
}

/**
 * The flow trees of `tasks` (a subset of the plan closed under dependants): the roots are the
 * tasks no other of them depends on; a task's children are its dependencies, each a real job the
 * first time it is met and a reference afterwards, or when it is not among `tasks`.
 */
export function flowTrees(
  plan: Plan,
  tasks: readonly PlanTask[],
  idOf: (taskId: string) => string,
  payload: (task: PlanTask) => FleetJob,
  options: (jobId: string) => JobsOptions,
  runId: string,
): BullFlowJob[] {
  const included = new Set(tasks.map((task) => task.id));
  const placed = new Set<string>();
  const nonce = randomBytes(3).toString('hex');
  const byId = new Map(plan.tasks.map((task) => [task.id, task]));
  const node = (task: PlanTask): BullFlowJob & FlowJobNode => {
    placed.add(task.id);
    const children = inPlanOrder(plan, task.dependsOn).map((dep): FlowJobNode => {
      if (included.has(dep.id) && !placed.has(dep.id)) return node(dep);
      const ref: FleetRef = { seekVersion: SEEK_VERSION, runId, taskId: dep.id, ref: idOf(dep.id) };
      return { name: REF_JOB, queueName: QUEUE_NAME, data: ref, opts: options(`${idOf(task.id)}.needs.${dep.id}.${nonce}`) };
    });
    return { name: task.id, queueName: QUEUE_NAME, data: payload(task), opts: options(idOf(task.id)), ...(children.length > 0 ? { children } : {}) };
  };
  const dependedOn = new Set(tasks.flatMap((task) => task.dependsOn.filter((dep) => included.has(dep))));
  // From the last tasks backwards: a shared dependency becomes the real child of its latest dependant.
  const roots = [...tasks].reverse().filter((task) => !dependedOn.has(task.id));
  const trees = roots.map((task) => node(byId.get(task.id)!));
  return trees.reverse();
}

function inPlanOrder(plan: Plan, ids: readonly string[]): PlanTask[] {
  return plan.tasks.filter((task) => ids.includes(task.id));
}

async function stateOf(jobs: FleetJobs, jobId: string): Promise<{ state: string; reason?: string }> {
  const job = await jobs.queue.getJob(jobId);
  if (!job) return { state: 'unknown' };
  return { state: await job.getState(), ...(job.failedReason ? { reason: job.failedReason } : {}) };
}
