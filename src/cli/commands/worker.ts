import { resolve, join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { seekHome } from '../../config/paths.js';

interface WorkerOptions {
  queue: string;
  concurrency: number;
  workdir?: string;
  rateLimit?: { max: number; durationMs: number };
  providerRate?: { max: number; durationMs: number };
  providerConcurrency?: number;
  keepDays?: number;
  lockDuration?: number;
  stalledInterval?: number;
  maxStalled?: number;
  stopGrace?: number;
}

function seconds(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number of seconds above 0');
  return n;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

function days(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number of days, 0 or more');
  return n;
}

function rate(value: string): { max: number; durationMs: number } {
  const match = /^(\d+)\/(\d+(?:\.\d+)?)s?$/.exec(value.trim());
  if (!match || Number(match[1]) < 1 || Number(match[2]) <= 0) throw new InvalidArgumentError('expected COUNT/SECONDS, e.g. 60/60');
  return { max: Number(match[1]), durationMs: Number(match[2]) * 1000 };
}

/**
 * `seek worker --queue redis://HOST:PORT [--concurrency N] [--workdir DIR] [--rate-limit N/S]
 * [--provider-rate N/S] [--provider-concurrency N] [--keep-days D]`: a long-running fleet worker
 * (src/fleet/worker.ts). At start and between jobs it removes leftover checkouts, job transcripts
 * and unused mirrors older than D days (default 7; src/fleet/retention.ts). It uses this machine's provider credentials and
 * repository access; jobs carry none. SIGTERM or SIGINT stop taking jobs and give the running ones
 * `--stop-grace` seconds (default 5) to finish; then they are aborted (back to the queue) and the
 * connections force-closed, so it exits within about 10 s in every state, a Redis outage included
 * (exit 0). `--lock-duration`, `--stalled-interval` and `--max-stalled` set how soon a dead
 * worker's job is taken back (README, Fleet runs). Exit 1 when Redis cannot be reached at start
 * (the message says how to start it); a later outage is waited out, said in two lines.
 */
export function createWorkerCommand(): Command {
  return new Command('worker')
    .description('run fleet jobs from a Redis queue (seek run/batch --queue)')
    .requiredOption('--queue <url>', 'the Redis of the fleet: redis://[user:pass@]host:port, rediss:// for TLS')
    .option('--concurrency <n>', 'jobs at once on this worker', positiveInt, 1)
    .option('--workdir <dir>', 'repository mirrors and job checkouts (default: $SEEK_HOME/fleet-worker)')
    .option('--rate-limit <jobs/seconds>', 'jobs started per period across all workers of the queue', rate)
    .option('--provider-rate <requests/seconds>', 'model requests per period to each provider endpoint, across all workers (give every worker the same)', rate)
    .option('--provider-concurrency <n>', 'model requests in flight at once to each provider endpoint, across all workers', positiveInt)
    .option('--keep-days <days>', 'remove leftover checkouts, job transcripts and unused mirrors older than this (default 7)', days)
    .option('--lock-duration <seconds>', "a job's lock; a dead worker's job is taken back after it (default 15)", seconds)
    .option('--stalled-interval <seconds>', 'how often this worker looks for jobs of dead workers (default 5)', seconds)
    .option('--max-stalled <n>', 'times a job may lose its worker before it fails (default 3)', positiveInt)
    .option('--stop-grace <seconds>', 'on SIGTERM, how long running jobs may take to finish before they are aborted (default 5)', seconds)
    .action(async (options: WorkerOptions) => {
      process.exitCode = await runWorker(options);
    });
}

async function runWorker(options: WorkerOptions): Promise<number> {
  const { connectChecked, FleetError, redact } = await import('../../fleet/connection.js');
  const { startWorker, STOP_GRACE_MS } = await import('../../fleet/worker.js');
  const { ConnectionWatch, exitAfter, within } = await import('../../fleet/outage.js');
  let redis;
  try {
    redis = await connectChecked(options.queue);
  } catch (error) {
    if (!(error instanceof FleetError)) throw error;
    process.stderr.write(`seek: ${error.message}\n`);
    return 1;
  }
  const workdir = resolve(options.workdir ?? join(seekHome(process.env), 'fleet-worker'));
  const log = (line: string): void => void process.stderr.write(`seek worker: ${line}\n`);
  const watch = new ConnectionWatch(options.queue, log);
  watch.watch(redis);
  const running = startWorker({
    url: options.queue,
    redis,
    concurrency: options.concurrency,
    workdir,
    env: process.env,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(options.providerRate || options.providerConcurrency
      ? {
          providerLimit: {
            ...(options.providerRate ? { requests: { max: options.providerRate.max, windowMs: options.providerRate.durationMs } } : {}),
            ...(options.providerConcurrency ? { concurrent: options.providerConcurrency } : {}),
          },
        }
      : {}),
    ...(options.keepDays !== undefined ? { keepMs: options.keepDays * 24 * 3600_000 } : {}),
    timings: {
      ...(options.lockDuration ? { lockMs: options.lockDuration * 1000 } : {}),
      ...(options.stalledInterval ? { stalledMs: options.stalledInterval * 1000 } : {}),
      ...(options.maxStalled ? { maxStalled: options.maxStalled } : {}),
    },
    watch,
    log,
  });
  await Promise.all([running.worker.waitUntilReady(), running.listening]);
  log(`${running.name} ready on ${redact(options.queue)} (concurrency ${options.concurrency}, workdir ${workdir}, lock ${running.timings.lockMs / 1000} s, stalled check every ${running.timings.stalledMs / 1000} s)`);
  await new Promise<void>((done) => {
    process.once('SIGTERM', () => done());
    process.once('SIGINT', () => done());
  });
  const graceMs = options.stopGrace !== undefined ? options.stopGrace * 1000 : STOP_GRACE_MS;
  // Whatever still hangs: the contract is 10 s with the default grace (a longer grace moves it).
  const backstop = exitAfter(Math.max(10_000, graceMs + 5_000), log);
  log(`stopping: no new jobs; running ones get ${graceMs / 1000} s to finish`);
  const clean = await running.close(graceMs);
  if (!(await within(redis.quit(), 500))) redis.disconnect();
  log(clean ? 'stopped' : 'stopped (connections closed by force)');
  clearTimeout(backstop);
  return 0;
}
