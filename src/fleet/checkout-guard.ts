/**
 * Nothing in a job's checkout is trusted. The job writes its checkout (its file tools in seek's
 * own process, its `--auto` commands in the OS sandbox), and a sandboxed command may also write
 * the checkout's git directories: the worktree's admin directory under `<mirror>/worktrees/` and
 * parts of the mirror itself (sandbox/git-layout.ts says which). Git follows pointers there: the
 * checkout's `.git` file names the admin directory, whose `commondir` names the repository whose
 * config (fsmonitor, filters, hooks path) git obeys, and `gitdir` points back. A job that rewrote
 * one could make the worker's own, unsandboxed git run a program it planted.
 *
 * So the worker (checkout.ts, git.ts):
 *  - names the repository explicitly on every git call in a checkout (GIT_DIR = the admin
 *    directory it created, GIT_COMMON_DIR = its mirror, GIT_WORK_TREE = the checkout), so git
 *    follows none of those pointers, nor a `.git` in a subfolder;
 *  - records where `git worktree add` put the admin directory (before the job runs) and, before
 *    every git call in the checkout, checks the pointers are still what it created
 *    (`verifyCheckout`): a job that changed them fails, with the reason, and no git runs there;
 *  - never runs `git worktree prune` or `remove`, which follow `worktrees/` and `gitdir` files a job
 *    could have replaced (a `worktrees` symlink makes prune delete directories anywhere): it removes
 *    its own worktrees by their known paths (`removeAdminDir`, `pruneAdminDirs`).
 * Every path compared is a real path; a symbolic link where the worker made a file or directory
 * counts as a change.
 */
import { lstat, readdir, readFile, readlink, realpath, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Where a checkout's git directories are: what the worker created, as real paths. */
export interface CheckoutLayout {
  /** The job's working tree. */
  dir: string;
  /** The worktree's admin directory, `<mirror>/worktrees/<name>`. */
  gitDir: string;
  /** The worker's mirror: the common git directory. */
  commonDir: string;
}

/** A job changed its checkout's git pointers: the job fails, no git runs there. */
export class CheckoutChanged extends Error {
  override readonly name = 'CheckoutChanged';
}

const REFUSE = 'refusing to run git there';

/**
 * The layout `git worktree add` just wrote for `dir` (before the job ran, so what it says is the
 * worker's). Throws CheckoutChanged when the admin directory is not directly in the mirror's own
 * `worktrees` directory (an earlier job replaced it, or the mirror, by a link).
 */
export async function recordLayout(dir: string, mirror: string): Promise<CheckoutLayout> {
  const realDir = await realpath(dir);
  const commonDir = await realpath(mirror);
  const pointer = await gitdirPointer(realDir);
  const gitDir = pointer.target === undefined ? undefined : await realOrSelf(pointer.target);
  const expected = gitDir === undefined ? undefined : join(commonDir, 'worktrees', basename(gitDir));
  if (gitDir === undefined || gitDir !== expected || !(await isPlainDirectory(join(commonDir, 'worktrees')))) {
    throw new CheckoutChanged(`the new checkout's git directory (${gitDir ?? pointer.text}) is not in the mirror's worktrees directory ${join(commonDir, 'worktrees')}; ${REFUSE}`);
  }
  return { dir: realDir, gitDir, commonDir };
}

/** Throws CheckoutChanged unless the checkout's `.git`, its admin directory and the mirror still
 * point where the worker left them. */
export async function verifyCheckout(layout: CheckoutLayout): Promise<void> {
  const problem = await checkoutProblem(layout);
  if (problem !== undefined) throw new CheckoutChanged(problem);
}

/** What a job changed in the layout, as the reason its job fails; undefined when nothing. */
export async function checkoutProblem(layout: CheckoutLayout): Promise<string | undefined> {
  const { dir, gitDir, commonDir } = layout;
  const pointer = await gitdirPointer(dir);
  if (pointer.target === undefined) return `the job's checkout .git ${pointer.text}; ${REFUSE}`;
  // The admin directory and the mirror: where the worker made them, no link on the way.
  if (!(await isPlainDirectory(gitDir)) || (await realOrSelf(gitDir)) !== gitDir || !(await isPlainDirectory(join(commonDir, 'worktrees')))) {
    return `the job's git directory ${gitDir} was moved or replaced; ${REFUSE}`;
  }
  if ((await realOrSelf(pointer.target)) !== gitDir) return `the job's checkout .git was changed to point at ${pointer.target}; ${REFUSE}`;
  const common = await pointerFile(gitDir, 'commondir');
  if (common === undefined || (await realOrSelf(common)) !== commonDir) {
    return `the job's git directory ${gitDir} was changed: its commondir points at ${common ?? 'nothing'}, not the worker's mirror ${commonDir}; ${REFUSE}`;
  }
  const back = await pointerFile(gitDir, 'gitdir');
  if (back === undefined || (await realOrSelf(back)) !== join(dir, '.git')) {
    return `the job's git directory ${gitDir} was changed: its gitdir points at ${back ?? 'nothing'}, not the checkout ${join(dir, '.git')}; ${REFUSE}`;
  }
  // Names the worker never creates there, each a way to change what git reads or where.
  for (const planted of [join(gitDir, 'config.worktree'), join(commonDir, 'config.worktree'), join(commonDir, 'commondir')]) {
    if (await exists(planted)) return `${planted} was planted (the worker never makes one); ${REFUSE}`;
  }
  return undefined;
}

/** What is wrong with a mirror a job could have written, before the worker uses it again: a
 * `commondir` or `config.worktree` planted in it, or its `worktrees` directory replaced. */
export async function mirrorProblem(mirror: string): Promise<string | undefined> {
  for (const name of ['commondir', 'config.worktree']) {
    if (await exists(join(mirror, name))) return `${join(mirror, name)} was planted`;
  }
  if ((await exists(join(mirror, 'worktrees'))) && !(await isPlainDirectory(join(mirror, 'worktrees')))) return `${join(mirror, 'worktrees')} is not a directory`;
  return undefined;
}

/** Removes a checkout's admin directory by its known path, only while it is still that directory
 * (the mirror's `worktrees` not replaced by a link since). Never throws. */
export async function removeAdminDir(layout: CheckoutLayout): Promise<void> {
  const parent = dirname(layout.gitDir);
  if (!(await isPlainDirectory(parent)) || (await realOrSelf(parent)) !== parent) return;
  if (!(await isPlainDirectory(layout.gitDir))) {
    await rm(layout.gitDir, { force: true }).catch(() => undefined); // a link planted in its place: the link only
    return;
  }
  await rm(layout.gitDir, { recursive: true, force: true }).catch(() => undefined);
}

/**
 * What `git worktree prune` does for the worker's own checkouts, without following what a job
 * could have planted: the admin directories of `mirror` whose checkout (under `jobsDir`) is gone
 * are removed. Anything else in `worktrees/` stays; a `worktrees` that is not a plain directory is
 * left alone. Never throws.
 */
export async function pruneAdminDirs(mirror: string, jobsDir: string): Promise<void> {
  const worktrees = join(mirror, 'worktrees');
  try {
    const real = join(await realpath(mirror), 'worktrees');
    if (!(await isPlainDirectory(worktrees)) || (await realpath(worktrees)) !== real) return;
    const jobs = await realOrSelf(jobsDir);
    for (const name of await readdir(real)) {
      const admin = join(real, name);
      if (!(await isPlainDirectory(admin))) continue;
      const back = await pointerFile(admin, 'gitdir');
      if (back === undefined || dirname(dirname(back)) !== jobs || (await exists(dirname(back)))) continue;
      await removeAdminDir({ dir: dirname(back), gitDir: admin, commonDir: dirname(real) });
    }
  } catch {
    // Nothing to prune, or the mirror is going away.
  }
}

/** The target of the `gitdir:` line in `<dir>/.git`, when `.git` is a plain file holding one; else
 * what it is instead (for the reason a job fails). */
async function gitdirPointer(dir: string): Promise<{ target?: string; text: string }> {
  const dotGit = join(dir, '.git');
  let info;
  try {
    info = await lstat(dotGit);
  } catch {
    return { text: 'was removed' };
  }
  if (info.isSymbolicLink()) return { text: `was changed to a link to ${await readlink(dotGit).catch(() => '?')}` };
  if (!info.isFile()) return { text: 'was replaced by a directory' };
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''));
  return match ? { target: resolve(dir, match[1]!), text: match[1]! } : { text: 'no longer names a git directory' };
}

/** The path a pointer file in `gitDir` (`commondir`, `gitdir`) names, resolved against `gitDir`
 * as git resolves it; undefined when it is missing, a link or empty. */
async function pointerFile(gitDir: string, name: string): Promise<string | undefined> {
  const file = join(gitDir, name);
  try {
    if (!(await lstat(file)).isFile()) return undefined;
    const text = (await readFile(file, 'utf8')).trim();
    return text === '' ? undefined : resolve(gitDir, text);
  } catch {
    return undefined;
  }
}

async function isPlainDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function realOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}
