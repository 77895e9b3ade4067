import { resolve, join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { seekHome } from '../../config/paths.js';

interface WorkerOptions {
  queue: string;
  concurrency: number;
  workdir?: string;
  rateLimit?: { max: number; durationMs: number };
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

function rate(value: string): { max: number; durationMs: number } {
  const match = /^(\d+)\/(\d+(?:\.\d+)?)s?$/.exec(value.trim());
  if (!match || Number(match[1]) < 1 || Number(match[2]) <= 0) throw new InvalidArgumentError('expected JOBS/SECONDS, e.g. 60/60');
  return { max: Number(match[1]), durationMs: Number(match[2]) * 1000 };
}

/**
 * `seek worker --queue redis://HOST:PORT [--concurrency N] [--workdir DIR] [--rate-limit N/S]`: a
 * long-running fleet worker (src/fleet/worker.ts). It uses this machine's provider credentials and
 * repository access; jobs carry none. SIGTERM or SIGINT stop taking jobs and let the running ones
 * finish, then it exits 0. Exit 1 when Redis cannot be reached (the message says how to start it).
 */
export function createWorkerCommand(): Command {
  return new Command('worker')
    .description('run fleet jobs from a Redis queue (seek run/batch --queue)')
    .requiredOption('--queue <url>', 'the Redis of the fleet: redis://[user:pass@]host:port, rediss:// for TLS')
    .option('--concurrency <n>', 'jobs at once on this worker', positiveInt, 1)
    .option('--workdir <dir>', 'repository mirrors and job checkouts (default: $SEEK_HOME/fleet-worker)')
    .option('--rate-limit <jobs/seconds>', 'jobs started per period across all workers of the queue (the provider rate limit)', rate)
    .action(async (options: WorkerOptions) => {
      process.exitCode = await runWorker(options);
    });
}

async function runWorker(options: WorkerOptions): Promise<number> {
  const { connectChecked, FleetError, redact } = await import('../../fleet/connection.js');
  const { startWorker } = await import('../../fleet/worker.js');
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
  const running = startWorker({
    url: options.queue,
    redis,
    concurrency: options.concurrency,
    workdir,
    env: process.env,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    log,
  });
  await Promise.all([running.worker.waitUntilReady(), running.listening]);
  log(`${running.name} ready on ${redact(options.queue)} (concurrency ${options.concurrency}, workdir ${workdir})`);
  await new Promise<void>((done) => {
    process.once('SIGTERM', () => done());
    process.once('SIGINT', () => done());
  });
  log('stopping: no new jobs; waiting for running ones');
  await running.close();
  await redis.quit().catch(() => undefined);
  log('stopped');
  return 0;
}
