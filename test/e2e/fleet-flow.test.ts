/**
 * The fleet as a BullMQ flow, end to end (real redis-server, `seek worker` processes, the real
 * `seek run --queue`, scripted model): the engine holds each task until its dependencies have
 * completed with no coordinator alive, and a resumed coordinator collects everything without
 * redoing a job; Ctrl-C of a coordinator cancels its jobs across the fleet (the running one
 * stops, its cost counted, nothing retried) and `--resume` runs them again only with
 * `--rerun-cancelled`; Redis restarted while a worker is mid-job loses nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue, type Job } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { runSeek } from '../support/seek-process.js';
import { makeRepository, SIX_TASK_FILES, SIX_TASK_GRAPH, until } from '../support/fleet.js';
import { git, useFleet, view, write, hasRedis } from '../support/fleet-suite.js';
import { tempDir } from '../support/temp-dirs.js';

const fleet = useFleet();
const { workers, route, startWorkers, project, coordinatorEnv } = fleet;
const suite = fleet.suite;
let queue: Queue | undefined;
const jobsQueue = (): Queue => (queue ??= new Queue('seek-fleet', { connection: { host: '127.0.0.1', port: fleet.redis.port } }));
afterAll(async () => {
  await queue?.close();
});

const DEPENDS: Record<string, string[]> = { map: [], e1: ['map'], e2: ['map'], e3: ['map'], r: ['e1', 'e2', 'e3'], sum: ['r'] };

/** A coordinator's session id from its stream-json output, as soon as it is printed. */
function watchSession(child: { stdout: NodeJS.ReadableStream | null }): () => string {
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => (buffer += chunk.toString()));
  return () => /"session_id":"([^"]+)"/.exec(buffer)?.[1] ?? '';
}

/** The run's real task jobs (not the references), by task id. */
async function taskJobs(sessionId: string): Promise<Map<string, Job>> {
  const jobs = await jobsQueue().getJobs(['completed', 'failed', 'active', 'waiting', 'waiting-children', 'delayed']);
  return new Map(jobs.filter((job) => job.id!.startsWith(`${sessionId}.`) && !job.id!.includes('.needs.')).map((job) => [job.name, job]));
}

describe.skipIf(!hasRedis)('plans as BullMQ flows', () => {
  it('the engine enforces depends_on with the coordinator dead; a resumed coordinator collects every result without redoing a job', async () => {
    await startWorkers(0);
    route((req) => {
      const file = req.task ? SIX_TASK_FILES[req.task] : undefined;
      if (file) return req.turn === 0 ? { ...write(file[0], file[1]), delayMs: 200 } : { text: `wrote ${file[0]}` };
      if (req.task === 'r') return { text: 'All three files are fine.\nVERDICT: approve' };
      return { text: `finding of ${req.task}`, delayMs: 100 };
    });
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), SIX_TASK_GRAPH);
    let session = (): string => '';
    const killed = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'stream-json', '--queue', fleet.redis.url], {
      cwd: root,
      env: coordinatorEnv(home),
      timeoutMs: 60_000,
      onSpawn: (child) => {
        session = watchSession(child);
        // Killed as soon as the plan is in Redis: no worker has run anything yet.
        void until('the flow to be in Redis', async () => session() !== '' && (await taskJobs(session())).size === 6).then(() => child.kill('SIGKILL'));
      },
    });
    expect(killed.signal).toBe('SIGKILL');
    const sessionId = session();
    const before = await taskJobs(sessionId);
    expect([...before.values()].map((job) => job.name).sort()).toEqual(Object.keys(DEPENDS).sort());
    // Only the first task can start; every other one waits for its children.
    expect(await before.get('map')!.getState()).toBe('waiting');
    for (const task of ['e1', 'e2', 'e3', 'r', 'sum']) expect(await before.get(task)!.getState()).toBe('waiting-children');
    expect(suite.server.requests).toHaveLength(0);

    await startWorkers(3); // no coordinator is running
    const done = await until('every task job to complete', async () => {
      const jobs = await taskJobs(sessionId);
      const states = await Promise.all([...jobs.values()].map((job) => job.getState()));
      return states.length === 6 && states.every((state) => state === 'completed') ? jobs : undefined;
    }, 60_000);
    // Each task's first model request came after its dependencies' last answer, and its job started after theirs finished.
    const requests = suite.server.requests.map((request) => ({ ...view(request), receivedAt: request.receivedAt, respondedAt: request.respondedAt! }));
    for (const [task, deps] of Object.entries(DEPENDS)) {
      const first = Math.min(...requests.filter((r) => r.task === task).map((r) => r.receivedAt));
      const job = done.get(task)!;
      for (const dep of deps) {
        expect(first).toBeGreaterThanOrEqual(Math.max(...requests.filter((r) => r.task === dep).map((r) => r.respondedAt)));
        expect(job.processedOn!).toBeGreaterThanOrEqual(done.get(dep)!.finishedOn!);
      }
    }
    // The reviewer's worker merged the three editors' commits and saw their diffs.
    const review = requests.find((r) => r.task === 'r' && r.turn === 0)!.prompt;
    for (const added of ['+first', '+second', '+third']) expect(review).toContain(added);
    expect(requests.find((r) => r.task === 'sum')!.prompt).toMatch(/### r \(reviewer\) verdict: approve\nAll three files are fine\./);
    const asked = suite.server.requests.length;

    const resumed = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url, '--resume', sessionId], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(suite.server.requests).toHaveLength(asked); // nothing done twice
    const tasks = JSON.parse(resumed.stdout).orchestrations[0].tasks as Array<{ id: string; status: string; merge_commit?: string; model_calls: number }>;
    expect(tasks.map((task) => [task.id, task.status])).toEqual(Object.keys(DEPENDS).map((id) => [id, 'completed']));
    expect(tasks.filter((task) => task.merge_commit).map((task) => task.id)).toEqual(['e1', 'e2', 'e3']);
    expect(tasks.find((task) => task.id === 'e1')!.model_calls).toBe(2); // the workers' figures, collected
    for (const [file, content] of Object.values(SIX_TASK_FILES)) expect(readFileSync(join(root, file), 'utf8')).toBe(content);
  }, 120_000);
});

describe.skipIf(!hasRedis)('an editor building on two editors', () => {
  it('starts from both editors\' changes merged on its worker, and its own commit merges into the plan tree as in a local run', async () => {
    await startWorkers(2);
    route((req) => {
      if (req.task === 'a') return req.turn === 0 ? write('a.txt', 'a\n') : { text: 'wrote a.txt' };
      if (req.task === 'b') return req.turn === 0 ? write('b.txt', 'b\n') : { text: 'wrote b.txt' };
      // c reads both files (they must be in its checkout) and writes their sum.
      if (req.turn === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }, { name: 'read_file', arguments: { path: 'b.txt' } }] };
      return req.turn === 1 ? write('c.txt', 'a+b\n') : { text: 'wrote c.txt' };
    });
    const plan = 'goal: Build on both\ntasks:\n  - {id: a, role: editor, task: Write a.txt, depends_on: []}\n  - {id: b, role: editor, task: Write b.txt, depends_on: []}\n  - {id: c, role: editor, task: Sum them in c.txt, depends_on: [a, b]}\n';
    const run = async (queue?: string) => {
      suite.server.reset();
      const { root, home } = project();
      writeFileSync(join(root, 'plan.yaml'), plan);
      const done = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', ...(queue ? ['--queue', queue] : [])], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
      if (done.code !== 0) throw new Error(`the run failed: ${done.stdout}`);
      const requests = suite.server.requests.map(view);
      // c's reads found both files: its tool results carry their text.
      const messages = suite.server.requests.find((r) => view(r).task === 'c' && view(r).turn === 1)!.body.messages as Array<{ role: string; content?: unknown }>;
      const results = messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
      return {
        tasks: (JSON.parse(done.stdout).orchestrations[0].tasks as Array<{ id: string; status: string; merge_commit?: string }>).map((t) => [t.id, t.status, t.merge_commit !== undefined]),
        prompt: requests.find((r) => r.task === 'c' && r.turn === 0)!.prompt.replace(/\b[0-9a-f]{12,40}\b/g, 'SHA'),
        readBoth: results.some((text) => /1\ta$/.test(text)) && results.some((text) => /1\tb$/.test(text)),
        tree: git(root, 'rev-parse', 'HEAD^{tree}'),
        files: ['a.txt', 'b.txt', 'c.txt'].map((file) => readFileSync(join(root, file), 'utf8')),
      };
    };
    const local = await run();
    const remote = await run(fleet.redis.url);
    expect(remote).toEqual(local);
    expect(remote.tasks).toEqual([['a', 'completed', true], ['b', 'completed', true], ['c', 'completed', true]]);
    expect(remote.readBoth).toBe(true);
    expect(remote.files).toEqual(['a\n', 'b\n', 'a+b\n']);
  }, 120_000);
});

describe.skipIf(!hasRedis)('conflicting editors', () => {
  it('reports the conflict as a local run does, and the engine does not start their reviewer', async () => {
    await startWorkers(2);
    route((req) => {
      if (req.task === 'e1' || req.task === 'e2') return req.turn === 0 ? write('same.txt', `by ${req.task}\n`) : { text: `wrote same.txt` };
      return { text: 'VERDICT: approve' };
    });
    const plan = 'goal: Clash\ntasks:\n  - {id: e1, role: editor, task: Write same.txt, depends_on: []}\n  - {id: e2, role: editor, task: Write same.txt too, depends_on: []}\n  - {id: r, role: reviewer, task: Review, depends_on: [e1, e2]}\n';
    const outcomes = async (queue?: string) => {
      const { root, home } = project();
      writeFileSync(join(root, 'plan.yaml'), plan);
      const run = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', ...(queue ? ['--queue', queue] : [])], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
      expect(run.code).toBe(1);
      const tasks = JSON.parse(run.stdout).orchestrations[0].tasks as Array<{ id: string; status: string; reason?: string; worktree_path?: string }>;
      expect(readFileSync(join(root, 'same.txt'), 'utf8')).toBe('by e1\n'); // e1 merged, e2 refused
      sessionId = JSON.parse(run.stdout).session_id;
      return tasks.map((task) => [task.id, task.status, task.reason, task.worktree_path !== undefined]);
    };
    let sessionId = '';
    const local = await outcomes();
    expect(suite.server.requests.filter((r) => view(r).task === 'r')).toHaveLength(0);
    expect(await outcomes(fleet.redis.url)).toEqual(local);
    // e2's changes are kept in its worktree, as the conflict report says.
    expect(local).toEqual([['e1', 'completed', undefined, false], ['e2', 'failed', 'merge_conflict', true], ['r', 'skipped', undefined, false]]);
    // The reviewer's job met the same conflict merging its dependencies, and ended before any model call.
    const review = await until('the reviewer job to fail', async () => (await jobsQueue().getFailed()).find((job) => job.id!.startsWith(`${sessionId}.`) && job.name === 'r'));
    expect(review.failedReason).toMatch(/the changes of dependency e2 conflict .*same\.txt.*not started/);
    expect(suite.server.requests.filter((r) => view(r).task === 'r')).toHaveLength(0);
  }, 120_000);
});

describe.skipIf(!hasRedis)('a merge refused by the coordinator', () => {
  it('stops the dependant the engine may already have started, so it ends as in a local run: skipped', async () => {
    await startWorkers(2);
    route((req) => {
      if (req.task === 'e1') return req.turn === 0 ? write('README.md', 'changed by e1\n') : { text: 'rewrote README.md' };
      if (req.task === 'e2') return { text: 'nothing to do' };
      return req.turn === 0 ? { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } : { hang: true };
    });
    const plan = 'goal: Refused\ntasks:\n  - {id: e1, role: editor, task: Rewrite README.md, depends_on: []}\n  - {id: e2, role: editor, task: Nothing, depends_on: []}\n  - {id: r, role: reviewer, task: Review, depends_on: [e1]}\n';
    const outcomes = async (queue?: string) => {
      suite.server.reset();
      const { root, home } = project();
      writeFileSync(join(root, 'plan.yaml'), plan);
      writeFileSync(join(root, 'README.md'), '# my uncommitted edit\n'); // the merge of e1 would overwrite it
      const run = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', ...(queue ? ['--queue', queue] : [])], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
      expect(run.code).toBe(1);
      expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# my uncommitted edit\n');
      const tasks = JSON.parse(run.stdout).orchestrations[0].tasks as Array<{ id: string; status: string; reason?: string }>;
      const e1 = suite.server.requests.map(view).find((r) => r.task === 'e1' && r.turn === 0)!.prompt;
      sessionId = JSON.parse(run.stdout).session_id;
      return { tasks: tasks.map((task) => [task.id, task.status, task.reason]), e1 };
    };
    let sessionId = '';
    const local = await outcomes();
    expect(local.tasks).toEqual([['e1', 'failed', 'merge_conflict'], ['e2', 'completed', undefined], ['r', 'skipped', undefined]]);
    expect(local.e1).toContain('uncommitted changes in the user\'s working tree are not in it');
    expect(await outcomes(fleet.redis.url)).toEqual(local);
    // r's job was cancelled by the coordinator: refused before it started, or stopped mid-turn.
    const review = await until('the reviewer job to fail', async () => (await jobsQueue().getFailed()).find((job) => job.id!.startsWith(`${sessionId}.`) && job.name === 'r'));
    expect(review.failedReason).toBe('cancelled');
    expect(review.attemptsMade).toBe(1);
  }, 120_000);
});

describe.skipIf(!hasRedis)('cancelling a fleet run', () => {
  it('Ctrl-C cancels the run\'s jobs across the fleet: the running turn stops with its cost counted, nothing is retried; --resume runs them again only with --rerun-cancelled', async () => {
    await startWorkers(1); // one slot: whichever of p and q it takes first runs, the other waits
    let hold = true;
    route((req) => {
      if (req.task === 'z') return { text: 'finding of z' };
      if (req.turn === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] };
      return hold ? { hang: true } : { text: `finding of ${req.task}` };
    });
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Cancel\ntasks:\n  - {id: p, role: explorer, task: Read slowly, depends_on: []}\n  - {id: q, role: explorer, task: Read slowly too, depends_on: []}\n  - {id: z, role: explorer, task: After p, depends_on: [p]}\n');
    let session = (): string => '';
    const cancelled = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'stream-json', '--queue', fleet.redis.url], {
      cwd: root,
      env: coordinatorEnv(home),
      timeoutMs: 60_000,
      onSpawn: (child) => {
        session = watchSession(child);
        void until('a task to wait for its second answer', () => suite.server.requests.length === 2).then(() => child.kill('SIGINT'));
      },
    });
    expect(cancelled.signal).toBeNull(); // it ended by itself
    expect(cancelled.code).not.toBe(0);
    const result = JSON.parse(cancelled.stdout.trim().split('\n').at(-1)!);
    expect(result.subtype).not.toBe('success');
    const running = view(suite.server.requests[0]!).task!;
    const waiting = running === 'p' ? 'q' : 'p';
    expect(suite.server.requests.map((r) => view(r).task)).toEqual([running, running]);
    const jobs = await taskJobs(session());
    // The running task stopped mid-turn and failed "cancelled" after one attempt (no retry).
    const stopped = jobs.get(running)!;
    expect(await stopped.getState()).toBe('failed');
    expect(stopped.failedReason).toBe('cancelled');
    expect(stopped.attemptsMade).toBe(1);
    expect(workers[0]!.log()).toContain(`job ${stopped.id} cancelled by its coordinator`);
    // The waiting one, and z (waiting for p), end failed without a model call.
    await until('the waiting jobs to be failed', async () => (await Promise.all([waiting, 'z'].map(async (id) => (await jobs.get(id)!.getState()) === 'failed'))).every(Boolean));
    expect((await jobsQueue().getJob(jobs.get(waiting)!.id!))!.failedReason).toBe('cancelled');
    expect(suite.server.requests).toHaveLength(2);
    // The stopped turn's first model call is billed to the run.
    expect(result.usage.input_tokens).toBe(1000);
    expect(result.total_cost_usd).toBeGreaterThan(0);

    // A resume without --rerun-cancelled says what was cancelled and runs nothing.
    hold = false;
    const told = await runSeek(['run', 'plan.yaml', '--yolo', '--queue', fleet.redis.url, '--resume', session()], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
    expect(told.code).toBe(1);
    for (const task of ['p', 'q']) expect(told.stdout).toMatch(new RegExp(`^${task} explorer canceled .*cancelled in an earlier run of this plan and not run again \\(resume with --rerun-cancelled`, 'm'));
    expect(suite.server.requests).toHaveLength(2);
    // With it, the cancelled tasks run again.
    const rerun = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url, '--resume', session(), '--rerun-cancelled'], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
    expect(rerun.code).toBe(0);
    const tasks = JSON.parse(rerun.stdout).orchestrations[0].tasks;
    expect(tasks.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([['p', 'completed'], ['q', 'completed'], ['z', 'completed']]);
    // The stopped task from its start again (two more calls), the never-started one, then z.
    expect(suite.server.requests.map((r) => view(r).task).sort()).toEqual([running, running, running, running, waiting, waiting, 'z'].sort());
  }, 120_000);
});

describe.skipIf(!hasRedis)('cancelling a batch', () => {
  it('Ctrl-C of seek batch stops the running job and fails the waiting one, "cancelled", with the stopped job\'s cost in the report', async () => {
    await startWorkers(1);
    route((req) => (req.turn === 0 ? { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } : { hang: true }));
    const dir = tempDir('seek-batch-cancel-');
    writeFileSync(join(dir, 'repos.txt'), `${makeRepository().bare}\n${makeRepository().bare}\n`);
    const run = await runSeek(['batch', '--queue', fleet.redis.url, '--repos', 'repos.txt', '--prompt', 'Read slowly', '--role', 'explorer', '--yolo'], {
      cwd: dir,
      env: coordinatorEnv(dir),
      timeoutMs: 60_000,
      onSpawn: (child) => void until('one job to wait for its second answer', () => suite.server.requests.length === 2).then(() => child.kill('SIGINT')),
    });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.status).toBe('canceled');
    expect(report.repos.map((row: { status: string }) => row.status)).toEqual(['canceled', 'canceled']);
    const failed = await jobsQueue().getFailed();
    const ours = failed.filter((job) => job.id!.startsWith(`batch.${report.batch_id}.`));
    expect(ours.map((job) => [job.failedReason, job.attemptsMade])).toEqual([['cancelled', 1], ['cancelled', 1]]);
    expect(suite.server.requests).toHaveLength(2); // the waiting job never reached the model
    // The stopped job's first model call is in the report; the other job spent nothing.
    expect(report.repos.map((row: { usage: { input_tokens: number } }) => row.usage.input_tokens).sort()).toEqual([0, 1000]);
    expect(report.totals.total_cost_usd).toBeGreaterThan(0);
  }, 60_000);
});

describe.skipIf(!hasRedis)('Redis restarted mid-job', () => {
  it('a job running on a worker when Redis crashes and restarts from its append-only file completes, and the run is complete and correct', async () => {
    await startWorkers(2);
    let restarted = false;
    route((req) => {
      if (req.task === 'a') return req.turn === 0 ? write('a.txt', 'from a\n') : { text: 'wrote a.txt', delayMs: restarted ? 0 : 1000 };
      return { text: `finding of ${req.task}` };
    });
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Survive\ntasks:\n  - {id: a, role: editor, task: Write a.txt, depends_on: []}\n  - {id: b, role: explorer, task: Check a.txt, depends_on: [a]}\n');
    const run = runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    await until('a to be mid-job on a worker', () => suite.server.requests.filter((r) => view(r).task === 'a').length === 2);
    await fleet.redis.restart(); // killed like a crash while the worker waits for the model, started again from its append-only file
    restarted = true;
    const done = await run;
    expect(done.code).toBe(0);
    const output = JSON.parse(done.stdout);
    expect(output.orchestrations[0].tasks.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([['a', 'completed'], ['b', 'completed']]);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('from a\n');
    const tasks = suite.server.requests.map((r) => view(r).task);
    expect(tasks.filter((t) => t === 'b')).toHaveLength(1);
    expect([2, 4]).toContain(tasks.filter((t) => t === 'a').length); // completed by its worker, or retried once from a clean checkout
    expect(view(suite.server.requests.find((r) => view(r).task === 'b')!).prompt).toContain('wrote a.txt');
  }, 120_000);
});
