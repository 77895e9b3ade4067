/**
 * The coordinator's side of `seek run --queue`: the orchestrator schedules the plan as it does
 * locally and hands each task that is ready here. A task becomes one BullMQ job whose id is fixed
 * by the session, the plan's hash and the task id, so a resumed coordinator finds the
 * jobs of its interrupted run in Redis (finished ones give their result, running and waiting ones
 * are waited for, nothing is done twice); only a job that failed is submitted again. The base
 * commit is the plan tree's HEAD, pushed to the job's repository under refs/seek/fleet/<job>. An
 * editor's commit comes back as a local seek worktree that the orchestrator diffs and merges.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildRequest } from '../orchestrator/orchestrator.js';
import type { DispatchContext, PlanDispatch } from '../runtime/orchestration.js';
import type { ChildReport } from '../subagents/child-report.js';
import { SEEK_VERSION } from '../util/version.js';
import type { WorktreeInfo } from '../worktree/types.js';
import { git } from './git.js';
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
  /** Counts spend (and caps) under this run instead of the plan's own (a batch of plans). */
  runGroup?: string;
}

export class FleetDispatcher implements PlanDispatch {
  /** The coordinator's session id, set once its session is open (job ids start with it). */
  sessionId = 'unsaved';
  private fetching: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: DispatcherOptions) {}

  async runChild(request: ChildRequest, context: DispatchContext): Promise<ChildReport> {
    const { task } = request;
    // The session and the plan name the run: running or resuming the same plan in the same session
    // finds its jobs (and its spend) again, whichever call runs it.
    const own = `${this.sessionId}.${context.plan.hash}`;
    const runId = this.options.runGroup ?? own;
    const jobId = jobIdOf(this.options.runGroup ? `${this.options.runGroup}.${own}` : own, task.id);
    const data = async (): Promise<FleetJob> => {
      context.recordJob(task.id, jobId);
      let base: string | undefined;
      if (context.worktrees) {
        // The tree's HEAD (earlier editors merged in) is where the job starts; workers fetch it.
        base = (await git(context.tree, ['rev-parse', 'HEAD'])).trim();
        await git(context.tree, ['push', '--quiet', '--force', this.options.repoUrl, `${base}:refs/seek/fleet/${jobId}`]);
      }
      return {
        seekVersion: SEEK_VERSION,
        runId,
        taskId: task.id,
        role: task.role,
        prompt: request.prompt,
        writes: task.kind === 'writer',
        repo: { url: this.options.repoUrl, ...(base ? { base } : {}) },
        resultBranch: `seek/fleet/${jobId}`,
        mode: this.options.mode,
        limits: { maxTurns: this.options.maxTurns, ...this.options.limits },
      };
    };
    let outcome;
    try {
      outcome = await this.options.jobs.run(jobId, runId, data, request.signal);
    } catch (error) {
      return failure('spawn_error', `could not queue the job: ${(error as Error).message}`, ZERO_SPEND);
    }
    switch (outcome.kind) {
      case 'capped':
        return failure('budget_exceeded', outcome.why, ZERO_SPEND);
      case 'canceled':
        return failure('canceled', `the coordinator stopped waiting; job ${jobId} goes on in the fleet`, outcome.spend);
      case 'failed': {
        const { errors } = outcome;
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

  /** The editor's commit as a local seek worktree at the job's base, for the orchestrator's merge.
   * One fetch at a time: worktrees share the object store, and concurrent fetches into one
   * repository can fail ("did not send all necessary objects"). */
  private async materialize(result: FleetResult, context: DispatchContext): Promise<WorktreeInfo> {
    const turn = this.fetching.then(async () => {
      const worktree = await context.worktrees!.create({ base: result.base, baseDir: context.tree });
      await fetchResult(worktree.path, this.options.repoUrl, result.commit!);
      await git(worktree.path, ['reset', '--quiet', '--hard', result.commit!.sha]);
      return worktree;
    });
    this.fetching = turn.catch(() => undefined);
    return turn;
  }
}

/** Brings a job's commit into the repository at `dir`: from its pushed branch, or its bundle. */
export async function fetchResult(dir: string, repoUrl: string, commit: NonNullable<FleetResult['commit']>): Promise<void> {
  if (commit.pushed) {
    await git(dir, ['fetch', '--quiet', repoUrl, `refs/heads/${commit.branch}`]);
    return;
  }
  const temp = await mkdtemp(join(tmpdir(), 'seek-bundle-'));
  try {
    await writeFile(join(temp, 'job.bundle'), Buffer.from(commit.bundle ?? '', 'base64'));
    await git(dir, ['fetch', '--quiet', join(temp, 'job.bundle'), `refs/seek/bundle/${commit.branch}`]);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** The successful attempt's figures, with the job's cost and tokens over every attempt (a killed
 * worker's calls were counted in Redis as they happened). */
function figures(result: FleetResult, spend: Spend): Pick<ChildReport, 'turns' | 'modelCalls' | 'toolCalls' | 'tokens' | 'costUsd'> {
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
  };
}
