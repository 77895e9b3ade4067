/**
 * Fleet limits end to end (real redis-server, `seek worker` processes, the scripted model): the
 * run's dollar cap, counted over every worker, gives every running job the wrap-up notice on its
 * next request and stops one that goes on; no new job starts; the run reports by how much the cap
 * was exceeded. A provider rate limit holds for every model request across workers, and a 429
 * pauses every worker's requests to that provider.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/scripted-server/index.js';
import { runSeek } from '../support/seek-process.js';
import { makeRepository, startWorker, until } from '../support/fleet.js';
import { USAGE, useFleet, view, hasRedis } from '../support/fleet-suite.js';
import { tempDir } from '../support/temp-dirs.js';

const fleet = useFleet();
const { workers, startWorkers, project, coordinatorEnv } = fleet;
const suite = fleet.suite;

/** What one scripted request costs with deepseek-v4-flash's prices (USAGE: 1000 in, 600 of them cached, 100 out). */
const REQUEST_USD = ((USAGE.input - USAGE.cacheRead) * 0.14 + USAGE.cacheRead * 0.0028 + USAGE.output * 0.28) / 1e6;
const NOTICE = 'cap of this fleet run is reached';
const noticed = (request: RecordedRequest): boolean => JSON.stringify(request.body.messages).includes(NOTICE);

describe.skipIf(!hasRedis)('fleet run caps', () => {
  it('tells every running job to wrap up once the run reaches its dollar cap, stops one that goes on, starts no new job and reports the overshoot', async () => {
    await startWorkers(2);
    const requestsOf = (task: string): RecordedRequest[] => suite.server.requests.filter((r) => view(r).task === task);
    // Both jobs' first two requests are answered only once both jobs made them: the two jobs run
    // side by side, and the run's spend (2.5 requests' worth of cap) is reached by both together.
    suite.server.setFallback(async (request) => {
      const { task, turn } = view(request);
      if (turn <= 1) await until(`both jobs' request ${turn + 1}`, () => requestsOf('a').length > turn && requestsOf('b').length > turn);
      // a obeys the notice; b ignores it and keeps reading.
      if (noticed(request) && task === 'a') return { usage: USAGE, text: `wrapped up ${task}` };
      return { usage: USAGE, toolCalls: [{ name: 'read_file', arguments: { path: 'README.md', offset: turn + 1 } }] };
    });
    const { root, home } = project();
    writeFileSync(
      join(root, 'plan.yaml'),
      'goal: Capped\ntasks:\n  - {id: a, role: explorer, task: Look one, depends_on: []}\n  - {id: b, role: explorer, task: Look two, depends_on: []}\n  - {id: c, role: explorer, task: Look three, depends_on: []}\n',
    );
    const cap = REQUEST_USD * 2.5;
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url, '--max-jobs', '2', '--max-cost', String(cap)], {
      cwd: root,
      env: coordinatorEnv(home),
      timeoutMs: 90_000,
    });
    expect(run.code).toBe(1);
    // Both running jobs got the notice on their third request, the first after the cap was reached, and only once.
    expect(requestsOf('a').map(noticed)).toEqual([false, false, true]);
    expect(requestsOf('b').map(noticed)).toEqual([false, false, true, true]);
    expect(JSON.stringify(requestsOf('b')[3]!.body.messages).split(NOTICE)).toHaveLength(2);
    expect(JSON.stringify(requestsOf('a')[2]!.body.messages)).toMatch(/The dollar cap of this fleet run is reached \(\$0\.000\d+ spent by all its jobs, of \$0\.000\d+\)/);
    // b went on after the notice and was stopped two requests after it; c never started.
    expect(requestsOf('c')).toHaveLength(0);
    expect(suite.server.requests).toHaveLength(7);
    expect(workers.map((worker) => worker.log()).join('')).not.toMatch(/\(c, explorer\)/);
    const tasks = JSON.parse(run.stdout).orchestrations[0].tasks as Array<{ id: string; status: string; reason?: string; error?: string }>;
    expect(tasks.map((t) => [t.id, t.status, t.reason])).toEqual([['a', 'completed', undefined], ['b', 'failed', 'job_failed'], ['c', 'failed', 'budget_exceeded']]);
    expect(run.stdout).toContain('stopped 2 requests after being told to wrap up');
    // The report says which cap stopped the run and by how much the seven requests went past it.
    const spent = 7 * REQUEST_USD;
    const over = /the run's dollar cap of \$[\d.e-]+ stopped it: \$([\d.]+) spent, \$([\d.]+) \(([\d.]+)%\) over the cap/.exec(run.stderr);
    expect(over, run.stderr).not.toBeNull();
    expect(Number(over![1])).toBeCloseTo(spent, 6);
    expect(Number(over![2])).toBeCloseTo(spent - cap, 6);
    expect(Number(over![3])).toBeCloseTo(((spent - cap) / cap) * 100, 0);
  }, 120_000);
});

describe.skipIf(!hasRedis)('batch caps', () => {
  it('reports in the batch JSON which cap stopped the batch and by how much', async () => {
    await startWorkers(1);
    suite.server.setFallback((request) => ({ usage: USAGE, text: `finding of ${view(request).task}` }));
    const dir = tempDir('seek-batch-cap-');
    writeFileSync(join(dir, 'repos.txt'), `${[makeRepository().bare, makeRepository().bare, makeRepository().bare].join('\n')}\n`);
    const cap = REQUEST_USD / 2;
    const run = await runSeek(['batch', '--queue', fleet.redis.url, '--repos', 'repos.txt', '--prompt', 'Look', '--role', 'explorer', '--yolo', '--max-jobs', '1', '--max-cost', String(cap)], {
      cwd: dir,
      env: coordinatorEnv(dir),
      timeoutMs: 90_000,
    });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.repos.map((repo: { status: string }) => repo.status)).toEqual(['completed', 'capped', 'capped']);
    expect(suite.server.requests).toHaveLength(1);
    expect(report.cap_stopped).toBe(`the run's dollar cap of $${cap.toFixed(6)} stopped it: $${REQUEST_USD.toFixed(6)} spent, $${(REQUEST_USD - cap).toFixed(6)} (100.0%) over the cap`);
    expect(run.stderr).toContain(`seek: ${report.cap_stopped}`);
  }, 120_000);
});

/** How far a request may arrive at the server after the limiter let it go (the HTTP request on a loaded machine). */
const LATENCY_MS = 500;

describe.skipIf(!hasRedis)('provider rate limit shared by workers', () => {
  const limitedWorkers = async (args: string[]): Promise<void> => {
    await startWorkers(0);
    const env = { DEEPSEEK_API_KEY: 'k', DEEPSEEK_BASE_URL: suite.server.url, SEEK_RETRY_BASE_MS: '1' };
    workers.push(...(await Promise.all([1, 2].map(() => startWorker(fleet.redis.url, env, args)))));
  };
  const requestsOf = (task: string): RecordedRequest[] => suite.server.requests.filter((r) => view(r).task === task);
  /** Two jobs side by side: each job's first request is answered once both jobs made theirs (one per worker). */
  const bothStarted = async (request: RecordedRequest): Promise<void> => {
    if (view(request).turn === 0) await until('both jobs to start', () => requestsOf('a').length > 0 && requestsOf('b').length > 0);
  };
  const twoTaskPlan = (root: string): void =>
    writeFileSync(join(root, 'plan.yaml'), 'goal: Limited\ntasks:\n  - {id: a, role: explorer, task: Look one, depends_on: []}\n  - {id: b, role: explorer, task: Look two, depends_on: []}\n');
  /** Runs the two-task plan through the fleet; each task must make its three model requests. */
  const runTwoTasksOfThreeRequests = async (): Promise<void> => {
    const { root, home } = project();
    twoTaskPlan(root);
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    expect(run.code, run.stdout).toBe(0);
    expect(requestsOf('a')).toHaveLength(3);
    expect(requestsOf('b')).toHaveLength(3);
  };

  it('lets no more than N model requests of all workers reach the provider in any window', async () => {
    await limitedWorkers(['--provider-rate', '2/2']);
    suite.server.setFallback(async (request) => {
      await bothStarted(request);
      const { turn } = view(request);
      return turn < 2 ? { usage: USAGE, toolCalls: [{ name: 'read_file', arguments: { path: 'README.md', offset: turn + 1 } }] } : { usage: USAGE, text: 'done' };
    });
    await runTwoTasksOfThreeRequests();
    const times = suite.server.requests.map((r) => r.receivedAt).sort((x, y) => x - y);
    // Any three requests of the two workers span a whole 2 s window (less what the HTTP request may
    // add): never three in one window, though each worker alone would send its three at once.
    const spans = times.slice(2).map((time, i) => time - times[i]!);
    for (const span of spans) expect(span).toBeGreaterThanOrEqual(2000 - LATENCY_MS);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(4000 - LATENCY_MS);
  }, 120_000);

  it('keeps at most N model requests of all workers in flight at once', async () => {
    await limitedWorkers(['--provider-concurrency', '1']);
    suite.server.setFallback((request) => {
      const { turn } = view(request);
      return turn < 2 ? { usage: USAGE, delayMs: 150, toolCalls: [{ name: 'read_file', arguments: { path: 'README.md', offset: turn + 1 } }] } : { usage: USAGE, text: 'done' };
    });
    await runTwoTasksOfThreeRequests();
    // One at a time: each request reached the server after the one before it was answered.
    const ordered = [...suite.server.requests].sort((x, y) => x.receivedAt - y.receivedAt);
    for (let i = 1; i < ordered.length; i++) expect(ordered[i]!.receivedAt).toBeGreaterThanOrEqual(ordered[i - 1]!.respondedAt!);
  }, 120_000);

  it('pauses every worker\'s requests to a provider that answered 429, for its retry-after', async () => {
    await limitedWorkers(['--provider-rate', '100/1']);
    let limited: RecordedRequest | undefined;
    let aDone = false;
    suite.server.setFallback(async (request) => {
      await bothStarted(request);
      const { task, turn } = view(request);
      if (task === 'a') {
        if (turn === 1 && !limited) {
          limited = request;
          return { httpError: { status: 429, message: 'slow down', retryAfterSeconds: 2 } };
        }
        if (turn >= 1) {
          aDone = true;
          return { usage: USAGE, text: 'a done' };
        }
      }
      // b keeps working until a is done.
      if (task === 'b' && aDone) return { usage: USAGE, text: 'b done' };
      return { usage: USAGE, toolCalls: [{ name: 'read_file', arguments: { path: 'README.md', offset: turn + 1 } }] };
    });
    const { root, home } = project();
    twoTaskPlan(root);
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    expect(run.code, run.stdout).toBe(0);
    const answered = limited!.respondedAt!;
    // b was working before the 429 and after the pause, and sent nothing during it.
    expect(requestsOf('b').filter((r) => r.receivedAt < answered).length).toBeGreaterThan(0);
    expect(requestsOf('b').filter((r) => r.receivedAt > answered + 2000 - LATENCY_MS).length).toBeGreaterThan(0);
    const during = suite.server.requests.filter((r) => r.receivedAt > answered + LATENCY_MS && r.receivedAt < answered + 2000 - LATENCY_MS);
    expect(during.map((r) => view(r).task)).toEqual([]);
    expect(workers.map((worker) => worker.log()).join('')).toContain('deepseek answered 429: every worker pauses its requests to it for 2000 ms');
  }, 120_000);
});
