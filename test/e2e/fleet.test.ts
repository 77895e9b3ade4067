/**
 * Fleet runs end to end: a real redis-server, three real `seek worker` processes and the real
 * `seek run --queue` against the scripted model server, with bare repositories as the jobs'
 * repositories. A 6-task graph gives what the same plan gives locally; a worker killed mid-task
 * is replaced by another; the dollar cap stops new jobs; a coordinator killed mid-run resumes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { runSeek } from '../support/seek-process.js';
import { Queue } from 'bullmq';
import { makeRepository, startWorker, until, type WorkerProcess } from '../support/fleet.js';
import { startRedis, type RedisHandle } from '../support/redis-server.js';
import { tempDir } from '../support/temp-dirs.js';

const suite = useScriptedServer();
const USAGE = { input: 1000, output: 100, cacheRead: 600 };
const API_KEY = 'sk-fleet-coordinator-only-0123456789abcdef';

interface Req {
  task?: string;
  prompt: string;
  turn: number;
}
function view(request: RecordedRequest): Req {
  const messages = request.body.messages as Array<{ role: string; content?: string }>;
  const prompt = String(messages.find((m) => m.role === 'user')?.content ?? '');
  const task = /^## Your task \(([^,]+), ([^)]+)\)/m.exec(prompt);
  return { ...(task ? { task: task[1] } : {}), prompt, turn: messages.filter((m) => m.role === 'assistant').length };
}
const route = (handler: (req: Req) => ScriptedReply): void => void suite.server.setFallback((request) => ({ usage: USAGE, ...handler(view(request)) }));
const write = (path: string, content: string): ScriptedReply => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] });
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });
/** A task's first prompt, commit ids masked (merge commits differ between two runs). */
const firstPrompt = (requests: RecordedRequest[], task: string): string =>
  view(requests.find((r) => view(r).task === task && view(r).turn === 0)!).prompt.replace(/\b[0-9a-f]{12,40}\b/g, 'SHA');

let redis: RedisHandle;
const workers: WorkerProcess[] = [];
beforeAll(async () => {
  redis = await startRedis({ appendonly: true });
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
  await redis?.stop();
});
async function startWorkers(count: number): Promise<void> {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  workers.push(...await Promise.all(Array.from({ length: count }, () => startWorker(redis.url, { DEEPSEEK_API_KEY: 'k', DEEPSEEK_BASE_URL: suite.server.url, SEEK_RETRY_BASE_MS: '1' }))));
}
function project(): { root: string; home: string; bare: string } {
  const { bare, clone } = makeRepository();
  const home = tempDir('seek-coordinator-');
  return { root: clone, home, bare };
}
const coordinatorEnv = (home: string): Record<string, string> => ({ ...suite.env(home), DEEPSEEK_API_KEY: API_KEY, SEEK_FLEET_BACKOFF_MS: '50' });

const GRAPH = [
  'goal: Three files and a review',
  'tasks:',
  '  - {id: map, role: explorer, task: Map the project, depends_on: []}',
  '  - {id: e1, role: editor, task: Add one.txt, depends_on: [map]}',
  '  - {id: e2, role: editor, task: Add two.txt, depends_on: [map]}',
  '  - {id: e3, role: editor, task: Add three.txt, depends_on: [map]}',
  '  - {id: r, role: reviewer, task: Review the three files, depends_on: [e1, e2, e3]}',
  '  - {id: sum, role: explorer, task: Sum up, depends_on: [r]}',
  '',
].join('\n');
const FILES: Record<string, [string, string]> = { e1: ['one.txt', 'first\n'], e2: ['two.txt', 'second\n'], e3: ['three.txt', 'third\n'] };

function graphRoute(): void {
  route((req) => {
    const file = req.task ? FILES[req.task] : undefined;
    if (file) return req.turn === 0 ? { ...write(file[0], file[1]), delayMs: 300 } : { text: `wrote ${file[0]}` };
    if (req.task === 'r') return { text: 'All three files are fine.\nVERDICT: approve' };
    if (req.task === 'map') return { text: 'The project is one README.' };
    if (req.task === 'sum') return { text: 'Three files were added and approved.' };
    return { text: 'unexpected request' };
  });
}

describe('seek run --queue', () => {
  it('runs a 6-task graph on three workers with the results, merges and statistics of a local run; the queue never holds a key', async () => {
    await startWorkers(3);
    graphRoute();
    const local = project();
    writeFileSync(join(local.root, 'plan.yaml'), GRAPH);
    const localRun = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json'], { cwd: local.root, env: coordinatorEnv(local.home), timeoutMs: 60_000 });
    expect(localRun.stdout + localRun.stderr).toContain('"status":"completed"');
    expect(localRun.code).toBe(0);
    const localRequests = [...suite.server.requests];
    suite.server.reset();

    const fleet = project();
    writeFileSync(join(fleet.root, 'plan.yaml'), GRAPH);
    const fleetRun = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', redis.url], { cwd: fleet.root, env: coordinatorEnv(fleet.home), timeoutMs: 90_000 });
    expect(fleetRun.stderr).toBe('');
    expect(fleetRun.code).toBe(0);
    const fleetRequests = [...suite.server.requests];

    const [a, b] = [JSON.parse(localRun.stdout), JSON.parse(fleetRun.stdout)];
    type Task = Record<string, unknown> & { id: string };
    const shape = (run: { orchestrations: Array<{ status: string; totals: unknown; tasks: Task[] }> }) => ({
      status: run.orchestrations[0]!.status,
      totals: run.orchestrations[0]!.totals,
      tasks: run.orchestrations[0]!.tasks.map(({ sub_sid: _s, merge_commit: merged, ...rest }) => ({ ...rest, merged: merged !== undefined })),
    });
    expect(shape(b)).toEqual(shape(a));
    expect(shape(b).tasks.filter((task) => task.merged).map((task) => task.id)).toEqual(['e1', 'e2', 'e3']);
    expect(b.usage).toEqual(a.usage);
    expect(b.total_cost_usd).toBeCloseTo(a.total_cost_usd, 10);
    // Dependants got the same inputs: the reviewer the same three diffs, the summary the verdict.
    for (const task of ['map', 'e1', 'r', 'sum']) expect(firstPrompt(fleetRequests, task)).toBe(firstPrompt(localRequests, task));
    expect(firstPrompt(fleetRequests, 'r')).toContain('+second');
    // The same files, merged in plan order into the coordinator's tree.
    for (const [file, content] of Object.values(FILES)) expect(readFileSync(join(fleet.root, file), 'utf8')).toBe(content);
    const subjects = (root: string) => git(root, 'log', '--first-parent', '--format=%s').split('\n').map((s) => s.replace(/worktree \S+/, 'worktree W'));
    expect(subjects(fleet.root)).toEqual(subjects(local.root));
    expect(git(fleet.root, 'rev-parse', 'HEAD^{tree}')).toBe(git(local.root, 'rev-parse', 'HEAD^{tree}'));
    // Work was spread: the three parallel editors ran on more than one worker.
    expect(workers.filter((worker) => /job \S+ completed/.test(worker.log())).length).toBeGreaterThan(1);
    // Editors' commits were pushed to the job repository.
    expect(git(fleet.bare, 'for-each-ref', '--format=%(refname)', 'refs/heads/seek/fleet').split('\n').filter(Boolean)).toHaveLength(3);
    expect(await redisDump()).not.toContain(API_KEY);
  }, 180_000);
});

describe('fleet faults and limits', () => {
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
    const run = runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    await until('the first attempt to wait for its second answer', () => hung && suite.server.requests.filter((r) => view(r).task === 'e').length === 2);
    const queue = new Queue('seek-fleet', { connection: { host: '127.0.0.1', port: redis.port } });
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
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--queue', redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
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
    const run = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', redis.url, '--max-cost', '0.0000001'], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    expect(suite.server.requests.map((r) => view(r).task)).toEqual(['a']);
    const tasks = JSON.parse(run.stdout).orchestrations[0].tasks;
    expect(tasks.map((t: { status: string; reason?: string }) => [t.status, t.reason])).toEqual([['completed', undefined], ['failed', 'budget_exceeded'], ['skipped', undefined]]);
    expect(JSON.parse(run.stdout).result).toContain("the run's dollar cap is reached");
  }, 60_000);

  it('refuses a job of another seek version with a clear message; an unreachable Redis says how to start one', async () => {
    await startWorkers(1);
    const queue = new Queue('seek-fleet', { connection: { host: '127.0.0.1', port: redis.port } });
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

    const closed = `redis://127.0.0.1:${redis.port + 1}`;
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: g\ntasks:\n  - {id: x, role: explorer, task: Look}\n');
    const run = await runSeek(['run', 'plan.yaml', '--queue', closed], { cwd: root, env: coordinatorEnv(home) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^seek: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ .*Start one with `redis-server --port \d+ --appendonly yes`/);
    expect(suite.server.requests).toHaveLength(0);
  }, 60_000);

  it('resumes a killed coordinator: finished jobs are reused, the running one is waited for, none is redone', async () => {
    await startWorkers(2);
    route((req) => {
      if (req.task === 'b') return req.turn === 0 ? write('b.txt', 'b\n') : { text: 'wrote b.txt', delayMs: 500 };
      return { text: `finding of ${req.task}` };
    });
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Resume\ntasks:\n  - {id: a, role: explorer, task: Look}\n  - {id: b, role: editor, task: Write b.txt}\n  - {id: c, role: explorer, task: Check}\n');
    let sessionId = '';
    const killed = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'stream-json', '--queue', redis.url], {
      cwd: root,
      env: coordinatorEnv(home),
      timeoutMs: 60_000,
      onSpawn: (child) => {
        let buffer = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          sessionId ||= /"session_id":"([^"]+)"/.exec(buffer)?.[1] ?? '';
        });
        void until('b to be running on a worker', () => suite.server.requests.some((r) => view(r).task === 'b')).then(() => child.kill('SIGKILL'));
      },
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(sessionId).not.toBe('');
    const resumed = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', redis.url, '--resume', sessionId], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const count = (task: string) => suite.server.requests.filter((r) => view(r).task === task).length;
    expect([count('a'), count('b'), count('c')]).toEqual([1, 2, 1]);
    const tasks = JSON.parse(resumed.stdout).orchestrations[0].tasks;
    expect(tasks.map((t: { id: string; status: string; reused?: boolean }) => [t.id, t.status, t.reused === true])).toEqual([['a', 'completed', true], ['b', 'completed', false], ['c', 'completed', false]]);
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b\n');
  }, 120_000);
});

describe('seek batch', () => {
  it('runs one job per repository over five repositories: five branches, a bundle where the push is refused, progress and a JSON report', async () => {
    await startWorkers(3);
    route((req) => (req.turn === 0 ? write('NOTES.md', `notes by ${req.task}\n`) : { text: `wrote NOTES.md for ${req.task}` }));
    const repos = Array.from({ length: 5 }, () => makeRepository().bare);
    git(repos[4]!, 'branch', 'seek', 'main'); // refs/heads/seek blocks refs/heads/seek/batch/…: the push fails
    const list = join(tempDir('seek-batch-'), 'repos.txt');
    writeFileSync(list, `# the five\n${repos.join('\n')}\n`);
    const home = tempDir('seek-coordinator-');
    const run = await runSeek(['batch', '--queue', redis.url, '--repos', list, '--prompt', 'Write NOTES.md', '--yolo'], { cwd: home, env: coordinatorEnv(home), timeoutMs: 90_000 });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.status).toBe('completed');
    expect(report.repos.map((r: { repo: string }) => r.repo)).toEqual(repos);
    const branch = `seek/batch/${report.batch_id}`;
    report.repos.forEach((row: { status: string; branch: string; pushed: boolean }, index: number) => {
      expect(row).toMatchObject({ status: 'completed', branch, pushed: index < 4 });
    });
    for (const [index, bare] of repos.slice(0, 4).entries()) expect(git(bare, 'show', `${branch}:NOTES.md`)).toBe(`notes by r${index + 1}\n`);
    // The refused repository's commit is in the report as a bundle.
    const bundle = join(tempDir('seek-bundle-'), 'r5.bundle');
    writeFileSync(bundle, Buffer.from(report.repos[4].bundle_base64, 'base64'));
    const check = makeRepository().clone;
    git(check, 'fetch', '-q', repos[4]!, 'main'); // the bundle's prerequisite, the base commit
    git(check, 'fetch', '-q', bundle, `refs/seek/bundle/${branch}`);
    expect(git(check, 'show', 'FETCH_HEAD:NOTES.md')).toBe('notes by r5\n');
    expect(report.totals).toMatchObject({ repos: 5, completed: 5, failed: 0 });
    expect(run.stderr).toMatch(/running on \S+/);
    expect(run.stderr.match(/  completed on \S+ \$[0-9.]+ → seek\/batch\//g)).toHaveLength(5);
  }, 120_000);
});

/** Every value in the test Redis, as text. */
async function redisDump(): Promise<string> {
  const client = redis.client;
  const parts: string[] = [];
  for (const key of await client.keys('*')) {
    const type = await client.type(key);
    if (type === 'string') parts.push(String(await client.get(key)));
    else if (type === 'hash') parts.push(JSON.stringify(await client.hgetall(key)));
    else if (type === 'list') parts.push(JSON.stringify(await client.lrange(key, 0, -1)));
    else if (type === 'set') parts.push(JSON.stringify(await client.smembers(key)));
    else if (type === 'zset') parts.push(JSON.stringify(await client.zrange(key, '0', '-1')));
    else if (type === 'stream') parts.push(JSON.stringify(await client.xrange(key, '-', '+')));
  }
  expect(parts.join('\n')).toContain('Add one.txt'); // the dump does see the jobs
  return parts.join('\n');
}
