import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BackgroundJob } from '../../../src/tools/background-jobs.js';

type JobsModule = typeof import('../../../src/tools/background-jobs.js');

/** Our own TMPDIR, so the "attacker's" entries never touch the real /tmp. */
let fakeTmp: string;
const savedTmpdir = process.env.TMPDIR;
const loaded: JobsModule[] = [];

beforeAll(() => {
  fakeTmp = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-fake-tmp-')));
  process.env.TMPDIR = fakeTmp;
});
afterEach(() => {
  for (const jobs of loaded.splice(0)) jobs.killBackgroundJobs('SIGKILL');
});
afterAll(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(fakeTmp, { recursive: true, force: true });
});

/** A fresh copy of the module (its output directory is chosen once per process). */
async function freshJobsModule(): Promise<JobsModule> {
  vi.resetModules();
  const jobs = await import('../../../src/tools/background-jobs.js');
  loaded.push(jobs);
  return jobs;
}

async function startEcho(jobs: JobsModule): Promise<BackgroundJob> {
  return jobs.startBackgroundJob({ command: 'echo ready', spawn: { file: 'bash', args: ['-c', 'echo ready'], cwd: fakeTmp, env: process.env } });
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The job's output went to a private directory of ours, in a file only we can read. */
function expectPrivate(job: BackgroundJob, hostile: string): void {
  const dir = path.dirname(job.outputFile);
  expect(dir.startsWith(`${hostile}${path.sep}`)).toBe(false);
  expect(dir).not.toBe(hostile);
  expect(path.dirname(dir)).toBe(fakeTmp);
  const dirInfo = lstatSync(dir);
  expect(dirInfo.isDirectory()).toBe(true);
  expect(dirInfo.mode & 0o777).toBe(0o700);
  const fileInfo = lstatSync(job.outputFile);
  expect(fileInfo.isFile()).toBe(true);
  expect(fileInfo.mode & 0o777).toBe(0o600);
}

describe('background job output directory', () => {
  it('does not use a pre-created, world-writable $TMPDIR/seek-bg-<pid> directory', async () => {
    const hostile = path.join(fakeTmp, `seek-bg-${process.pid}`);
    mkdirSync(hostile);
    chmodSync(hostile, 0o777);
    const decoy = path.join(fakeTmp, 'decoy.log');
    symlinkSync(decoy, path.join(hostile, 'bg-1.log')); // where the log used to go
    const jobs = await freshJobsModule();
    const job = await startEcho(jobs);
    expectPrivate(job, hostile);
    await waitFor(() => readFileSync(job.outputFile, 'utf8') === 'ready\n');
    expect(readdirSync(hostile)).toEqual(['bg-1.log']);
    expect(() => lstatSync(decoy)).toThrow(/ENOENT/);
    rmSync(hostile, { recursive: true, force: true });
  });

  it('does not follow a $TMPDIR/seek-bg-<pid> symlink to another directory', async () => {
    const hostile = path.join(fakeTmp, `seek-bg-${process.pid}`);
    const elsewhere = mkdtempSync(path.join(fakeTmp, 'elsewhere-'));
    symlinkSync(elsewhere, hostile);
    const jobs = await freshJobsModule();
    const job = await startEcho(jobs);
    expectPrivate(job, hostile);
    expect(readdirSync(elsewhere)).toEqual([]);
    rmSync(hostile, { force: true });
  });

  it('makes a new private directory when its own was removed and replaced by a symlink', async () => {
    const jobs = await freshJobsModule();
    const first = await startEcho(jobs);
    const ownDir = path.dirname(first.outputFile);
    rmSync(ownDir, { recursive: true, force: true }); // a tmp cleaner…
    const elsewhere = mkdtempSync(path.join(fakeTmp, 'elsewhere-'));
    symlinkSync(elsewhere, ownDir); // …and someone taking the freed name
    const second = await startEcho(jobs);
    expectPrivate(second, ownDir);
    expect(readdirSync(elsewhere)).toEqual([]);
    rmSync(ownDir, { force: true });
  });
});
