/**
 * Fleet figures (`npm run bench:fleet`): a real redis-server, real `seek worker` processes and the
 * scripted model server (answers at once), one local bare repository as every job's repository.
 *  - queue overhead: with one idle worker, SAMPLES jobs one after another; the median of enqueue →
 *    taken by the worker (BullMQ's own timestamps) and of enqueue → the job's first model request
 *    (checkout and session start included);
 *  - throughput: TASKS trivial explorer tasks (one model request each) through `seek batch` on 1, 2
 *    and 4 workers (each `--concurrency 4`, the local subagent limit), against the same tasks run
 *    in-process by one session (plans of 20 independent tasks, `subagents.max_concurrent` 4).
 * Prints the figures and the ratios; asserts nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { QUEUE_NAME } from '../src/fleet/connection.js';
import type { FleetJob } from '../src/fleet/payload.js';
import { openSession } from '../src/runtime/session.js';
import { SEEK_VERSION } from '../src/util/version.js';
import { makeRepository, startWorker, type WorkerProcess } from '../test/support/fleet.js';
import { startRedis } from '../test/support/redis-server.js';
import { ScriptedServer } from '../test/support/scripted-server/index.js';
import { runSeek } from '../test/support/seek-process.js';
import { tempDir } from '../test/support/temp-dirs.js';

const TASKS = Number(process.env.FLEET_BENCH_TASKS ?? 200);
const SAMPLES = 15;
const PER_PLAN = 20;

const server = await ScriptedServer.start();
server.setFallback(() => ({ text: 'ok', usage: { input: 100, output: 10 } }));
const redis = await startRedis();
const { bare, clone } = makeRepository();
const workerEnv = { DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url };
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const connection = { host: '127.0.0.1', port: redis.port };

async function withWorkers<T>(count: number, concurrency: number, body: () => Promise<T>): Promise<T> {
  const workers: WorkerProcess[] = await Promise.all(Array.from({ length: count }, () => startWorker(redis.url, workerEnv, ['--concurrency', String(concurrency)])));
  try {
    return await body();
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

async function queueOverhead(): Promise<{ pickup: number; firstRequest: number }> {
  const queue = new Queue(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection });
  await events.waitUntilReady();
  const pickup: number[] = [];
  const firstRequest: number[] = [];
  await withWorkers(1, 1, async () => {
    for (let i = 0; i < SAMPLES + 2; i++) {
      const data: FleetJob = {
        seekVersion: SEEK_VERSION, runId: 'bench-latency', taskId: `l${i}`, role: 'explorer', prompt: `## Your task (l${i}, explorer)\nSay ok`,
        writes: false, repo: { url: bare }, resultBranch: 'unused', mode: 'yolo', limits: { maxTurns: 3 },
      };
      server.reset();
      const job = await queue.add(`l${i}`, data, { jobId: `bench-latency.${Date.now()}.${i}` });
      await job.waitUntilFinished(events);
      const done = (await queue.getJob(job.id!))!;
      if (i < 2) continue; // warm-up: the first job clones the mirror
      pickup.push(done.processedOn! - done.timestamp);
      firstRequest.push(server.requests[0]!.receivedAt - done.timestamp);
    }
  });
  await events.close();
  await queue.close();
  return { pickup: median(pickup), firstRequest: median(firstRequest) };
}

async function inProcess(): Promise<number> {
  const home = tempDir('seek-bench-home-');
  const session = await openSession({ cwd: clone, env: { SEEK_HOME: home, ...workerEnv }, interactive: false, yolo: true, maxTurns: 10, save: false });
  const started = performance.now();
  for (let first = 0; first < TASKS; first += PER_PLAN) {
    const tasks = Array.from({ length: Math.min(PER_PLAN, TASKS - first) }, (_, i) => ({ id: `t${first + i + 1}`, role: 'explorer', task: 'Say ok', depends_on: [] }));
    const summary = await session.runPlan({ source: 'bench', goal: 'bench', tasks });
    if (summary.reason !== 'completed') throw new Error(`in-process plan ended ${summary.reason}`);
  }
  const ms = performance.now() - started;
  await session.close();
  return ms;
}

async function fleet(workers: number): Promise<number> {
  const list = join(tempDir('seek-bench-batch-'), 'repos.txt');
  writeFileSync(list, `${Array.from({ length: TASKS }, () => bare).join('\n')}\n`);
  const home = tempDir('seek-bench-home-');
  return withWorkers(workers, 4, async () => {
    const started = performance.now();
    const run = await runSeek(['batch', '--queue', redis.url, '--repos', list, '--prompt', 'Say ok', '--role', 'explorer', '--yolo'], { cwd: home, env: { SEEK_HOME: home, ...workerEnv }, timeoutMs: 30 * 60_000 });
    if (run.code !== 0) throw new Error(`batch on ${workers} workers failed:\n${run.stderr.slice(-2000)}`);
    return performance.now() - started;
  });
}

const overhead = await queueOverhead();
console.log(`queue overhead (1 idle worker, median of ${SAMPLES}): enqueue → taken ${overhead.pickup.toFixed(0)} ms; enqueue → first model request ${overhead.firstRequest.toFixed(0)} ms`);
const local = await inProcess();
console.log(`in-process: ${TASKS} tasks in ${(local / 1000).toFixed(1)} s (${((TASKS * 1000) / local).toFixed(1)} tasks/s)`);
for (const count of [1, 2, 4]) {
  const ms = await fleet(count);
  console.log(`fleet, ${count} worker${count === 1 ? '' : 's'} × 4: ${TASKS} tasks in ${(ms / 1000).toFixed(1)} s (${((TASKS * 1000) / ms).toFixed(1)} tasks/s), throughput ${(local / ms).toFixed(2)}× in-process`);
}
await redis.stop();
await server.close();
