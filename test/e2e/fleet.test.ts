/**
 * Fleet runs end to end: a real redis-server, real `seek worker` processes and the real `seek run
 * --queue` / `seek batch` against the scripted model server, with bare repositories as the jobs'
 * repositories. A 6-task graph on three workers gives what the same plan gives locally (results,
 * merges, statistics) and the queue never holds a key; a killed coordinator resumes without
 * redoing work; a batch over five repositories gives five branches.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/scripted-server/index.js';
import { runSeek } from '../support/seek-process.js';
import { makeRepository, SIX_TASK_FILES, SIX_TASK_GRAPH, until } from '../support/fleet.js';
import { API_KEY, git, useFleet, view, write, hasRedis } from '../support/fleet-suite.js';
import { tempDir } from '../support/temp-dirs.js';

const fleet = useFleet();
const { workers, route, startWorkers, project, coordinatorEnv } = fleet;
const suite = fleet.suite;
/** A task's first prompt, commit ids masked (merge commits differ between two runs). */
const firstPrompt = (requests: RecordedRequest[], task: string): string =>
  view(requests.find((r) => view(r).task === task && view(r).turn === 0)!).prompt.replace(/\b[0-9a-f]{12,40}\b/g, 'SHA');


function graphRoute(): void {
  route((req) => {
    const file = req.task ? SIX_TASK_FILES[req.task] : undefined;
    if (file) return req.turn === 0 ? { ...write(file[0], file[1]), delayMs: 300 } : { text: `wrote ${file[0]}` };
    if (req.task === 'r') return { text: 'All three files are fine.\nVERDICT: approve' };
    if (req.task === 'map') return { text: 'The project is one README.' };
    if (req.task === 'sum') return { text: 'Three files were added and approved.' };
    return { text: 'unexpected request' };
  });
}

describe.skipIf(!hasRedis)('seek run --queue', () => {
  it('runs a 6-task graph on three workers with the results, merges and statistics of a local run; the queue never holds a key', async () => {
    await startWorkers(3);
    graphRoute();
    const local = project();
    writeFileSync(join(local.root, 'plan.yaml'), SIX_TASK_GRAPH);
    const localRun = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json'], { cwd: local.root, env: coordinatorEnv(local.home), timeoutMs: 60_000 });
    if (localRun.code !== 0) throw new Error(`the local run failed: ${localRun.stdout}`);
    const localRequests = [...suite.server.requests];
    suite.server.reset();

    const remote = project();
    writeFileSync(join(remote.root, 'plan.yaml'), SIX_TASK_GRAPH);
    const fleetRun = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url], { cwd: remote.root, env: coordinatorEnv(remote.home), timeoutMs: 90_000 });
    expect(fleetRun.stderr).toBe('');
    if (fleetRun.code !== 0) throw new Error(`the fleet run failed: ${fleetRun.stdout}`);
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
    for (const [file, content] of Object.values(SIX_TASK_FILES)) expect(readFileSync(join(remote.root, file), 'utf8')).toBe(content);
    const subjects = (root: string) => git(root, 'log', '--first-parent', '--format=%s').split('\n').map((s) => s.replace(/worktree \S+/, 'worktree W'));
    expect(subjects(remote.root)).toEqual(subjects(local.root));
    expect(git(remote.root, 'rev-parse', 'HEAD^{tree}')).toBe(git(local.root, 'rev-parse', 'HEAD^{tree}'));
    // Work was spread: the three parallel editors ran on more than one worker.
    expect(workers.filter((worker) => /job \S+ completed/.test(worker.log())).length).toBeGreaterThan(1);
    // Editors' commits were pushed to the job repository.
    expect(git(remote.bare, 'for-each-ref', '--format=%(refname)', 'refs/heads/seek/fleet').split('\n').filter(Boolean)).toHaveLength(3);
    expect(await redisDump()).not.toContain(API_KEY);
  }, 180_000);

  it('resumes a killed coordinator: finished jobs are reused, the running one is waited for, none is redone', async () => {
    await startWorkers(2);
    route((req) => {
      if (req.task === 'b') return req.turn === 0 ? write('b.txt', 'b\n') : { text: 'wrote b.txt', delayMs: 500 };
      return { text: `finding of ${req.task}` };
    });
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), 'goal: Resume\ntasks:\n  - {id: a, role: explorer, task: Look}\n  - {id: b, role: editor, task: Write b.txt}\n  - {id: c, role: explorer, task: Check}\n');
    let sessionId = '';
    const killed = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'stream-json', '--queue', fleet.redis.url], {
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
    // The session knows its tasks went to the fleet (the whole plan, as one flow): resuming in-process is refused, nothing is asked.
    // The fleet's jobs go on meanwhile (b running, c perhaps queued behind a on the two workers),
    // so the requests are not frozen; what the refused local run must not do is run a task itself,
    // which would make some task's first request arrive twice.
    const firstRequests = (task: string) => suite.server.requests.filter((r) => view(r).task === task && view(r).turn === 0).length;
    const local = await runSeek(['run', 'plan.yaml', '--yolo', '--resume', sessionId], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
    expect(local.code, local.stdout + local.stderr).toBe(1);
    expect(local.stdout).toMatch(/this plan's tasks went to a fleet in this session \(3 jobs, e\.g\. \S+\); run or resume it with the same --queue/);
    for (const task of ['a', 'b', 'c']) expect(firstRequests(task), task).toBeLessThanOrEqual(1);
    const resumed = await runSeek(['run', 'plan.yaml', '--yolo', '--output-format', 'json', '--queue', fleet.redis.url, '--resume', sessionId], { cwd: root, env: coordinatorEnv(home), timeoutMs: 60_000 });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const count = (task: string) => suite.server.requests.filter((r) => view(r).task === task).length;
    expect([count('a'), count('b'), count('c')]).toEqual([1, 2, 1]);
    const tasks = JSON.parse(resumed.stdout).orchestrations[0].tasks;
    expect(tasks.map((t: { id: string; status: string; reused?: boolean }) => [t.id, t.status, t.reused === true])).toEqual([['a', 'completed', true], ['b', 'completed', false], ['c', 'completed', false]]);
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b\n');
  }, 120_000);
});

describe.skipIf(!hasRedis)('seek batch', () => {
  it('runs one job per repository over five repositories: five branches, a bundle where the push is refused, progress and a JSON report', async () => {
    await startWorkers(3);
    route((req) => (req.turn === 0 ? write('NOTES.md', `notes by ${req.task}\n`) : { text: `wrote NOTES.md for ${req.task}` }));
    const repos = Array.from({ length: 5 }, () => makeRepository().bare);
    git(repos[4]!, 'branch', 'seek', 'main'); // refs/heads/seek blocks refs/heads/seek/batch/…: the push fails
    const list = join(tempDir('seek-batch-'), 'repos.txt');
    writeFileSync(list, `# the five\n${repos.join('\n')}\n`);
    const home = tempDir('seek-coordinator-');
    const run = await runSeek(['batch', '--queue', fleet.redis.url, '--repos', list, '--prompt', 'Write NOTES.md', '--yolo'], { cwd: home, env: coordinatorEnv(home), timeoutMs: 90_000 });
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

describe.skipIf(!hasRedis)('seek batch --plan', () => {
  it('runs the plan for every repository on the fleet and pushes each result branch', async () => {
    await startWorkers(2);
    route((req) => {
      if (req.task === 'add') return req.turn === 0 ? write('PLAN.md', 'planned\n') : { text: 'wrote PLAN.md' };
      return { text: `finding of ${req.task}` };
    });
    const repos = [makeRepository().bare, makeRepository().bare];
    const dir = tempDir('seek-batch-plan-');
    writeFileSync(join(dir, 'repos.txt'), `${repos.join('\n')}\n`);
    writeFileSync(join(dir, 'plan.yaml'), 'goal: Plan everywhere\ntasks:\n  - {id: look, role: explorer, task: Look}\n  - {id: add, role: editor, task: Write PLAN.md}\n');
    const run = await runSeek(['batch', '--queue', fleet.redis.url, '--repos', 'repos.txt', '--plan', 'plan.yaml', '--yolo'], { cwd: dir, env: coordinatorEnv(dir), timeoutMs: 90_000 });
    expect(run.stderr).not.toContain('failed');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    const branch = `seek/batch/${report.batch_id}`;
    expect(report.repos.map((r: { status: string; branch: string; pushed: boolean }) => [r.status, r.branch, r.pushed])).toEqual([['completed', branch, true], ['completed', branch, true]]);
    for (const bare of repos) {
      expect(git(bare, 'show', `${branch}:PLAN.md`)).toBe('planned\n');
      expect(git(bare, 'log', '--format=%s', '-1', branch)).toMatch(/^seek: merge worktree /); // merged back as a local plan merges
    }
    expect(suite.server.requests.filter((r) => view(r).task === 'look')).toHaveLength(2);
    expect(readdirSync(join(dir, 'fleet-batch', report.batch_id))).toEqual([]); // pushed clones are removed
  }, 120_000);
});

/** Every value in the test Redis, as text. */
async function redisDump(): Promise<string> {
  const client = fleet.redis.client;
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
