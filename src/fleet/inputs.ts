/**
 * A plan task's inputs and outputs on the worker, for tasks dispatched as a flow (flow.ts). The
 * job's children are its dependencies (real jobs or references to them), so their values are the
 * dependencies' results: the prompt is built from them as the coordinator's orchestrator would
 * build it (summaries, verdicts, editors' diffs), and the checkout starts from the plan's base
 * with each dependency's head merged in plan order, so the task sees what a local run's task sees.
 * Afterwards the task's own head (that base plus its commit) is published for its dependants.
 * Every git call here is the checkout's own (`Checkout.git`): checked, never discovered.
 */
import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import { DIFF_CAP } from '../orchestrator/orchestrator.js';
import { capSummary, parseVerdict, taskPrompt } from '../orchestrator/prompts.js';
import type { TaskRecord } from '../orchestrator/types.js';
import { diffTrees } from '../worktree/diff.js';
import type { Checkout, Published } from './checkout.js';
import { fetchResult } from './dispatcher.js';
import type { FleetGit } from './git.js';
import { resultSchema, type FleetJob, type FleetResult } from './payload.js';

type PlanData = NonNullable<FleetJob['plan']>;

const IDENTITY = ['-c', 'user.name=seek worker', '-c', 'user.email=seek-worker@localhost'];

/** The dependencies' results, by task id, from the job's children (real and references). */
export async function dependencyResults(job: Job): Promise<Map<string, FleetResult>> {
  const values = await job.getChildrenValues();
  const results = new Map<string, FleetResult>();
  for (const value of Object.values(values)) {
    const parsed = resultSchema.safeParse(value);
    if (parsed.success && parsed.data.taskId) results.set(parsed.data.taskId, parsed.data);
  }
  return results;
}

export interface PreparedInputs {
  prompt: string;
  /** The checkout's commit once the dependencies' heads are merged (the task's base). */
  base: string;
}

/**
 * Merges the dependencies' heads into the checkout (plan order) and builds the prompt. A
 * dependency whose result is missing, or changes that conflict, fail the job for good: a retry
 * would meet the same.
 */
export async function prepareInputs(job: Job, plan: PlanData, repoUrl: string, checkout: Checkout): Promise<PreparedInputs> {
  const results = await dependencyResults(job);
  const inputs: TaskRecord[] = [];
  for (const dep of plan.deps) {
    const result = results.get(dep.id);
    if (!result) throw new UnrecoverableError(`the result of dependency ${dep.id} is missing from the job's children`);
    const record: TaskRecord = {
      id: dep.id,
      role: dep.role,
      status: 'completed',
      summary: capSummary(result.summary ?? ''),
      turns: result.turns,
      modelCalls: result.modelCalls,
      toolCalls: result.toolCalls,
      tokens: result.tokens,
      costUsd: result.costUsd,
      ...(dep.reviews ? { verdict: parseVerdict(result.summary ?? '') } : {}),
      ...(result.diff !== undefined ? { diff: result.diff } : {}),
    };
    const mergedAt = await mergeHead(checkout.git, repoUrl, dep.id, result);
    if (mergedAt && result.commit) record.merge = { commit: mergedAt };
    inputs.push(record);
  }
  const base = (await checkout.git.ok(['rev-parse', 'HEAD'])).trim();
  const writerInputs = inputs.filter((record) => plan.deps.find((dep) => dep.id === record.id)!.kind === 'writer');
  const prompt = taskPrompt({
    ...(plan.goal ? { goal: plan.goal } : {}),
    task: plan.task,
    inputs,
    ...(plan.task.reviews ? { changes: writerInputs } : {}),
    ...(plan.worktreeNote ? { worktreeNote: plan.worktreeNote } : {}),
  });
  return { prompt, base };
}

/** Brings a dependency's head into the checkout: already there, a fast-forward, or a merge
 * commit. Returns the commit the checkout is at afterwards (undefined when nothing changed). */
async function mergeHead(git: FleetGit, repoUrl: string, taskId: string, result: FleetResult): Promise<string | undefined> {
  const head = result.head;
  if (!head) return undefined;
  if ((await git.run(['cat-file', '-e', `${head}^{commit}`])).code !== 0) {
    if (result.commit && result.commit.sha === head) await fetchResult(git, repoUrl, result.commit);
    else if (result.headRef) await git.ok(['fetch', '--quiet', repoUrl, result.headRef]);
    else throw new UnrecoverableError(`dependency ${taskId}'s head ${head.slice(0, 12)} cannot be fetched`);
  }
  if ((await git.run(['merge-base', '--is-ancestor', head, 'HEAD'])).code === 0) return undefined;
  if ((await git.run(['merge-base', '--is-ancestor', 'HEAD', head])).code === 0) {
    await git.ok(['checkout', '--quiet', '--detach', head]);
  } else {
    const merge = await git.run([...IDENTITY, 'merge', '--quiet', '--no-ff', '--no-edit', '-m', `seek: merge ${taskId}`, head]);
    if (merge.code !== 0) {
      const conflicted = (await git.run(['diff', '--name-only', '--diff-filter=U'])).stdout.trim().split('\n').filter(Boolean);
      await git.run(['merge', '--abort']);
      throw new UnrecoverableError(`the changes of dependency ${taskId} conflict with the other dependencies'${conflicted.length ? ` (${conflicted.join(', ')})` : ''}; not started`);
    }
  }
  return (await git.ok(['rev-parse', 'HEAD'])).trim();
}

/** What a plan task's result adds for its dependants: its head (pushed when only this checkout
 * has it) and an editor's diff. */
export async function planOutputs(
  checkout: Checkout,
  repoUrl: string,
  jobId: string,
  taskId: string,
  base: string,
  commit: Published | undefined,
  writes: boolean,
): Promise<Pick<FleetResult, 'taskId' | 'head' | 'headRef' | 'diff'>> {
  const head = commit?.sha ?? base;
  let headRef: string | undefined;
  if (head !== checkout.base && head !== commit?.sha) {
    headRef = `refs/seek/fleet/head/${jobId}`;
    await checkout.git.ok(['push', '--quiet', '--force', repoUrl, `${head}:${headRef}`]);
  }
  const shim = { ok: (_cwd: string, args: readonly string[]) => checkout.git.ok(args) };
  const diff = commit ? await diffTrees(shim, checkout.dir, base, commit.sha, DIFF_CAP) : writes ? '' : undefined;
  return { taskId, head, ...(headRef ? { headRef } : {}), ...(diff !== undefined ? { diff } : {}) };
}
