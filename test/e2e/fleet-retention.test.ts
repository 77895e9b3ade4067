/**
 * A worker's leftovers end to end (real redis-server, `seek worker`, the scripted model): the
 * worker removes job transcripts past its retention between jobs, never a running job's; `seek gc
 * --workdir` cleans a worker's workdir from outside, leaving a running job's checkout, transcripts
 * and mirror alone, and refuses a directory that is not a worker's.
 */
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/scripted-server/index.js';
import { runSeek } from '../support/seek-process.js';
import { startWorker, until, type WorkerProcess } from '../support/fleet.js';
import { USAGE, useFleet, view, hasRedis } from '../support/fleet-suite.js';
import { tempDir } from '../support/temp-dirs.js';

const fleet = useFleet();
const { workers, startWorkers, project, coordinatorEnv } = fleet;
const suite = fleet.suite;

const requestsOf = (task: string): RecordedRequest[] => suite.server.requests.filter((r) => view(r).task === task);
const workdirOf = (worker: WorkerProcess): string => join(worker.home, 'work');
const homeOf = (worker: WorkerProcess): string => join(worker.home, 'seek');

/** The job sessions' project directories of a worker, by the checkout each was. */
function jobProjects(worker: WorkerProcess): Map<string, string> {
  const projects = join(homeOf(worker), 'projects');
  const found = new Map<string, string>();
  for (const pid of existsSync(projects) ? readdirSync(projects) : []) {
    const manifest = JSON.parse(readFileSync(join(projects, pid, 'manifest.json'), 'utf8')) as { abs_path: string };
    found.set(manifest.abs_path, join(projects, pid));
  }
  return found;
}

function age(path: string, days: number): void {
  const when = new Date(Date.now() - days * 24 * 3600_000);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) age(join(path, name), days);
  utimesSync(path, when, when);
}

async function oneWorker(args: string[], env: Record<string, string> = {}): Promise<WorkerProcess> {
  await startWorkers(0);
  const worker = await startWorker(fleet.redis.url, { DEEPSEEK_API_KEY: 'k', DEEPSEEK_BASE_URL: suite.server.url, SEEK_RETRY_BASE_MS: '1', ...env }, args);
  workers.push(worker);
  return worker;
}

const PLAN = 'goal: Two looks\ntasks:\n  - {id: a, role: explorer, task: Look one, depends_on: []}\n  - {id: b, role: explorer, task: Look two, depends_on: []}\n';

describe.skipIf(!hasRedis)('worker workdir retention', () => {
  it('removes a finished job\'s transcripts between jobs, and not those of a job still running', async () => {
    const worker = await oneWorker(['--concurrency', '2', '--keep-days', '0'], { SEEK_FLEET_SWEEP_MS: '1' });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    suite.server.setFallback(async (request) => {
      // a ends once b runs (its checkout made); b answers once the test saw the sweep after a.
      if (view(request).task === 'a') await until('job b to run', () => requestsOf('b').length > 0);
      if (view(request).task === 'b') await released;
      return { usage: USAGE, text: `done ${view(request).task}` };
    });
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), PLAN);
    const run = runSeek(['run', 'plan.yaml', '--yolo', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    await until('the sweep after job a', () => /cleaned up: 0 checkouts, 1 job transcript and 0 mirrors/.test(worker.log()));
    // b runs: its checkout, marker, transcripts and mirror are all there; a's transcripts are gone.
    const [checkoutB] = readdirSync(join(workdirOf(worker), 'jobs')).filter((name) => !name.endsWith('.running'));
    expect(checkoutB).toMatch(/\.b-1$/);
    const live = join(workdirOf(worker), 'jobs', checkoutB!);
    expect(existsSync(`${live}.running`)).toBe(true);
    expect([...jobProjects(worker).keys()]).toEqual([live]);
    expect(readdirSync(join(workdirOf(worker), 'mirrors'))).toHaveLength(1);
    release();
    const done = await run;
    expect(done.code, done.stdout).toBe(0);
    // After b, the next sweep takes b's transcripts too.
    await until('the sweep after job b', () => jobProjects(worker).size === 0);
    expect(readdirSync(join(workdirOf(worker), 'jobs'))).toEqual([]);
  }, 120_000);

  it('seek gc --workdir cleans a worker\'s workdir from outside, never what a running job uses', async () => {
    const worker = await oneWorker([]);
    await until('the worker to mark its workdir', () => existsSync(join(workdirOf(worker), '.seek-worker')));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    suite.server.setFallback(async (request) => {
      if (view(request).task === 'b') await released;
      return { usage: USAGE, text: `done ${view(request).task}` };
    });
    const { root, home } = project();
    writeFileSync(join(root, 'plan.yaml'), PLAN.replace(/, depends_on: \[\]/g, ''));
    const run = runSeek(['run', 'plan.yaml', '--yolo', '--queue', fleet.redis.url], { cwd: root, env: coordinatorEnv(home), timeoutMs: 90_000 });
    await until('job b to run', () => requestsOf('b').length > 0);
    const gcEnv = { SEEK_HOME: homeOf(worker) };
    const gc = (...args: string[]) => runSeek(['gc', '--workdir', workdirOf(worker), ...args], { cwd: worker.home, env: gcEnv });
    const projects = jobProjects(worker);
    const [checkoutA, checkoutB] = [...projects.keys()].sort();
    expect(checkoutA).toMatch(/\.a-1$/);

    // Everything counts as old, yet b's checkout, transcripts and mirror stay while it runs.
    const during = await gc('--older-than', '0', '--json');
    expect(during.code, during.stderr).toBe(0);
    const report = JSON.parse(during.stdout);
    const mirror = join(workdirOf(worker), 'mirrors', readdirSync(join(workdirOf(worker), 'mirrors'))[0]!);
    expect(report).toMatchObject({ dry_run: false, checkouts: [], transcripts: [projects.get(checkoutA!)], mirrors: [], running: { checkouts: [checkoutB], mirrors: [mirror] } });
    expect(existsSync(projects.get(checkoutA!)!)).toBe(false);
    for (const path of [checkoutB!, projects.get(checkoutB!)!, mirror]) expect(existsSync(path), path).toBe(true);
    release();
    const done = await run;
    expect(done.code, done.stdout).toBe(0);
    expect(await worker.stop('SIGTERM')).toBe(0);

    // With the worker stopped: nothing is 7 days old yet; once it is, b's transcripts and the mirror go.
    expect((await gc()).stdout).toContain('removed 0 checkouts, 0 job transcripts and 0 mirrors');
    age(projects.get(checkoutB!)!, 10);
    age(mirror, 10);
    const dry = await gc('--dry-run');
    expect(dry.stdout).toContain(`would remove job transcripts ${projects.get(checkoutB!)!}`);
    expect(dry.stdout).toContain(`would remove mirror ${mirror}`);
    expect(existsSync(mirror)).toBe(true);
    expect((await gc()).stdout).toContain('removed 0 checkouts, 1 job transcript and 1 mirror');
    expect(existsSync(mirror)).toBe(false);
    expect(jobProjects(worker).size).toBe(0);

    const elsewhere = tempDir('seek-not-a-workdir-');
    const refused = await runSeek(['gc', '--workdir', elsewhere], { cwd: elsewhere, env: gcEnv });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is not a seek worker's workdir");
  }, 120_000);
});
