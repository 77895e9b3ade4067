/**
 * What travels through the queue. A job carries the task (its prompt, role and id), the
 * repository to check out (URL and base commit or ref), where an editor's commit goes, the run's
 * limits and the version of seek that made it. It never carries credentials: workers use their own
 * provider keys and repository access, so a job cannot leak a key to Redis (`assertNoSecrets`
 * checks what is sent). A result carries the figures, the summary, and an editor's commit.
 */
import { z } from 'zod';

export const jobSchema = z.strictObject({
  /** The coordinator's seek version; a worker of another version refuses the job. */
  seekVersion: z.string(),
  /** The run this job belongs to: spend and caps are counted per run. */
  runId: z.string(),
  taskId: z.string(),
  role: z.string(),
  /** The full task prompt, as a local plan task gets it (inputs and diffs included). */
  prompt: z.string(),
  /** Writers' changes become a commit on `resultBranch`. */
  writes: z.boolean(),
  repo: z.strictObject({
    /** Fetched by the worker with its own access (a path, file://, ssh or https URL). */
    url: z.string(),
    /** A commit sha or a ref of the repository; absent: its default branch (HEAD). */
    base: z.string().optional(),
  }),
  resultBranch: z.string(),
  /** The coordinator's permission mode for the child ('ask' denies what needs approval). */
  mode: z.enum(['ask', 'auto', 'yolo']),
  limits: z.strictObject({
    maxTurns: z.number().int().positive(),
    /** At most this many jobs of the run run at once (workers hold a slot per running job). */
    maxJobs: z.number().int().positive().optional(),
    /** The run stops starting jobs once its spend reaches these. */
    costCapUsd: z.number().positive().optional(),
    tokenCap: z.number().int().positive().optional(),
  }),
  /** A task of a plan dispatched as a flow (src/fleet/flow.ts): the worker builds the prompt from
   * its dependencies' results (its children's values) and starts from a checkout with their
   * changes merged in; `prompt` is then only the task's own part. */
  plan: z
    .strictObject({
      goal: z.string().optional(),
      task: z.strictObject({
        id: z.string(),
        index: z.number().int(),
        task: z.string(),
        role: z.string(),
        kind: z.enum(['reader', 'writer']),
        reviews: z.boolean(),
        dependsOn: z.array(z.string()),
      }),
      /** The task's dependencies in plan order (their results come from the job's children). */
      deps: z.array(z.strictObject({ id: z.string(), role: z.string(), kind: z.enum(['reader', 'writer']), reviews: z.boolean() })),
      /** An editor's worktree lacks the user's uncommitted changes: it is told so. */
      worktreeNote: z.string().optional(),
    })
    .optional(),
});
export type FleetJob = z.infer<typeof jobSchema>;

/** A flow's stand-in for a dependency that is a real job elsewhere in the flow (BullMQ gives a
 * job one parent; a task with several dependants is a child of one and referenced by the
 * others). It completes with the referenced job's value once that job has completed. */
export const refSchema = z.strictObject({
  seekVersion: z.string(),
  runId: z.string(),
  /** The referenced task and its job. */
  taskId: z.string(),
  ref: z.string(),
});
export type FleetRef = z.infer<typeof refSchema>;
export const REF_JOB = 'ref';

const tokens = z.looseObject({ prompt: z.number(), completion: z.number(), cache_hit: z.number() });

export const resultSchema = z.looseObject({
  status: z.enum(['completed', 'failed', 'killed']),
  reason: z.string().optional(),
  hint: z.string().optional(),
  summary: z.string().optional(),
  turns: z.number(),
  modelCalls: z.number(),
  toolCalls: z.number(),
  tokens,
  costUsd: z.number(),
  /** False when a model without a known price billed part of it (absent: known). */
  costKnown: z.boolean().optional(),
  /** The worker that ran the successful attempt (its host name and pid). */
  worker: z.string(),
  /** The commit the job started from (resolved on the worker; with its dependencies' changes merged). */
  base: z.string(),
  /** The task of a plan. */
  taskId: z.string().optional(),
  /** What the task's dependants build on: `base` plus its own commit. */
  head: z.string().optional(),
  /** Where `head` was pushed when it is neither the plan's base nor the commit. */
  headRef: z.string().optional(),
  /** A writer's diff as reviewers see it (stat, then patch, capped). */
  diff: z.string().optional(),
  /** A writer's changes. `pushed`: on `branch` in the job's repository; else `bundle` (base64 of
   * a git bundle holding `branch`) is the only copy. */
  commit: z
    .strictObject({ sha: z.string(), branch: z.string(), pushed: z.boolean(), pushError: z.string().optional(), bundle: z.string().optional() })
    .optional(),
});
export type FleetResult = z.infer<typeof resultSchema>;

/** Words that name credentials; a payload with any of them as a key, or with a value that looks
 * like a provider key, is refused before it reaches Redis. */
const SECRET_KEY = /(api[_-]?key|token$|secret|password|authorization)/i;
const SECRET_VALUE = /\b(sk-[A-Za-z0-9_-]{16,}|ghp_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16})\b/;

/** Throws when `payload` would carry a credential (a key name or a key-shaped value, or a URL
 * with a password). Prompts that quote such a value are refused too: better than leaking it. */
export function assertNoSecrets(payload: unknown, path = 'job'): void {
  if (typeof payload === 'string') {
    if (SECRET_VALUE.test(payload)) throw new Error(`${path} looks like it holds an API key; it is not sent through the queue`);
    if (/^[a-z+]+:\/\/[^/@\s]*:[^/@\s]+@/i.test(payload)) throw new Error(`${path} holds a URL with a password; it is not sent through the queue`);
    return;
  }
  if (Array.isArray(payload)) payload.forEach((item, index) => assertNoSecrets(item, `${path}[${index}]`));
  else if (payload && typeof payload === 'object') {
    for (const [key, value] of Object.entries(payload)) {
      if (SECRET_KEY.test(key) && key !== 'tokenCap') throw new Error(`${path}.${key} names a credential; it is not sent through the queue`);
      assertNoSecrets(value, `${path}.${key}`);
    }
  }
}

/** Job ids: BullMQ's ids must not be plain integers nor contain ':'. */
export function jobIdOf(runId: string, taskId: string): string {
  return `${runId}.${taskId}`.replace(/:/g, '_');
}
