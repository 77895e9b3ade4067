/**
 * Retention of a worker's leftovers: checkouts a killed worker left under `<workdir>/jobs`, the
 * job sessions' transcripts under `$SEEK_HOME/projects/<pid>` (one project per checkout: its
 * manifest's path is under `<workdir>/jobs`), and repository mirrors under `<workdir>/mirrors`
 * no job used for a while. Each is removed once older than `keepMs`; a running job's checkout,
 * its transcripts and its mirror never are. A job is running while its checkout's marker
 * (`<workdir>/jobs/<name>.running`, written before the checkout and removed after it; see
 * checkout.ts) names a live process. The worker sweeps at start and between jobs; `seek gc
 * --workdir` sweeps from outside.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pruneAdminDirs } from './checkout-guard.js';

export const DEFAULT_KEEP_DAYS = 7;
export const MARKER_SUFFIX = '.running';
/** Written by a worker at start: `seek gc --workdir` cleans only a directory holding it. */
export const WORKDIR_MARK = '.seek-worker';
/** Touched whenever a job uses a mirror: its age is the time since. */
export const MIRROR_USED_FILE = 'seek-used';

export interface RunningMarker {
  pid: number;
  host: string;
  mirror: string;
}

export interface SweepOptions {
  workdir: string;
  /** The worker's SEEK_HOME (where its job sessions' transcripts are). */
  seekHome: string;
  keepMs: number;
  now?: Date;
  dryRun?: boolean;
}

export interface SweepReport {
  checkouts: string[];
  /** Project directories of job sessions (transcripts, subagent index). */
  transcripts: string[];
  mirrors: string[];
  /** Left because a job runs there (checkouts) or uses them (mirrors). */
  running: { checkouts: string[]; mirrors: string[] };
}

export async function sweepWorkdir(options: SweepOptions): Promise<SweepReport> {
  const workdir = resolve(options.workdir);
  const jobs = join(workdir, 'jobs');
  const cutoff = (options.now ?? new Date()).getTime() - options.keepMs;
  const report: SweepReport = { checkouts: [], transcripts: [], mirrors: [], running: { checkouts: [], mirrors: [] } };
  const remove = async (path: string): Promise<void> => {
    if (!options.dryRun) await rm(path, { recursive: true, force: true });
  };

  // Checkouts: a live marker keeps one; otherwise (a killed worker's) it goes once old enough.
  const entries = await listDir(jobs);
  const live = new Map<string, RunningMarker>();
  for (const name of entries.filter((entry) => entry.endsWith(MARKER_SUFFIX))) {
    const marker = await readMarker(join(jobs, name));
    const dir = join(jobs, name.slice(0, -MARKER_SUFFIX.length));
    if (marker && isAlive(marker)) live.set(dir, marker);
    else if (!existsSync(dir)) await remove(join(jobs, name));
  }
  for (const name of entries.filter((entry) => !entry.endsWith(MARKER_SUFFIX))) {
    const dir = join(jobs, name);
    // A bundle is a publishing job's temporary file: only ever removed while no job runs.
    if (name.endsWith('.bundle') && live.size > 0) continue;
    if (live.has(dir)) {
      report.running.checkouts.push(dir);
      continue;
    }
    if ((await newestChange(dir, false)) >= cutoff) continue;
    await remove(dir);
    await remove(`${dir}${MARKER_SUFFIX}`);
    report.checkouts.push(dir);
  }

  // Transcripts of job sessions, by the checkout their project was.
  const projects = join(options.seekHome, 'projects');
  const jobsReal = await realpath(jobs).catch(() => jobs);
  for (const pid of await listDir(projects)) {
    const dir = join(projects, pid);
    const recorded = await manifestPath(dir);
    // The session names its project by its real path; the workdir may be reached through a link.
    const path = recorded && isUnder(recorded, jobsReal) ? join(jobs, relative(jobsReal, recorded)) : recorded;
    if (!path || !isUnder(path, jobs)) continue;
    if (live.has(path)) continue;
    if ((await newestChange(dir, true)) >= cutoff) continue;
    await remove(dir);
    report.transcripts.push(dir);
  }

  // Mirrors no running job uses, with no checkout left, unused for long enough.
  const removed = new Set(report.checkouts);
  const inUse = new Set([...live.values()].map((marker) => resolve(marker.mirror)));
  for (const name of await listDir(join(workdir, 'mirrors'))) {
    const mirror = join(workdir, 'mirrors', name);
    if (inUse.has(mirror)) {
      report.running.mirrors.push(mirror);
      continue;
    }
    if (await hasCheckouts(mirror, removed)) continue;
    const used = existsSync(join(mirror, MIRROR_USED_FILE)) ? join(mirror, MIRROR_USED_FILE) : mirror;
    if ((await newestChange(used, false)) >= cutoff) continue;
    await remove(mirror);
    report.mirrors.push(mirror);
  }
  // Mirrors kept forget the worktrees removed above (by their known paths, not `git worktree
  // prune`, which follows what a job could have planted: checkout-guard.ts).
  if (!options.dryRun && report.checkouts.length > 0) {
    for (const name of await listDir(join(workdir, 'mirrors'))) await pruneAdminDirs(join(workdir, 'mirrors', name), jobs);
  }
  return report;
}

/** A marker names a live process: ours, or one running on this host (another host's cannot be
 * checked, so it counts as live). */
export function isAlive(marker: RunningMarker): boolean {
  if (marker.host !== hostname()) return true;
  try {
    process.kill(marker.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readMarker(file: string): Promise<RunningMarker | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<RunningMarker>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.mirror === 'string') return parsed as RunningMarker;
  } catch {
    // Half written or unreadable: not a live job's (a live one wrote it before its checkout).
  }
  return undefined;
}

async function manifestPath(projectDir: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await readFile(join(projectDir, 'manifest.json'), 'utf8')) as { abs_path?: unknown };
    return typeof manifest.abs_path === 'string' ? resolve(manifest.abs_path) : undefined;
  } catch {
    return undefined;
  }
}

function isUnder(path: string, dir: string): boolean {
  return path.startsWith(`${dir}${sep}`);
}

/** Whether a worktree of `mirror` still exists (other than those in `removed`). */
async function hasCheckouts(mirror: string, removed: ReadonlySet<string>): Promise<boolean> {
  for (const name of await listDir(join(mirror, 'worktrees'))) {
    const gitdir = await readFile(join(mirror, 'worktrees', name, 'gitdir'), 'utf8').catch(() => '');
    const checkout = dirname(gitdir.trim());
    if (gitdir.trim() !== '' && existsSync(checkout) && !removed.has(resolve(checkout))) return true;
  }
  return false;
}

/** The last change under `path`: its own mtime, or with `deep` the newest of every file below it. */
async function newestChange(path: string, deep: boolean): Promise<number> {
  let newest = 0;
  try {
    const info = await stat(path);
    newest = info.mtimeMs;
    if (!deep || !info.isDirectory()) return newest;
  } catch {
    return newest;
  }
  for (const name of await listDir(path)) newest = Math.max(newest, await newestChange(join(path, name), true));
  return newest;
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

export interface WorkerRetentionOptions {
  /** The worker's checkouts: sweeps run only while none is being prepared. */
  checkouts: { readonly workdir: string; exclusively<T>(sweep: () => Promise<T>): Promise<T | undefined> };
  seekHome: string;
  keepMs: number;
  /** Least time between two sweeps after jobs (SEEK_FLEET_SWEEP_MS; default an hour). */
  everyMs: number;
  log: (line: string) => void;
}

/** A worker's sweeps: one at start, then after a job ends when the last is `everyMs` old. */
export function workerRetention(options: WorkerRetentionOptions): { afterJob(): void; close(): Promise<void> } {
  let last = Number.NEGATIVE_INFINITY;
  let current: Promise<void> = Promise.resolve();
  const sweep = (): void => {
    last = Date.now();
    current = current.then(async () => {
      try {
        await mkdir(options.checkouts.workdir, { recursive: true });
        await writeFile(join(options.checkouts.workdir, WORKDIR_MARK), 'a seek worker workdir: mirrors/, jobs/ (seek gc --workdir cleans it)\n');
        const report = await options.checkouts.exclusively(() => sweepWorkdir({ workdir: options.checkouts.workdir, seekHome: options.seekHome, keepMs: options.keepMs }));
        if (report === undefined) last = Number.NEGATIVE_INFINITY; // a checkout was being prepared: after the next job
        else if (report.checkouts.length + report.transcripts.length + report.mirrors.length > 0) options.log(`cleaned up: ${sweepSummary(report)}`);
      } catch (error) {
        options.log(`could not clean up the workdir: ${(error as Error).message}`);
      }
    });
  };
  sweep();
  return {
    afterJob: () => {
      if (Date.now() - last >= options.everyMs) sweep();
    },
    close: () => current,
  };
}

/** "2 checkouts, 5 job transcripts and 1 mirror". */
export function sweepSummary(report: SweepReport): string {
  const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  return `${count(report.checkouts.length, 'checkout', 'checkouts')}, ${count(report.transcripts.length, 'job transcript', 'job transcripts')} and ${count(report.mirrors.length, 'mirror', 'mirrors')}`;
}
