/**
 * A worker's checkouts. Each repository URL gets one bare mirror under `<workdir>/mirrors`
 * (cloned once, fetched before every job, so jobs on the same repository share its objects); each
 * attempt of a job gets a fresh detached worktree of that mirror at the job's base commit under
 * `<workdir>/jobs`, removed afterwards. A retried job therefore starts from a clean checkout.
 * An editor's changes become one commit pushed to the job's repository, or a git bundle when the
 * push fails. One workdir belongs to one worker process (jobs of that process share mirrors).
 *
 * The job owns what is in its checkout, not the worker: every git call there goes through the
 * checkout's own runner (`Checkout.git`), which names the repository explicitly and refuses to run
 * once the job changed the checkout's git pointers (checkout-guard.ts). A mirror a job changed is
 * moved aside and cloned again.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { mirrorProblem, pruneAdminDirs, recordLayout, removeAdminDir, verifyCheckout, type CheckoutLayout } from './checkout-guard.js';
import { gitIn, mirrorGit, placeGit, type FleetGit } from './git.js';
import { MARKER_SUFFIX, MIRROR_USED_FILE, type RunningMarker } from './retention.js';

export interface Checkout {
  dir: string;
  mirror: string;
  /** The commit it starts at. */
  base: string;
  /** Its git directories as the worker created them. */
  layout: CheckoutLayout;
  /** git in this checkout: the repository named explicitly, the layout verified before each call. */
  git: FleetGit;
}

/** git in a job's checkout: GIT_DIR, GIT_COMMON_DIR and GIT_WORK_TREE are the worker's, and every
 * call first checks the job left them alone (checkout-guard.ts). */
export function checkoutGit(layout: CheckoutLayout): FleetGit {
  return placeGit({
    cwd: layout.dir,
    env: { GIT_DIR: layout.gitDir, GIT_COMMON_DIR: layout.commonDir, GIT_WORK_TREE: layout.dir },
    guard: () => verifyCheckout(layout),
  });
}

export interface Published {
  sha: string;
  branch: string;
  pushed: boolean;
  pushError?: string;
  bundle?: string;
}

export class Checkouts {
  /** Mirror updates of one repository run one at a time (a clone must not race a fetch): the one
   * running, and the one that will run after it, which every job arriving meanwhile shares (it
   * starts after they arrived, so it brings what they need; a burst of jobs costs two fetches). */
  private readonly mirrorLocks = new Map<string, Promise<unknown>>();
  private readonly nextUpdate = new Map<string, Promise<void>>();
  private readonly pruned = new Set<string>();
  private readonly worktreeTurns = new Map<string, Promise<unknown>>();
  /** Retention sweeps (retention.ts) run alone: never while a checkout is being prepared. */
  private preparing = 0;
  private sweeping: Promise<unknown> | undefined;

  constructor(
    readonly workdir: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  mirrorOf(url: string): string {
    return join(this.workdir, 'mirrors', createHash('sha256').update(url).digest('hex').slice(0, 16));
  }

  /** A fresh worktree for one attempt of `jobId` at `base` (default: the repository's HEAD). Its
   * running marker is written first and removed last (see remove), so a retention sweep leaves
   * the checkout, its transcripts and its mirror alone while the job runs. */
  async prepare(url: string, base: string | undefined, jobId: string, attempt: number): Promise<Checkout> {
    while (this.sweeping) await this.sweeping;
    this.preparing++;
    try {
      const mirror = this.mirrorOf(url);
      const jobs = join(this.workdir, 'jobs');
      const dir = join(jobs, `${jobId.replace(/[^A-Za-z0-9_.-]/g, '_')}-${attempt}`);
      await mkdir(jobs, { recursive: true });
      await writeFile(`${dir}${MARKER_SUFFIX}`, JSON.stringify({ pid: process.pid, host: hostname(), mirror } satisfies RunningMarker));
      await this.discardIfChanged(mirror);
      // A commit the mirror already holds needs no fetch; a ref or the default branch does.
      const known = base !== undefined && /^[0-9a-f]{40}$/.test(base) && (await this.holds(url, base));
      if (!known) await this.updateMirror(url);
      await writeFile(join(mirror, MIRROR_USED_FILE), `${new Date().toISOString()}\n`);
      const sha = (await mirrorGit(mirror).ok(['rev-parse', '--verify', `${base ?? 'HEAD'}^{commit}`])).trim();
      return await this.serially(mirror, async () => {
        if (existsSync(dir)) {
          // A leftover of a killed worker with this workdir.
          await rm(dir, { recursive: true, force: true });
          await pruneAdminDirs(mirror, jobs);
        }
        await mirrorGit(mirror).ok(['worktree', 'add', '--detach', dir, sha]);
        try {
          const layout = await recordLayout(dir, mirror);
          return { dir, mirror, base: sha, layout, git: checkoutGit(layout) };
        } catch (error) {
          await rm(dir, { recursive: true, force: true });
          throw error;
        }
      });
    } finally {
      this.preparing--;
    }
  }

  /** Runs `sweep` unless a checkout is being prepared or another sweep runs (then undefined);
   * checkouts asked for meanwhile wait for it. */
  async exclusively<T>(sweep: () => Promise<T>): Promise<T | undefined> {
    if (this.preparing > 0 || this.sweeping) return undefined;
    const running = sweep();
    this.sweeping = running.catch(() => undefined);
    try {
      return await running;
    } finally {
      this.sweeping = undefined;
    }
  }

  /** Worktree additions and removals of one mirror one at a time: concurrent ones (jobs of one
   * repository on a worker with several slots) race on the mirror's shared files. */
  private serially<T>(mirror: string, step: () => Promise<T>): Promise<T> {
    const turn = (this.worktreeTurns.get(mirror) ?? Promise.resolve()).then(step);
    this.worktreeTurns.set(mirror, turn.catch(() => undefined));
    return turn;
  }

  /** A mirror a job changed (checkout-guard.ts `mirrorProblem`) is moved aside, so the next update
   * clones the repository again; jobs still working in it fail their own checks. Retention removes
   * the moved one later. */
  private async discardIfChanged(mirror: string): Promise<void> {
    const problem = await mirrorProblem(mirror);
    if (problem === undefined) return;
    const aside = `${mirror}.changed-${Date.now()}`;
    await rename(mirror, aside).catch(() => undefined); // another job may have moved it already
    this.pruned.delete(mirror);
    this.log(`mirror ${mirror} was changed by a job (${problem}); moved to ${aside}, cloning it again`);
  }

  private async holds(url: string, sha: string): Promise<boolean> {
    const mirror = this.mirrorOf(url);
    if (!existsSync(join(mirror, 'HEAD'))) return false;
    await this.mirrorLocks.get(mirror)?.catch(() => undefined);
    return (await mirrorGit(mirror).run(['cat-file', '-e', `${sha}^{commit}`])).code === 0;
  }

  private async updateMirror(url: string): Promise<string> {
    const mirror = this.mirrorOf(url);
    const queued = this.nextUpdate.get(mirror);
    if (queued) {
      await queued;
      return mirror;
    }
    const previous = this.mirrorLocks.get(mirror) ?? Promise.resolve();
    const update = previous.catch(() => undefined).then(async () => {
      this.nextUpdate.delete(mirror); // running now: later arrivals queue the next one
      if (existsSync(join(mirror, 'HEAD'))) {
        await mirrorGit(mirror).ok(['fetch', '--prune', '--quiet', 'origin']);
      } else {
        await mkdir(join(this.workdir, 'mirrors'), { recursive: true });
        await rm(mirror, { recursive: true, force: true });
        await gitIn(join(this.workdir, 'mirrors')).ok(['clone', '--mirror', '--quiet', url, mirror]);
      }
      // Once per process: forget worktrees of a killed worker that used this workdir before.
      if (!this.pruned.has(mirror)) {
        this.pruned.add(mirror);
        await this.serially(mirror, () => pruneAdminDirs(mirror, join(this.workdir, 'jobs')));
      }
    });
    this.mirrorLocks.set(mirror, update);
    this.nextUpdate.set(mirror, update);
    await update;
    return mirror;
  }

  /**
   * Commits everything the task changed (new files too) and pushes it to `branch` of `url`; a
   * bundle of the commit stands in when the push fails. Undefined when nothing changed. Throws
   * CheckoutChanged (checkout-guard.ts) when the job changed the checkout's git pointers.
   */
  async publish(checkout: Checkout, url: string, branch: string, message: string): Promise<Published | undefined> {
    const { git } = checkout;
    await git.ok(['add', '-A']);
    if ((await git.run(['diff', '--cached', '--quiet'])).code === 0) return undefined;
    const named = (await git.run(['config', 'user.email'])).stdout.trim() !== '';
    const identity = named ? [] : ['-c', 'user.name=seek worker', '-c', 'user.email=seek-worker@localhost'];
    await git.ok([...identity, 'commit', '-q', '--no-verify', '-m', message]);
    const sha = (await git.ok(['rev-parse', 'HEAD'])).trim();
    const push = await git.run(['push', '--quiet', '--force', url, `${sha}:refs/heads/${branch}`]);
    if (push.code === 0) return { sha, branch, pushed: true };
    // Not pushable (read-only URL, no rights): the commit travels in the result as a bundle.
    const ref = `refs/seek/bundle/${branch}`;
    await git.ok(['update-ref', ref, sha]);
    const file = join(this.workdir, 'jobs', `${sha}.bundle`);
    try {
      await git.ok(['bundle', 'create', '--quiet', file, ref, `^${checkout.base}`]);
      const bundle = (await readFile(file)).toString('base64');
      return { sha, branch, pushed: false, pushError: push.stderr.trim().split('\n')[0] ?? 'push failed', bundle };
    } finally {
      await rm(file, { force: true });
      await git.run(['update-ref', '-d', ref]).catch(() => undefined);
    }
  }

  /** Removes an attempt's worktree (the checkout, then its admin directory, by their known paths:
   * no git runs in a checkout the job may have changed), then its running marker. Never throws. */
  async remove(checkout: Checkout): Promise<void> {
    await this.serially(checkout.mirror, async () => {
      await rm(checkout.dir, { recursive: true, force: true }).catch(() => undefined);
      await removeAdminDir(checkout.layout);
    }).catch(() => undefined);
    await rm(`${checkout.dir}${MARKER_SUFFIX}`, { force: true }).catch(() => undefined);
  }
}
