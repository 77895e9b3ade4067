/**
 * The coordinator's side of `seek run --queue`. The first task the orchestrator hands here submits
 * the whole plan as one BullMQ flow (flow.ts), so the engine holds each task until its
 * dependencies have completed, and workers build each task's prompt and checkout from its
 * dependencies' results. The orchestrator still schedules as it does locally; for each task it
 * hands here, the dispatcher waits for that task's job and returns its result, so reports, merges
 * in plan order and the conflict report stay the local ones. Job ids are fixed by the session,
 * the plan's hash and the task id, so a resumed coordinator finds its jobs again (finished ones
 * give their result, running and waiting ones are waited for; only failed or missing ones are
 * submitted again). An editor's commit comes back as a local seek worktree that the orchestrator
 * diffs and merges. When the run is cancelled (its signal aborts), the dispatcher cancels the
 * run's jobs across the fleet and waits for the running ones to stop, so their cost is counted.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildRequest } from '../orchestrator/orchestrator.js';
import type { DispatchContext, PlanDispatch } from '../runtime/orchestration.js';
import type { ChildReport } from '../subagents/child-report.js';
import type { WorktreeInfo } from '../worktree/types.js';
import { cancelAndWait, cancelJob } from './cancel.js';
import { submitPlan, type Submitted } from './flow.js';
import { CANCELLED, releaseSlot } from './gates.js';
import { git, gitIn, type FleetGit } from './git.js';
import { ZERO_SPEND, type FleetJobs } from './jobs.js';
import { jobIdOf, type FleetJob, type FleetResult } from './payload.js';
import type { Spend } from './spend.js';

export interface DispatcherOptions {
  jobs: FleetJobs;
  /** Where workers fetch the plan's repository from and push editors' commits to. */
  repoUrl: string;
  mode: FleetJob['mode'];
  maxTurns: number;
  limits: { costCapUsd?: number; tokenCap?: number };
  /** At most this many of the run's jobs run at once (held by the workers). */
  maxJobs?: number;
  /** Counts spend (and caps) under this run instead of the plan's own (a batch of plans). */
  runGroup?: string;
  /** Run again the tasks a cancelled earlier run of the plan left undone (`--rerun-cancelled`). */
  rerunCancelled?: boolean;
  /** How long a cancel waits for the run's running jobs to stop (default 5 s, cancel.ts). */
  cancelWaitMs?: number;
}

/** A failed reason saying the job failed because a dependency's job did, not by itself. */
const CASCADE = /^(child \S+ failed|dependency \S+ failed)/;

export class FleetDispatcher implements PlanDispatch {
  /** The coordinator's session id, set once its session is open (job ids start with it). */
  sessionId = 'unsaved';
  private fetching: Promise<unknown> = Promise.resolve();
  private readonly flows = new Map<string, Promise<Submitted>>();
  private cancelling: Promise<void> | undefined;

  constructor(private readonly options: DispatcherOptions) {}

  async runChild(request: ChildRequest, context: DispatchContext): Promise<ChildReport> {
    const { task } = request;
    const { jobs } = this.options;
    // The session and the plan name the run: running or resuming the same plan in the same session
    // finds its jobs (and its spend) again, whichever call runs it.
    const own = `${this.sessionId}.${context.plan.hash}`;
    const runId = this.options.runGroup ?? own;
    const prefix = this.options.runGroup ? `${this.options.runGroup}.${own}` : own;
    let flow: Submitted;
    try {
      flow = await this.flowOf(context, prefix, runId);
    } catch (error) {
      return failure('spawn_error', `could not queue the plan: ${(error as Error).message}`, ZERO_SPEND);
    }
    const held = flow.held.get(task.id);
    if (held?.kind === 'capped') return failure('budget_exceeded', held.why, ZERO_SPEND);
    if (held?.kind === 'cancelled') return failure('canceled', 'cancelled in an earlier run of this plan and not run again (resume with --rerun-cancelled to run it)', ZERO_SPEND);
    const jobId = flow.jobIdOf(task.id);
    let outcome = await jobs.wait(jobId, request.signal);
    if (outcome.kind === 'failed' && CASCADE.test(outcome.reason ?? '') && !request.signal.aborted) {
      // Failed by a dependency's earlier job, though the dependency has completed since (the
      // orchestrator hands a task over only then, e.g. after a resume ran it again): once more.
      await flow.resubmit(task.id);
      outcome = await jobs.wait(jobId, request.signal);
    }
    // An ended job holds no slot of the run (one whose worker died may not have said so).
    if (outcome.kind === 'failed' || outcome.kind === 'completed') await releaseSlot(jobs.redis, runId, jobId).catch(() => undefined);
    switch (outcome.kind) {
      case 'capped':
        return failure('budget_exceeded', outcome.why, ZERO_SPEND);
      case 'canceled': {
        await this.cancel(context, prefix, runId);
        return failure('canceled', `cancelled: job ${jobId} was stopped across the fleet`, await jobs.spendOf(jobId));
      }
      case 'failed': {
        const { errors } = outcome;
        const capped = errors.map((line) => /not started: (.*)$/.exec(line)?.[1]).find(Boolean);
        if (capped) return failure('budget_exceeded', capped, outcome.spend);
        if (outcome.reason === CANCELLED) return failure('canceled', `job ${jobId} was cancelled`, outcome.spend);
        return failure('job_failed', `job ${jobId} failed after ${errors.length} attempt${errors.length === 1 ? '' : 's'}: ${errors.join(' | ')}`, outcome.spend);
      }
      case 'completed': {
        const { result, spend } = outcome;
        const worktree = result.commit && context.worktrees ? await this.materialize(result, context) : undefined;
        return {
          result: { content: result.summary ?? '' },
          status: 'completed',
          ...(result.summary !== undefined ? { summary: result.summary } : {}),
          ...figures(result, spend),
          ...(worktree ? { worktree } : {}),
        };
      }
    }
  }

  /**
   * A task the orchestrator skipped: a dependency did not complete here, though its job may have
   * (its merge was refused, e.g. by the user's uncommitted changes), so the engine could start the
   * task's job. It is cancelled: not started, or stopped where it runs.
   */
  skipped(taskId: string, context: DispatchContext): void {
    const flow = this.flows.get(context.plan.hash);
    if (!flow) return;
    const { jobs } = this.options;
    jobs.track(flow.then((submitted) => cancelJob(jobs.redis, submitted.jobIdOf(taskId))));
  }

  /** The plan's flow, submitted once per plan (the first task handed here does it). */
  private flowOf(context: DispatchContext, prefix: string, runId: string): Promise<Submitted> {
    let flow = this.flows.get(context.plan.hash);
    if (!flow) {
      const { jobs } = this.options;
      flow = submitPlan(
        {
          jobs,
          url: jobs.url,
          repoUrl: this.options.repoUrl,
          prefix,
          runId,
          mode: this.options.mode,
          maxTurns: this.options.maxTurns,
          limits: { ...this.options.limits, ...(this.options.maxJobs ? { maxJobs: this.options.maxJobs } : {}) },
          rerunCancelled: this.options.rerunCancelled === true,
          env: jobs.env,
        },
        context,
      );
      this.flows.set(context.plan.hash, flow);
    }
    return flow;
  }

  /**
   * Cancels the run across the fleet (once): no job of it starts any more, workers abort the
   * running ones, and this waits (bounded) until none of the plan's jobs is running, so what they
   * spent is counted. The session records the cancel for `--resume`.
   */
  private cancel(context: DispatchContext, prefix: string, runId: string): Promise<void> {
    if (!this.cancelling) {
      context.recordCancel();
      const ids = context.plan.tasks.map((task) => jobIdOf(prefix, task.id));
      this.cancelling = cancelAndWait(this.options.jobs, runId, ids, this.options.cancelWaitMs);
    }
    return this.cancelling;
  }

  /** The editor's commit as a local seek worktree at the job's base, for the orchestrator's merge.
   * One fetch at a time: worktrees share the object store, and concurrent fetches into one
   * repository can fail ("did not send all necessary objects"). */
  private async materialize(result: FleetResult, context: DispatchContext): Promise<WorktreeInfo> {
    const turn = this.fetching.then(async () => {
      // The commit first: its base may be a merge of its dependencies made on the worker.
      await fetchResult(gitIn(context.tree), this.options.repoUrl, result.commit!);
      const worktree = await context.worktrees!.create({ base: result.base, baseDir: context.tree });
      await git(worktree.path, ['reset', '--quiet', '--hard', result.commit!.sha]);
      return worktree;
    });
    this.fetching = turn.catch(() => undefined);
    return turn;
  }
}

/** Brings a job's commit into the repository `git` works in (the coordinator's tree, a worker's
 * checkout): from its pushed branch, or its bundle. */
export async function fetchResult(git: FleetGit, repoUrl: string, commit: NonNullable<FleetResult['commit']>): Promise<void> {
  if (commit.pushed) {
    await git.ok(['fetch', '--quiet', repoUrl, `refs/heads/${commit.branch}`]);
    return;
  }
  const temp = await mkdtemp(join(tmpdir(), 'seek-bundle-'));
  try {
    await writeFile(join(temp, 'job.bundle'), Buffer.from(commit.bundle ?? '', 'base64'));
    await git.ok(['fetch', '--quiet', join(temp, 'job.bundle'), `refs/seek/bundle/${commit.branch}`]);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** The successful attempt's figures, with the job's cost and tokens over every attempt (a killed
 * worker's calls were counted in Redis as they happened). */
function figures(result: FleetResult, spend: Spend): Pick<ChildReport, 'turns' | 'modelCalls' | 'toolCalls' | 'tokens' | 'costUsd' | 'costKnown'> {
  return {
    turns: result.turns,
    modelCalls: Math.max(result.modelCalls, spend.modelCalls),
    toolCalls: result.toolCalls,
    tokens: {
      prompt: Math.max(result.tokens.prompt, spend.prompt),
      completion: Math.max(result.tokens.completion, spend.completion),
      cache_hit: Math.max(result.tokens.cache_hit, spend.cacheHit),
    },
    costUsd: Math.max(result.costUsd, spend.costUsd),
    // A model without a price in any attempt: the cost is unknown, as a local run says.
    ...(result.costKnown === false || spend.unpriced > 0 ? { costKnown: false } : {}),
  };
}

function failure(reason: NonNullable<ChildReport['reason']>, hint: string, spend: Spend): ChildReport {
  return {
    result: { content: `[agent: failed reason=${reason}] ${hint}`, isError: true },
    status: 'failed',
    reason,
    turns: 0,
    modelCalls: spend.modelCalls,
    toolCalls: 0,
    tokens: { prompt: spend.prompt, completion: spend.completion, cache_hit: spend.cacheHit },
    costUsd: spend.costUsd,
    ...(spend.unpriced > 0 ? { costKnown: false } : {}),
  };
}
