/**
 * A fleet under faults, end to end (real redis-server with its append-only file, `seek worker`
 * processes, scripted model): Redis stopped mid-task and restarted after the job's lock expired
 * (one lost and one back line per process, no stack trace, the attempt that lost its lock
 * publishes nothing, both attempts' model calls counted); SIGTERM during an outage ends workers and
 * the coordinator; a SIGKILLed worker's job is taken back by another within 40 s with the default
 * lock settings; a model without a price makes the run's cost unknown.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { runSeek } from '../support/seek-process.js';
import { FAST_FLEET, startWorker, until, type WorkerProcess } from '../support/fleet.js';
import { useFleet, view, write, hasRedis, USAGE } from '../support/fleet-suite.js';

const fleet = useFleet();
const { workers, route, startWorkers, project, coordinatorEnv } = fleet;
const suite = fleet.suite;
const workerEnv = (): Record<string, string> => ({ DEEPSEEK_API_KEY: 'k', DEEPSEEK_BASE_URL: suite.server.url, SEEK_RETRY_BASE_MS: '1' });
const ONE_EDITOR = 'goal: Fix it\ntasks:\n  - {id: e, role: editor, task: Write fixed.txt}\n';

const count = (text: string, pattern: RegExp): number => (text.match(new RegExp(pattern.source, 'g')) ?? []).length;
/** What a process printed during an outage: exactly one line each way, no stack trace, no raw error. */
function expectCleanOutage(log: string, who: string): void {
  expect(count(log, /lost the connection to Redis/), `${who}:\n${log}`).toBe(1);
  expect(count(log, /the connection to Redis at \S+ is back/), `${who}:\n${log}`).toBe(1);
  expect(log, who).not.toMatch(/^\s+at /m);
  expect(log, who).not.toMatch(/ECONNREFUSED|Missing lock|could not renew/);
}

describe.skipIf(!hasRedis)('fleet under Redis outages', () => {
  it('Redis stopped mid-task and restarted from its append-only file: the attempt that lost its lock publishes nothing, both attempts are billed, each process says lost and back once', async () => {
    await startWorkers(2);
    const answers: Array<() => void> = [];
    let attempts = 0;
    suite.server.setFallback(async (request) => {
      const req = view(request);
      if (req.task !== 'e') return { usage: USAGE, text: 'unexpected' };
      if (req.turn === 0) return { usage: USAGE, ...write('fixed.txt', `attempt ${++attempts}\n`) };
      await new Promise<void>((resolve) => answers.push(resolve)); // each second answer waits for the test
      return { usage: USAGE, text: 'wrote fixed.txt' };
    });
    const { root, home, bare } = project();
    writeFileSync(join(root, 'plan.yaml'), ONE_EDITOR);
    const run = runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 150_000 });
    await until('attempt 1 to wait for its second answer', () => answers.length === 1);
    const owner = workers.find((worker) => /attempt 1: checking out/.test(worker.log()))!;
    expect(owner).toBeDefined();

    await fleet.redis.stop();
    const stoppedAt = Date.now();
    // Attempt 1's model answers during the outage: its task ends, and it must now publish.
    answers[0]!();
    await until('attempt 1 to get its answer', () => suite.server.requests.filter((r) => view(r).turn === 1)[0]?.respondedAt !== undefined);
    // The outage outlasts the job's lock (FAST_FLEET: 1.5 s), so the lock is gone when Redis is back.
    const lockMs = Number(FAST_FLEET.SEEK_FLEET_LOCK_MS);
    await until('the lock to have expired', () => Date.now() > stoppedAt + lockMs + 500);
    await fleet.redis.restart();

    await until('attempt 2 to wait for its second answer', () => answers.length === 2, 60_000);
    answers[1]!();
    const done = await run;
    expect(done.code, done.stderr).toBe(0);
    // Attempt 1's content never reached the job repository: no commit, no branch, not even its blob.
    const blob = execFileSync('git', ['hash-object', '--stdin'], { input: 'attempt 1\n', encoding: 'utf8' }).trim();
    expect(() => execFileSync('git', ['cat-file', '-e', blob], { cwd: bare, stdio: 'ignore' }), 'attempt 1 was pushed').toThrow();
    await owner.waitFor(/job \S+ attempt 1 lost its lock/);
    const task = JSON.parse(done.stdout).orchestrations[0].tasks[0];
    // Both attempts billed: attempt 2's two calls and attempt 1's first, which ended before the
    // outage. Attempt 1's second call is billed too (4 calls) when its worker read the answer before
    // the lost lock aborted the attempt; under load the abort can cut that stream first, and a cut
    // response's usage is never known (3 calls). Every counted call is whole: 1000/100 tokens each.
    expect(task).toMatchObject({ id: 'e', status: 'completed' });
    expect(task.model_calls).toBeGreaterThanOrEqual(3);
    expect(task.usage).toMatchObject({ input_tokens: 1000 * task.model_calls, output_tokens: 100 * task.model_calls });
    expect(readFileSync(join(root, 'fixed.txt'), 'utf8')).toBe('attempt 2\n');
    const branches = execFileSync('git', ['for-each-ref', '--format=%(refname)', 'refs/heads/seek/'], { cwd: bare, encoding: 'utf8' }).trim().split('\n');
    expect(branches).toHaveLength(1);
    expect(count(owner.log(), /lost its lock/)).toBe(1);
    expect(workers.some((worker) => /attempt 2: checking out[^]*job \S+ completed/.test(worker.log()))).toBe(true);
    for (const [index, worker] of workers.entries()) expectCleanOutage(worker.log(), `worker ${index}`);
    expectCleanOutage(done.stderr, 'coordinator');
  }, 180_000);

  it('SIGTERM during an outage ends a busy worker, an idle worker and the coordinator', async () => {
    await startWorkers(2);
    route((req) => (req.task === 'x' ? { hang: true } : { text: 'unexpected' }));
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Hang\ntasks:\n  - {id: x, role: explorer, task: Look}\n');
    let coordinator: ChildProcess | undefined;
    const run = runSeek(['run', 'plan.yaml', '--yolo', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 120_000, onSpawn: (child) => (coordinator = child) });
    await until('the job to run', () => suite.server.requests.length === 1);
    await fleet.redis.stop();
    await Promise.all(workers.map((worker) => worker.waitFor(/lost the connection to Redis/)));
    const stopped: WorkerProcess[] = workers.splice(0);
    const signalledAt = Date.now();
    const exits = stopped.map(async (worker) => ({ code: await worker.stop('SIGTERM'), ms: Date.now() - signalledAt }));
    coordinator!.kill('SIGTERM');
    const done = await run;
    const coordinatorMs = Date.now() - signalledAt;
    const workerExits = await Promise.all(exits);
    // Exited by itself (generous bounds: the contract is 10 s, this machine may be loaded).
    expect(workerExits.map((exit) => exit.code)).toEqual([0, 0]);
    expect(done.signal).toBeNull();
    expect(done.code).toBe(1);
    for (const exit of workerExits) expect(exit.ms).toBeLessThan(30_000);
    expect(coordinatorMs).toBeLessThan(30_000);
    console.log(`SIGTERM during an outage: workers exited after ${workerExits.map((exit) => exit.ms).join(' and ')} ms, the coordinator after ${coordinatorMs} ms`);
    expect(stopped.map((worker) => worker.log()).join('')).toMatch(/stopping now: aborting 1 running job/);
    expect(done.stderr).not.toMatch(/^\s+at /m);
    expect(done.stderr).not.toMatch(/still stopping after/); // each step was bounded: the last resort was not needed
    await fleet.redis.restart();
    // The interrupted job is no business of the next tests.
    const queue = new Queue('seek-fleet', { connection: { host: '127.0.0.1', port: fleet.redis.port } });
    await queue.obliterate({ force: true });
    await queue.close();
  }, 150_000);
});

describe.skipIf(!hasRedis)('fleet recovery and cost with default settings', () => {
  it("takes a SIGKILLed worker's job back on another worker within 40 s with the default lock settings", async () => {
    await startWorkers(0);
    const defaults = { ...workerEnv(), SEEK_FLEET_LOCK_MS: '', SEEK_FLEET_STALLED_MS: '' }; // the defaults, not FAST_FLEET
    workers.push(...(await Promise.all([1, 2].map(() => startWorker(fleet.redis.url, defaults)))));
    let hung = false;
    route((req) => {
      if (req.turn === 0) return write('fixed.txt', 'fixed\n');
      if (!hung) {
        hung = true;
        return { hang: true };
      }
      return { text: 'wrote fixed.txt' };
    });
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), ONE_EDITOR);
    const run = runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    await until('the first attempt to wait for its second answer', () => hung && suite.server.requests.length === 2);
    const queue = new Queue('seek-fleet', { connection: { host: '127.0.0.1', port: fleet.redis.port } });
    const active = (await queue.getActive()).find((job) => job.name === 'e');
    await queue.close();
    const owner = String((active!.progress as { worker: string }).worker).split(':').pop();
    const victim = workers.find((worker) => String(worker.child.pid) === owner)!;
    await victim.stop('SIGKILL');
    const killedAt = Date.now();
    const done = await run;
    expect(done.code, done.stderr).toBe(0);
    const retriedAt = suite.server.requests[2]!.receivedAt;
    console.log(`a SIGKILLed worker's job was retried ${Math.round(retriedAt - killedAt)} ms after the kill (defaults: lock 15 s, stalled check 5 s)`);
    expect(retriedAt - killedAt).toBeLessThan(40_000);
    expect(workers.find((worker) => worker !== victim)!.log()).toMatch(/attempt 2: checking out[^]*completed/);
  }, 120_000);

  it('reports the cost as unknown (total_cost_usd null, cost_known false) when the workers\' model has no price', async () => {
    await startWorkers(0);
    workers.push(await startWorker(fleet.redis.url, { ...workerEnv(), SEEK_MODEL: 'no-price-model-7b' }));
    route(() => ({ text: 'looked' }));
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Look\ntasks:\n  - {id: x, role: explorer, task: Look}\n');
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ total_cost_usd: null, cost_known: false });
    expect(result.orchestrations[0].tasks[0]).toMatchObject({ id: 'x', status: 'completed', total_cost_usd: null, cost_known: false });
  }, 60_000);
});
