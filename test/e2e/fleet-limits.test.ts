/**
 * Fleet limits end to end (real redis-server, `seek worker` processes, the scripted model): the
 * run's dollar cap, counted over every worker, gives every running job the wrap-up notice on its
 * next request and stops one that goes on; no new job starts; the run reports by how much the cap
 * was exceeded.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/scripted-server/index.js';
import { runSeek } from '../support/seek-process.js';
import { until } from '../support/fleet.js';
import { USAGE, useFleet, view, hasRedis } from '../support/fleet-suite.js';

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
