/**
 * The coordinator's side of `seek run --queue`: the orchestrator schedules the plan as it does
 * locally and hands each task that is ready here. A task becomes one BullMQ job whose id is fixed
 * by the session, the plan's call and hash and the task id, so a resumed coordinator finds the
 * jobs of its interrupted run in Redis (finished ones give their result, running and waiting ones
 * are waited for, nothing is done twice); only a job that failed is submitted again. The base
 * commit is the plan tree's HEAD, pushed to the job's repository under refs/seek/fleet/<job>. An
 * editor's commit comes back as a local seek worktree that the orchestrator diffs and merges.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ChildRequest } from '../orchestrator/orchestrator.js';
import type { DispatchContext, PlanDispatch } from '../runtime/orchestration.js';
import type { ChildReport } from '../subagents/child-report.js';
import { SEEK_VERSION } from '../util/version.js';
import type { WorktreeInfo } from '../worktree/types.js';
import { git } from './git.js';
import { fleetTimings, QUEUE_NAME, connectionOptions } from './connection.js';
import { assertNoSecrets, jobIdOf, resultSchema, type FleetJob, type FleetResult } from './payload.js';
import { attemptErrors, capReached, jobSpend, resetAttemptErrors, resetJobSpend, runSpend, type Spend } from './spend.js';

export interface DispatcherOptions {
  url: string;
  redis: Redis;
  /** Where workers fetch the plan's repository from and push editors' commits to. */
  repoUrl: string;
  mode: FleetJob['mode'];
  maxTurns: number;
  limits: { costCapUsd?: number; tokenCap?: number };
  /** At most this many of the run's jobs queued or running at once. */
  maxJobs?: number;
  env: Readonly<Record<string, string | undefined>>;
}

export class FleetDispatcher implements PlanDispatch {
  /** The coordinator's session id, set once its session is open (job ids start with it). */
  sessionId = 'unsaved';
  readonly queue: Queue;
  readonly events: QueueEvents;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: DispatcherOptions) {
    this.queue = new Queue(QUEUE_NAME, { connection: connectionOptions(options.url) });
    this.events = new QueueEvents(QUEUE_NAME, { connection: connectionOptions(options.url) });
  }

  async ready(): Promise<void> {
    await Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady()]);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.events.close(), this.queue.close()]);
  }

  async runChild(request: ChildRequest, context: DispatchContext): Promise<ChildReport> {
    const { task } = request;
    const runId = `${this.sessionId}.${context.callId}`;
    const jobId = jobIdOf(runId, `${context.plan.hash}.${task.id}`);
    let job: Job | undefined = await this.queue.getJob(jobId);
    if (job && (await job.getState()) === 'failed') {
      await job.remove();
      await Promise.all([resetJobSpend(this.options.redis, jobId), resetAttemptErrors(this.options.redis, jobId)]);
      job = undefined;
    }
    let release: (() => void) | undefined;
    if (!job) {
      const cap = capReached(await runSpend(this.options.redis, runId), this.options.limits);
      if (cap) return failure('budget_exceeded', cap, ZERO);
      release = await this.slot(request.signal);
      if (!release) return failure('canceled', 'the run was cancelled before the job was queued', ZERO);
      try {
        job = await this.submit(request, context, runId, jobId);
      } catch (error) {
        release();
        return failure('spawn_error', `could not queue the job: ${(error as Error).message}`, ZERO);
      }
    }
    try {
      return await this.outcome(job, request, context);
    } finally {
      release?.();
    }
  }

  private async submit(request: ChildRequest, context: DispatchContext, runId: string, jobId: string): Promise<Job> {
    const { task } = request;
    let base: string | undefined;
    if (context.worktrees) {
      // The tree's HEAD (earlier editors merged in) is where the job starts; workers fetch it.
      base = (await git(context.tree, ['rev-parse', 'HEAD'])).trim();
      await git(context.tree, ['push', '--quiet', '--force', this.options.repoUrl, `${base}:refs/seek/fleet/${jobId}`]);
    }
    const data: FleetJob = {
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
    assertNoSecrets(data);
    const timings = fleetTimings(this.options.env);
    return this.queue.add(task.id, data, {
      jobId,
      attempts: timings.attempts,
      backoff: { type: 'fixed', delay: timings.backoffMs },
      removeOnComplete: { age: 7 * 24 * 3600 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
  }

  /** Waits for the job; a cancelled coordinator stops waiting (the job goes on, a resume finds it). */
  private async outcome(job: Job, request: ChildRequest, context: DispatchContext): Promise<ChildReport> {
    const jobId = job.id!;
    const aborted = new Promise<'aborted'>((resolve) => {
      if (request.signal.aborted) resolve('aborted');
      request.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
    });
    const finished = job.waitUntilFinished(this.events).then(
      (value: unknown) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error: error as Error }),
    );
    const ended = await Promise.race([finished, aborted]);
    const spend = await jobSpend(this.options.redis, jobId);
    if (ended === 'aborted') return failure('canceled', `the coordinator stopped waiting; job ${jobId} goes on in the fleet`, spend);
    if (!ended.ok) {
      const errors = await attemptErrors(this.options.redis, jobId);
      const fresh = await this.queue.getJob(jobId);
      const last = fresh?.failedReason ?? ended.error.message;
      if (!errors.some((line) => line.endsWith(last))) errors.push(last);
      return failure('job_failed', `job ${jobId} failed after ${errors.length} attempt${errors.length === 1 ? '' : 's'}: ${errors.join(' | ')}`, spend);
    }
    const result = resultSchema.parse(ended.value);
    const worktree = result.commit && context.worktrees ? await this.materialize(result, context) : undefined;
    return {
      result: { content: result.summary ?? '' },
      status: 'completed',
      ...(result.summary !== undefined ? { summary: result.summary } : {}),
      ...figures(result, spend),
      ...(worktree ? { worktree } : {}),
    };
  }

  /** The editor's commit as a local seek worktree at the job's base, for the orchestrator's merge. */
  private async materialize(result: FleetResult, context: DispatchContext): Promise<WorktreeInfo> {
    const commit = result.commit!;
    const worktree = await context.worktrees!.create({ base: result.base, baseDir: context.tree });
    const inTree = (args: string[]): Promise<string> => git(worktree.path, args);
    if (commit.pushed) {
      await inTree(['fetch', '--quiet', this.options.repoUrl, `refs/heads/${commit.branch}`]);
    } else {
      const dir = await mkdtemp(join(tmpdir(), 'seek-bundle-'));
      try {
        await writeFile(join(dir, 'job.bundle'), Buffer.from(commit.bundle ?? '', 'base64'));
        await inTree(['fetch', '--quiet', join(dir, 'job.bundle'), `refs/seek/bundle/${commit.branch}`]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    await inTree(['reset', '--quiet', '--hard', commit.sha]);
    return worktree;
  }

  /** A place among the run's `maxJobs` queued or running jobs; undefined when cancelled first. */
  private async slot(signal: AbortSignal): Promise<(() => void) | undefined> {
    const limit = this.options.maxJobs ?? Number.POSITIVE_INFINITY;
    while (this.active >= limit) {
      if (signal.aborted) return undefined;
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    if (signal.aborted) return undefined;
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.();
    };
  }
}

const ZERO: Spend = { costUsd: 0, prompt: 0, completion: 0, cacheHit: 0, modelCalls: 0 };

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
