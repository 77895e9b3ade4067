/**
 * `seek batch --plan`: the same plan run for every repository, its tasks on the fleet. Each
 * repository is cloned under the coordinator's workdir onto branch `seek/batch/<batch id>`, the
 * plan runs there as `seek run --queue` runs it (a session of its own, editors' commits merged in
 * plan order), and the branch is pushed back to the repository; the clone is then removed (one
 * whose plan failed or whose push was refused stays, and the report says where). Spend and caps
 * count for the whole batch. Rows report each repository's plan as it runs and ends.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskSpec } from '../orchestrator/types.js';
import { openSession } from '../runtime/session.js';
import type { BatchReport, BatchRow } from './batch.js';
import { FleetDispatcher } from './dispatcher.js';
import { git, tryGit } from './git.js';
import type { FleetJobs } from './jobs.js';
import type { FleetJob } from './payload.js';

export interface BatchPlanOptions {
  jobs: FleetJobs;
  repos: readonly string[];
  plan: { source: string; goal: string; tasks: TaskSpec[] };
  mode: FleetJob['mode'];
  maxTurns: number;
  limits: { costCapUsd?: number; tokenCap?: number };
  /** At most this many of the batch's jobs running at once. */
  maxJobs?: number;
  /** Where the repositories are cloned (one directory per batch). */
  workdir: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  onUpdate: (rows: readonly BatchRow[]) => void;
}

export async function runBatchPlans(options: BatchPlanOptions, batchId: string): Promise<BatchReport> {
  const branch = `seek/batch/${batchId}`;
  const rows: BatchRow[] = options.repos.map((repo, index) => ({ index, repo, jobId: `plan-${index + 1}`, state: 'queued', costUsd: 0, tokens: { prompt: 0, completion: 0, cacheHit: 0 } }));
  const update = (): void => options.onUpdate(rows);
  update();
  await Promise.all(rows.map((row) => runRow(row)));
  const done = rows.filter((row) => row.state === 'completed').length;
  const status = options.signal.aborted ? 'canceled' : done === rows.length ? 'completed' : done === 0 ? 'failed' : 'partial';
  return { batchId, status, rows };

  async function runRow(row: BatchRow): Promise<void> {
    const dir = join(options.workdir, batchId, `repo-${row.index + 1}`);
    try {
      await mkdir(join(options.workdir, batchId), { recursive: true });
      await git(options.workdir, ['clone', '--quiet', row.repo, dir]);
      await git(dir, ['checkout', '--quiet', '-b', branch]);
      const dispatcher = new FleetDispatcher({ jobs: options.jobs, repoUrl: row.repo, mode: options.mode, maxTurns: options.maxTurns, limits: options.limits, runGroup: `batch.${batchId}`, ...(options.maxJobs ? { maxJobs: options.maxJobs } : {}) });
      const session = await openSession({
        cwd: dir,
        env: options.env,
        interactive: false,
        maxTurns: options.maxTurns,
        dispatch: dispatcher,
        ...(options.mode === 'yolo' ? { yolo: true } : options.mode === 'auto' ? { auto: true } : {}),
      });
      dispatcher.sessionId = session.id;
      Object.assign(row, { state: 'running', worker: `plan in ${dir}` });
      update();
      try {
        const summary = await session.runPlan(options.plan, options.signal);
        Object.assign(row, {
          costUsd: summary.costUsd,
          tokens: { prompt: summary.usage.inputTokens, completion: summary.usage.outputTokens, cacheHit: summary.usage.cacheReadTokens },
          summary: summary.finalText,
        });
        if (summary.reason !== 'completed') {
          Object.assign(row, { state: 'failed', errors: [`${summary.errorMessage ?? summary.reason} (the clone stays in ${dir})`] });
          return;
        }
      } finally {
        await session.close({ keepBackgroundJobs: true }).catch(() => undefined); // other plans of the batch run beside it
      }
      const sha = (await git(dir, ['rev-parse', 'HEAD'])).trim();
      const push = await tryGit(dir, ['push', '--quiet', '--force', 'origin', `HEAD:refs/heads/${branch}`]);
      Object.assign(row, { state: 'completed', branch, commit: sha, pushed: push.code === 0 });
      if (push.code !== 0) row.pushError = `${push.stderr.trim().split('\n').at(-1) ?? 'push failed'} (the work is on ${branch} in ${dir})`;
      else await rm(dir, { recursive: true, force: true }); // pushed: the clone has served (a failed one stays to look at)
    } catch (error) {
      Object.assign(row, { state: 'failed', errors: [(error as Error).message] });
    } finally {
      update();
    }
  }
}
