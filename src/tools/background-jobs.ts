import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, constants, lstatSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandSpawn } from '../agent/types.js';
import { openInheritedFiles } from '../util/inherited-files.js';
import { signalCommandProcesses } from './process-group.js';

/**
 * Background jobs started by `bash` with `run_in_background: true`. Each runs detached in its own
 * process group with stdout and stderr written to one file in a private per-process temp
 * directory; the model reads that file with read_file. Jobs are killed, and that directory removed,
 * when this process exits (`killBackgroundJobs`, registered on `process.on('exit')` when the first
 * job starts).
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
/** Each job's environment tag, by job id. */
const jobTags = new Map<string, string>();
/** The sandbox audit of each running job, run at seek's exit if the job is still running then. */
const exitAudits = new Map<string, () => string[]>();
let nextJobNumber = 1;
let exitHookInstalled = false;

let outputDir: string | undefined;

/**
 * This process's private directory for job output files: made by mkdtemp (a fresh, unguessable
 * `$TMPDIR/seek-bg-<pid>-XXXXXX`, mode 0700), never a predictable name another user could have
 * created first or pointed elsewhere with a symlink. Created on first use, and again if it has
 * gone (a tmp cleaner) or is no longer a private directory of ours. A policy may treat reads
 * below it as reads of the session's own output.
 */
export function backgroundOutputDir(): string {
  if (outputDir === undefined || !isPrivateDirectory(outputDir)) {
    outputDir = mkdtempSync(path.join(tmpdir(), `seek-bg-${process.pid}-`));
  }
  return outputDir;
}

/** A real directory (not a symlink) owned by us that no one else can enter. */
function isPrivateDirectory(dir: string): boolean {
  try {
    const info = lstatSync(dir);
    const ownedByUs = process.getuid === undefined || info.uid === process.getuid();
    return info.isDirectory() && ownedByUs && (info.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

function appendToLog(file: string, notes: string[]): void {
  try {
    appendFileSync(file, notes.map((note) => `seek: ${note}\n`).join(''));
  } catch {
    // the log is gone (cleaned up with seek's exit)
  }
}

/** Creates a job's log file: exclusively (it must not exist), never through a symlink, mode 0600. */
function createLogFile(file: string): number {
  return openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
}

export interface StartBackgroundOptions {
  /** The command as the model wrote it (for listings). */
  command: string;
  /** What to start: `bash -c command`, possibly wrapped in the call's sandbox. */
  spawn: CommandSpawn;
  /** The environment tag `spawn` carries (see process-group.ts), so ending the job also ends
   * what it started outside its process group. */
  tag?: string;
}

/** Starts the job detached; resolves once it has spawned (or failed to). */
export function startBackgroundJob(options: StartBackgroundOptions): Promise<BackgroundJob> {
  const id = `bg-${nextJobNumber++}`;
  const outputFile = path.join(backgroundOutputDir(), `${id}.log`);
  const fd = createLogFile(outputFile);
  let inherited: ReturnType<typeof openInheritedFiles>;
  try {
    inherited = openInheritedFiles(options.spawn.inheritFiles);
  } catch (error) {
    closeSync(fd);
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return new Promise((resolve, reject) => {
    const child = spawn(options.spawn.file, options.spawn.args, {
      cwd: options.spawn.cwd,
      env: options.spawn.env,
      detached: true,
      stdio: ['ignore', fd, fd, ...inherited.fds],
    });
    inherited.close();
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
      if (options.tag !== undefined) jobTags.set(id, options.tag);
      if (options.spawn.afterExitSync) exitAudits.set(id, options.spawn.afterExitSync);
      child.once('exit', (code, signal) => {
        job.running = false;
        job.exitCode = code;
        job.exitSignal = signal;
        // The sandbox's audit of what the job left behind goes at the end of its log.
        exitAudits.delete(id);
        void options.spawn.afterExit?.().then((notes) => {
          if (notes.length > 0) appendToLog(outputFile, notes);
        });
      });
      child.unref(); // a background job never keeps seek alive
      installExitHook();
      resolve(job);
    });
  });
}

/** A foreground command moved to the background (Ctrl+B): seek keeps reading its pipes. */
export interface AdoptedJob {
  job: BackgroundJob;
  /** Appends output the command produced after the move. */
  write(text: string): void;
  /** The command's shell exited: the job is over (its log closed, the sandbox's audit appended). */
  exited(code: number | null, signal: NodeJS.Signals | null): void;
}

export interface AdoptOptions {
  command: string;
  pid: number;
  cwd: string;
  tag?: string;
  /** Output the command produced while it ran in the foreground (goes first in the log). */
  earlier: string;
  afterExit?: CommandSpawn['afterExit'];
  afterExitSync?: CommandSpawn['afterExitSync'];
}

/**
 * Registers a running foreground command as a background job: a log file like a started job's,
 * holding what it printed so far; `write` appends the rest. Listed, killed at seek's exit and at
 * a session's close exactly like a job started with run_in_background. Throws when the log cannot
 * be created.
 */
export function adoptBackgroundJob(options: AdoptOptions): AdoptedJob {
  const id = `bg-${nextJobNumber++}`;
  const outputFile = path.join(backgroundOutputDir(), `${id}.log`);
  let fd: number | undefined = createLogFile(outputFile);
  const job: BackgroundJob = { id, pid: options.pid, command: options.command, cwd: options.cwd, outputFile, startedAt: new Date(), exitCode: null, exitSignal: null, running: true };
  const write = (text: string): void => {
    if (fd === undefined || text === '') return;
    try {
      writeSync(fd, text);
    } catch {
      // the log is gone (seek is exiting)
    }
  };
  write(options.earlier);
  jobs.set(id, job);
  if (options.tag !== undefined) jobTags.set(id, options.tag);
  if (options.afterExitSync) exitAudits.set(id, options.afterExitSync);
  installExitHook();
  return {
    job,
    write,
    exited(code, signal) {
      if (!job.running) return;
      Object.assign(job, { running: false, exitCode: code, exitSignal: signal });
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      exitAudits.delete(id);
      const status = code !== null ? `exit code ${code}` : `terminated by signal ${signal ?? 'unknown'}`;
      appendToLog(outputFile, [`the command ended: ${status}`]);
      void options.afterExit?.().then((notes) => {
        if (notes.length > 0) appendToLog(outputFile, notes);
      });
    },
  };
}

/** Snapshots of every job started in this process, oldest first. */
export function listBackgroundJobs(): BackgroundJob[] {
  return [...jobs.values()].map((job) => ({ ...job }));
}

/**
 * Sends `signal` (default SIGTERM) to every job's process group and to the processes carrying its
 * tag (what it started with `setsid` and the like, even after the job's shell has exited).
 * Synchronous, so it is safe in a `process.on('exit')` handler. Returns how many jobs had
 * something to signal.
 */
export function killBackgroundJobs(signal: NodeJS.Signals = 'SIGTERM'): number {
  let count = 0;
  for (const job of jobs.values()) {
    // A job that has exited no longer owns its group number (it may be reused): only its tag counts.
    if (signalCommandProcesses(job.running ? job.pid : undefined, jobTags.get(job.id), signal)) count += 1;
  }
  return count;
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    killBackgroundJobs();
    // Jobs killed just now never report their exit: audit what they left behind here (a planted
    // `.git` must not outlive seek). The audit moves things aside; its lines go nowhere.
    for (const audit of exitAudits.values()) audit();
    exitAudits.clear();
    // The logs are private temp space: they go with the process (and the jobs) that made them.
    if (outputDir !== undefined) rmSync(outputDir, { recursive: true, force: true });
  });
}
