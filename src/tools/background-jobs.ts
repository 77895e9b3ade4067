import { spawn } from 'node:child_process';
import { mkdirSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandSpawn } from '../agent/types.js';
import { signalProcessGroup } from './process-group.js';

/**
 * Background jobs started by `bash` with `run_in_background: true`. Each runs detached in its own
 * process group with stdout and stderr appended to one file in a per-process temp directory; the
 * model reads that file with read_file. Jobs are killed when this process exits (see
 * `killBackgroundJobs`, also registered on `process.on('exit')` when the first job starts).
 */
export interface BackgroundJob {
  id: string;
  pid: number;
  command: string;
  cwd: string;
  outputFile: string;
  startedAt: Date;
  /** Null while running. */
  exitCode: number | null;
  /** Signal that ended the job, if any. */
  exitSignal: NodeJS.Signals | null;
  running: boolean;
}

const jobs = new Map<string, BackgroundJob>();
let nextJobNumber = 1;
let exitHookInstalled = false;

/** Directory for this process's job output files (created when the first job starts). A policy
 * may treat reads below it as reads of the session's own output. */
export function backgroundOutputDir(): string {
  return path.join(tmpdir(), `seek-bg-${process.pid}`);
}

export interface StartBackgroundOptions {
  /** The command as the model wrote it (for listings). */
  command: string;
  /** What to start: `bash -c command`, possibly wrapped in the call's sandbox. */
  spawn: CommandSpawn;
}

/** Starts the job detached; resolves once it has spawned (or failed to). */
export function startBackgroundJob(options: StartBackgroundOptions): Promise<BackgroundJob> {
  const id = `bg-${nextJobNumber++}`;
  mkdirSync(backgroundOutputDir(), { recursive: true });
  const outputFile = path.join(backgroundOutputDir(), `${id}.log`);
  const fd = openSync(outputFile, 'a');
  return new Promise((resolve, reject) => {
    const child = spawn(options.spawn.file, options.spawn.args, {
      cwd: options.spawn.cwd,
      env: options.spawn.env,
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    const closeFd = (): void => {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    };
    child.once('error', (error) => {
      closeFd();
      reject(error);
    });
    child.once('spawn', () => {
      closeFd(); // the child holds its own copy of the descriptor
      const job: BackgroundJob = {
        id,
        pid: child.pid!,
        command: options.command,
        cwd: options.spawn.cwd,
        outputFile,
        startedAt: new Date(),
        exitCode: null,
        exitSignal: null,
        running: true,
      };
      jobs.set(id, job);
      child.once('exit', (code, signal) => {
        job.running = false;
        job.exitCode = code;
        job.exitSignal = signal;
      });
      child.unref(); // a background job never keeps seek alive
      installExitHook();
      resolve(job);
    });
  });
}

/** Snapshots of every job started in this process, oldest first. */
export function listBackgroundJobs(): BackgroundJob[] {
  return [...jobs.values()].map((job) => ({ ...job }));
}

/**
 * Kills every running job's process group with `signal` (default SIGTERM). Synchronous, so it is
 * safe in a `process.on('exit')` handler. Returns how many jobs were signalled.
 */
export function killBackgroundJobs(signal: NodeJS.Signals = 'SIGTERM'): number {
  let count = 0;
  for (const job of jobs.values()) {
    if (job.running && signalProcessGroup(job.pid, signal)) count += 1;
  }
  return count;
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => killBackgroundJobs());
}
