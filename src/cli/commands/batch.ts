import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { findProjectRoot, seekHome } from '../../config/paths.js';
import { checkPlanFile, PlanFileError, readPlanFile } from '../../orchestrator/plan-file.js';
import { roleCatalog } from '../../orchestrator/roles.js';
import type { TaskSpec } from '../../orchestrator/types.js';
import { loadSubagentTypes } from '../../subagents/definitions.js';
import { batchProgress, batchReportObject } from '../../frontends/batch-progress.js';

interface BatchOptions {
  queue: string;
  repos: string;
  prompt?: string;
  plan?: string;
  role: string;
  yolo?: boolean;
  auto?: boolean;
  maxTurns: number;
  maxJobs?: number;
  maxCost?: number;
  maxTokens?: number;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}

/**
 * `seek batch --queue URL --repos FILE --prompt TEXT`: one fleet job per repository listed in FILE
 * (one URL or path a line; blank lines and `#` comments skipped), each the same task in `--role`
 * (default editor) at the repository's default branch; an editor's changes become a commit on
 * `seek/batch/<id>` pushed to that repository. With `--plan PLAN.yaml` instead, every repository
 * gets the plan: cloned under $SEEK_HOME/fleet-batch, its tasks run on the workers, and the
 * resulting branch `seek/batch/<id>` is pushed back. Progress goes to stderr (a live table in a
 * terminal, a line per change otherwise); the JSON report goes to stdout at the end. Exit 0 when
 * every job completed, 1 otherwise or when Redis cannot be reached, 2 for bad usage.
 */
export function createBatchCommand(): Command {
  return new Command('batch')
    .description('run one fleet job per repository (seek worker processes do the work)')
    .requiredOption('--queue <url>', 'the Redis of the fleet: redis://[user:pass@]host:port, rediss:// for TLS')
    .requiredOption('--repos <file>', 'repositories, one URL or path a line')
    .option('--prompt <text>', 'the task every repository gets')
    .option('--plan <file>', 'the plan every repository gets (its tasks run on the workers; the result is the branch)')
    .option('--role <role>', 'with --prompt: the role the task runs in', 'editor')
    .option('--yolo', 'the jobs allow every action without asking')
    .option('--auto', 'the jobs edit and run sandboxed commands inside their checkout without asking')
    .option('--max-turns <n>', 'turn budget of each job', (v) => Math.ceil(positive(v)), 200)
    .option('--max-jobs <n>', 'at most this many jobs queued or running at once', (v) => Math.ceil(positive(v)))
    .option('--max-cost <usd>', 'no new job starts once the batch has spent this many dollars', positive)
    .option('--max-tokens <n>', 'no new job starts once the batch has used this many tokens', (v) => Math.ceil(positive(v)))
    .action(async (options: BatchOptions) => {
      process.exitCode = await runBatchCommand(options);
    });
}

async function runBatchCommand(options: BatchOptions): Promise<number> {
  const fail = (text: string, code = 1): number => (process.stderr.write(`seek: ${text}\n`), code);
  if (options.plan && options.prompt) return fail('batch takes --prompt TEXT or --plan PLAN.yaml, not both', 2);
  if (!options.plan && !options.prompt?.trim()) return fail('batch needs the task: --prompt TEXT or --plan PLAN.yaml', 2);
  let repos: string[];
  try {
    repos = (await readFile(options.repos, 'utf8')).split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  } catch (error) {
    return fail(`cannot read ${options.repos}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (repos.length === 0) return fail(`${options.repos} lists no repository`, 2);
  const projectRoot = findProjectRoot(process.cwd());
  const { types } = await loadSubagentTypes({ projectRoot, seekHome: seekHome(process.env), ...(process.env.HOME ? { home: process.env.HOME } : {}) });
  const catalog = roleCatalog(types);
  const role = catalog.resolve(options.role);
  if (!role) return fail(`unknown role "${options.role}" (roles: ${catalog.names.join(', ')})`, 2);
  let plan: { source: string; goal: string; tasks: TaskSpec[] } | undefined;
  if (options.plan) {
    try {
      const file = await readPlanFile(options.plan);
      checkPlanFile(file, catalog.resolve, catalog.names);
      plan = { source: options.plan, goal: file.goal, tasks: file.tasks };
    } catch (error) {
      if (!(error instanceof PlanFileError)) throw error;
      return fail(error.problems.join('\nseek: '));
    }
  }

  const { connectChecked, FleetError } = await import('../../fleet/connection.js');
  const { FleetJobs } = await import('../../fleet/jobs.js');
  const { exitAfter, within } = await import('../../fleet/outage.js');
  const { runBatch, newBatchId } = await import('../../fleet/batch.js');
  const { runBatchPlans } = await import('../../fleet/batch-plans.js');
  let redis;
  try {
    redis = await connectChecked(options.queue);
  } catch (error) {
    if (error instanceof FleetError) return fail(error.message);
    throw error;
  }
  const limits = { ...(options.maxCost ? { costCapUsd: options.maxCost } : {}), ...(options.maxTokens ? { tokenCap: options.maxTokens } : {}) };
  const jobs = new FleetJobs({ url: options.queue, redis, limits, ...(options.maxJobs ? { maxJobs: options.maxJobs } : {}), env: process.env });
  const controller = new AbortController();
  const onSignal = (): void => {
    controller.abort();
    exitAfter(10_000, (line) => void process.stderr.write(`seek: ${line}\n`)); // within 10 s, an outage included
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const batchId = newBatchId();
  const table = batchProgress((text) => void process.stderr.write(text), batchId, Boolean(process.stderr.isTTY));
  try {
    await jobs.ready();
    const mode = options.yolo ? 'yolo' : options.auto ? 'auto' : 'ask';
    const common = { jobs, repos, mode, maxTurns: options.maxTurns, limits, signal: controller.signal, onUpdate: table } as const;
    const report = plan
      ? await runBatchPlans({ ...common, plan, workdir: join(seekHome(process.env), 'fleet-batch'), env: process.env, ...(options.maxJobs ? { maxJobs: options.maxJobs } : {}) }, batchId)
      : await runBatch({ ...common, task: options.prompt!, role }, batchId);
    const capStops = await jobs.capReports();
    for (const line of capStops) process.stderr.write(`seek: ${line}\n`);
    process.stdout.write(`${JSON.stringify({ ...batchReportObject(report), ...(capStops.length > 0 ? { cap_stopped: capStops.join('; ') } : {}) }, null, 2)}\n`);
    return report.status === 'completed' ? 0 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await jobs.close();
    if (!(await within(redis.quit(), jobs.patience(1_000)))) redis.disconnect();
  }
}
