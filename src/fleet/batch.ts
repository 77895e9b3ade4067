/**
 * `seek batch`: one job per repository, all in one run (shared caps), each the same task
 * prompt in its role, starting at the repository's default branch; an editor's result is a
 * commit on `seek/batch/<batch id>` pushed to that repository (or a bundle in the report).
 * Rows report progress as jobs are queued, taken by a worker, and end.
 */
import { randomBytes } from 'node:crypto';
import { taskPrompt } from '../orchestrator/prompts.js';
import type { Role } from '../orchestrator/roles.js';
import { SEEK_VERSION } from '../util/version.js';
import { cancelAndWait } from './cancel.js';
import type { FleetJobs } from './jobs.js';
import { jobIdOf, type FleetJob } from './payload.js';
import { jobSpend } from './spend.js';
import type { JobProgressInfo } from './worker.js';

export type RowState = 'queued' | 'running' | 'completed' | 'failed' | 'capped' | 'canceled';

export interface BatchRow {
  index: number;
  repo: string;
  jobId: string;
  state: RowState;
  worker?: string;
  attempts?: number;
  costUsd: number;
  /** False once a model without a known price billed part of it (spend.ts `unpriced`). */
  costKnown?: boolean;
  tokens: { prompt: number; completion: number; cacheHit: number };
  branch?: string;
  commit?: string;
  pushed?: boolean;
  pushError?: string;
  bundleBase64?: string;
  summary?: string;
  errors?: string[];
}

export interface BatchOptions {
  jobs: FleetJobs;
  repos: readonly string[];
  task: string;
  role: Role;
  mode: FleetJob['mode'];
  maxTurns: number;
  limits: { costCapUsd?: number; tokenCap?: number };
  signal: AbortSignal;
  /** Called whenever a row changes (state, worker, cost so far). */
  onUpdate: (rows: readonly BatchRow[]) => void;
  /** How often the cost of running jobs is read from Redis (default 500 ms). */
  refreshMs?: number;
}

export interface BatchReport {
  batchId: string;
  status: 'completed' | 'partial' | 'failed' | 'canceled';
  rows: BatchRow[];
}

export function newBatchId(now = new Date()): string {
  return `${now.toISOString().replace(/\D/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`;
}

export async function runBatch(options: BatchOptions, batchId = newBatchId()): Promise<BatchReport> {
  const { jobs, role } = options;
  const runId = `batch.${batchId}`;
  const rows: BatchRow[] = options.repos.map((repo, index) => ({
    index,
    repo,
    jobId: jobIdOf(runId, `r${index + 1}`),
    state: 'queued',
    costUsd: 0,
    tokens: { prompt: 0, completion: 0, cacheHit: 0 },
  }));
  const byJob = new Map(rows.map((row) => [row.jobId, row]));
  const update = (): void => options.onUpdate(rows);
  const onProgress = ({ jobId, data }: { jobId: string; data: unknown }): void => {
    const row = byJob.get(jobId);
    const info = data as Partial<JobProgressInfo> | undefined;
    if (!row || (row.state !== 'queued' && row.state !== 'running') || typeof info?.worker !== 'string') return;
    Object.assign(row, { state: 'running', worker: info.worker, attempts: info.attempt });
    update();
  };
  jobs.events.on('progress', onProgress);
  const refresh = setInterval(() => {
    void Promise.all(
      rows.filter((row) => row.state === 'running').map(async (row) => {
        const spend = await jobSpend(jobs.redis, row.jobId);
        if (spend.costUsd === row.costUsd && spend.prompt === row.tokens.prompt) return false;
        Object.assign(row, { costUsd: spend.costUsd, ...(spend.unpriced > 0 ? { costKnown: false } : {}), tokens: { prompt: spend.prompt, completion: spend.completion, cacheHit: spend.cacheHit } });
        return true;
      }),
    ).then((changed) => changed.some(Boolean) && update(), () => undefined);
  }, options.refreshMs ?? 500);
  update();
  try {
    await Promise.all(rows.map((row) => runRow(row)));
    if (options.signal.aborted) {
      // Cancelled: the batch's jobs are stopped across the fleet; what the stopped ones spent counts.
      await cancelAndWait(jobs, runId, rows.map((row) => row.jobId));
      await Promise.all(rows.filter((row) => row.state === 'canceled').map(async (row) => {
        const spend = await jobSpend(jobs.redis, row.jobId).catch(() => undefined);
        if (spend) Object.assign(row, { costUsd: spend.costUsd, ...(spend.unpriced > 0 ? { costKnown: false } : {}), tokens: { prompt: spend.prompt, completion: spend.completion, cacheHit: spend.cacheHit } });
      }));
      update();
    }
  } finally {
    clearInterval(refresh);
    jobs.events.off('progress', onProgress);
  }
  const done = rows.filter((row) => row.state === 'completed').length;
  const status = options.signal.aborted ? 'canceled' : done === rows.length ? 'completed' : done === 0 ? 'failed' : 'partial';
  return { batchId, status, rows };

  async function runRow(row: BatchRow): Promise<void> {
    const id = `r${row.index + 1}`;
    const data = async (): Promise<FleetJob> => ({
      seekVersion: SEEK_VERSION,
      runId,
      taskId: id,
      role: role.name,
      prompt: taskPrompt({ task: { id, index: row.index, task: options.task, role: role.name, kind: role.kind, reviews: role.reviews, dependsOn: [] }, inputs: [] }),
      writes: role.kind === 'writer',
      repo: { url: row.repo },
      resultBranch: `seek/batch/${batchId}`,
      mode: options.mode,
      limits: { maxTurns: options.maxTurns, ...options.limits },
    });
    try {
      const outcome = await jobs.run(row.jobId, runId, data, options.signal);
      if (outcome.kind === 'capped') Object.assign(row, { state: 'capped', errors: [outcome.why] });
      else if (outcome.kind === 'canceled') row.state = 'canceled';
      else {
        const { spend } = outcome;
        Object.assign(row, { attempts: outcome.attempts, costUsd: spend.costUsd, ...(spend.unpriced > 0 ? { costKnown: false } : {}), tokens: { prompt: spend.prompt, completion: spend.completion, cacheHit: spend.cacheHit } });
        if (outcome.kind === 'failed') Object.assign(row, { state: 'failed', errors: outcome.errors });
        else {
          const { result } = outcome;
          Object.assign(row, { state: 'completed', worker: result.worker, ...(result.summary !== undefined ? { summary: result.summary } : {}) });
          if (result.commit) {
            Object.assign(row, { branch: result.commit.branch, commit: result.commit.sha, pushed: result.commit.pushed });
            if (result.commit.pushError) row.pushError = result.commit.pushError;
            if (result.commit.bundle) row.bundleBase64 = result.commit.bundle;
          }
        }
      }
    } catch (error) {
      Object.assign(row, { state: 'failed', errors: [`could not queue the job: ${(error as Error).message}`] });
    }
    update();
  }
}
