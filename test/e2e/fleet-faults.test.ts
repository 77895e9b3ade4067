/**
 * Fleet faults and limits end to end (real redis-server, `seek worker` processes, scripted model):
 * a worker killed mid-task is replaced by another and its cost still counted; a job failing three
 * times is reported with every error; the dollar cap stops new jobs; a job of another seek
 * version is refused; an unreachable Redis says how to start one; a Redis restarted from its
 * append-only file loses nothing; the rate limit holds across workers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { runSeek } from '../support/seek-process.js';
import { startWorker, until } from '../support/fleet.js';
import { useFleet, view, write, hasRedis } from '../support/fleet-suite.js';

const fleet = useFleet();
const { workers, route, startWorkers, project, coordinatorEnv } = fleet;
const suite = fleet.suite;

describe.skipIf(!hasRedis)('fleet faults and limits', () => {
  it('retries on another worker when one is killed mid-task; the killed attempt\'s model call is still counted', async () => {
    await startWorkers(3);
    let hung = false;
    route((req) => {
      if (req.task !== 'e') return { text: 'unexpected' };
      if (req.turn === 0) return write('fixed.txt', 'fixed\n');
      if (!hung) {
        hung = true;
        return { hang: true }; // the first attempt never gets its second answer
      }
      return { text: 'wrote fixed.txt' };
    });
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Fix it\ntasks:\n  - {id: e, role: editor, task: Write fixed.txt}\n');
    const run = runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    await until('the first attempt to wait for its second answer', () => hung && suite.server.requests.filter((r) => view(r).task === 'e').length === 2);
    const queue = new Queue('seek-fleet', { connection: { host: '127.0.0.1', port: fleet.redis.port } });
    const [active] = await queue.getActive();
    const owner = String((active!.progress as { worker: string }).worker).split(':').pop();
    const victim = workers.find((worker) => String(worker.child.pid) === owner)!;
    await victim.stop('SIGKILL');
    const done = await run;
    await queue.close();
    expect(done.code).toBe(0);
    const task = JSON.parse(done.stdout).orchestrations[0].tasks[0];
    // Three model calls billed: the killed attempt's first, and the retry's two.
    expect(task).toMatchObject({ id: 'e', status: 'completed', model_calls: 3, usage: { input_tokens: 3000, output_tokens: 300 } });
    expect(readFileSync(join(root, 'fixed.txt'), 'utf8')).toBe('fixed\n');
    const finisher = workers.find((worker) => worker !== victim && /job \S+ completed/.test(worker.log()));
    expect(finisher).toBeDefined();
    expect(finisher!.log()).toMatch(/attempt 2: checking out/);
  }, 120_000);

  it('reports a job that failed three times with every attempt\'s error', async () => {
    await startWorkers(2);
    route(() => ({ httpError: { status: 400, message: 'the model refuses this task' } }));
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Fail\ntasks:\n  - {id: x, role: explorer, task: Look around}\n');
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('x explorer failed reason=job_failed');
    const line = run.stdout.split('\n').find((l) => l.includes('failed after 3 attempts'))!;
    expect(line).toBeDefined();
    for (const attempt of [1, 2, 3]) expect(line).toMatch(new RegExp(`attempt ${attempt} on [^|]*model_error`));
  }, 120_000);

  it('starts no new job once the dollar cap is reached', async () => {
    await startWorkers(1);
    route((req) => ({ text: `finding of ${req.task}` }));
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Three looks\ntasks:\n  - {id: a, role: explorer, task: Look one}\n  - {id: b, role: explorer, task: Look two}\n  - {id: c, role: explorer, task: Look three}\n');
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url, '--max-cost', '0.0000001'], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    expect(suite.server.requests.map((r) => view(r).task)).toEqual(['a']);
    const tasks = JSON.parse(run.stdout).orchestrations[0].tasks;
    expect(tasks.map((t: { status: string; reason?: string }) => [t.status, t.reason])).toEqual([['completed', undefined], ['failed', 'budget_exceeded'], ['skipped', undefined]]);
    expect(JSON.parse(run.stdout).result).toContain("the run's dollar cap is reached");
  }, 60_000);

  it('bounds a running job by what is left of the token cap: the child is told to wrap up, and the next job does not start', async () => {
    await startWorkers(1);
    route((req) => (req.turn === 0 ? { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } : { text: 'done' }));
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Tokens\ntasks:\n  - {id: x, role: explorer, task: Read the README}\n  - {id: y, role: explorer, task: Never}\n');
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--queue', fleet.redis.url, '--max-tokens', '1200'], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    const requests = suite.server.requests.map(view);
    expect(requests.map((r) => r.task)).toEqual(['x', 'x']); // y never started
    expect(JSON.stringify(suite.server.requests[1]!.body.messages)).toContain('of your 1200 token budget. Stop investigating');
    expect(run.stdout).toMatch(/^x explorer completed .*\ny explorer failed reason=budget_exceeded/m);
    expect(run.stdout).toContain("the run's token cap is reached (2200 tokens of 1200)");
  }, 60_000);

  it('refuses a job of another seek version with a clear message; an unreachable Redis says how to start one', async () => {
    await startWorkers(1);
    const queue = new Queue('seek-fleet', { connection: { host: '127.0.0.1', port: fleet.redis.port } });
    const job = await queue.add('x', {
      seekVersion: '0.0.1-old', runId: 'r', taskId: 'x', role: 'explorer', prompt: 'p', writes: false,
      repo: { url: '/nonexistent' }, resultBranch: 'b', mode: 'yolo', limits: { maxTurns: 5 },
    }, { attempts: 3 });
    const failed = await until('the job to fail', async () => ((await job.getState()) === 'failed' ? queue.getJob(job.id!) : undefined));
    await queue.close();
    expect(failed!.failedReason).toMatch(/made by seek 0\.0\.1-old and this worker runs seek \d+\.\d+\.\d+.*same seek version/);
    expect(failed!.attemptsMade).toBe(1); // refused, not retried
    const [worker] = workers.splice(0);
    expect(await worker!.stop('SIGTERM')).toBe(0); // a graceful stop
    expect(worker!.log()).toMatch(/stopping: no new jobs[^]*stopped\n$/);

    const closed = `redis://127.0.0.1:${fleet.redis.port + 1}`;
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: g\ntasks:\n  - {id: x, role: explorer, task: Look}\n');
    const run = await runSeek(['run', 'plan.yaml', '--queue', closed], { cwd: root, env: coordinatorEnv(home) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^seek: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ .*Start one with `redis-server --port \d+ --appendonly yes`/);
    const refused = await runSeek(['worker', '--queue', closed], { cwd: root, env: coordinatorEnv(home) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^seek: cannot reach Redis at .*Start one with `redis-server/);
    expect(suite.server.requests).toHaveLength(0);
  }, 60_000);

});

describe.skipIf(!hasRedis)('fleet durability and sharing', () => {
  it('loses nothing when Redis restarts from its append-only file while a job waits for a worker', async () => {
    await startWorkers(0);
    route((req) => ({ text: `finding of ${req.task}` }));
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Survive\ntasks:\n  - {id: a, role: explorer, task: Look one}\n  - {id: b, role: explorer, task: Look two}\n');
    const run = runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    const queue = new Queue('seek-fleet', { connection: { host: '127.0.0.1', port: fleet.redis.port } });
    await until('job a to wait in the queue', async () => (await queue.getWaiting()).some((job) => job.name === 'a'));
    await queue.close();
    await fleet.redis.restart(); // killed like a crash, started again from its append-only file
    await startWorkers(1);
    const done = await run;
    expect(done.code).toBe(0);
    expect(suite.server.requests.map((r) => view(r).task)).toEqual(['a', 'b']);
  }, 120_000);

  it('keeps at most --max-jobs of the run running at once, held by the workers', async () => {
    await startWorkers(3);
    route((req) => ({ text: `finding of ${req.task}`, delayMs: 200 }));
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: One at a time\ntasks:\n  - {id: a, role: explorer, task: One, depends_on: []}\n  - {id: b, role: explorer, task: Two, depends_on: []}\n  - {id: c, role: explorer, task: Three, depends_on: []}\n');
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--queue', fleet.redis.url, '--max-jobs', '1'], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const requests = [...suite.server.requests].sort((x, y) => x.receivedAt - y.receivedAt);
    expect(requests).toHaveLength(3);
    // Three idle workers, yet each job started only after the previous one was answered.
    for (let i = 1; i < 3; i++) expect(requests[i]!.receivedAt).toBeGreaterThanOrEqual(requests[i - 1]!.respondedAt!);
  }, 60_000);

  it('shares a rate limit across workers: jobs start no faster than the limit allows', async () => {
    await startWorkers(0);
    const limited = await Promise.all([1, 2].map(() => startWorker(fleet.redis.url, { DEEPSEEK_API_KEY: 'k', DEEPSEEK_BASE_URL: suite.server.url }, ['--rate-limit', '1/1', '--concurrency', '2'])));
    workers.push(...limited);
    route((req) => ({ text: `finding of ${req.task}` }));
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Limited\ntasks:\n  - {id: a, role: explorer, task: One, depends_on: []}\n  - {id: b, role: explorer, task: Two, depends_on: []}\n  - {id: c, role: explorer, task: Three, depends_on: []}\n');
    const since = Date.now();
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    expect(run.code).toBe(0);
    expect(suite.server.requests).toHaveLength(3);
    // What the limiter spaces is the jobs' starts (BullMQ's processedOn), not their first model
    // requests: a loaded machine can delay one job's request by most of a period after its start.
    const queue = new Queue('seek-fleet', { connection: { host: '127.0.0.1', port: fleet.redis.port } });
    const jobs = (await queue.getJobs(['completed'])).filter((job) => ['a', 'b', 'c'].includes(job.name) && !job.id!.includes('.needs.') && (job.processedOn ?? 0) >= since);
    await queue.close();
    const starts = jobs.map((job) => job.processedOn!).sort((x, y) => x - y);
    expect(starts).toHaveLength(3);
    // Four job slots, but one job a second across the queue: the third starts about two periods after the first.
    expect(starts[2]! - starts[0]!).toBeGreaterThanOrEqual(1500); // unlimited, all three start within a few ms
  }, 120_000);
});

