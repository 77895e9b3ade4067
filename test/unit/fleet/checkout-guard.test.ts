/**
 * A job's checkout is the job's: the worker's own git there (publishing, merging inputs) names its
 * repository explicitly and refuses to run once the job changed the checkout's git pointers, so a
 * planted git directory's fsmonitor or clean filter never runs outside the sandbox. Real git, real
 * mirrors and worktrees; each planted program would write a marker file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkouts, type Checkout } from '../../../src/fleet/checkout.js';
import { CheckoutChanged, checkoutProblem, pruneAdminDirs } from '../../../src/fleet/checkout-guard.js';
import { makeRepository } from '../../support/fleet.js';
import { tempDir } from '../../support/temp-dirs.js';

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** A git directory in the checkout whose config runs programs that write markers: an fsmonitor
 * hook (run by every command that reads the index) and a clean filter (run by `git add`). */
function plantGitDir(checkout: string, markers: string): string {
  const planted = join(checkout, 'planted');
  git(checkout, 'init', '-q', '--template=', planted);
  writeFileSync(join(planted, 'inner.txt'), 'inner\n');
  git(planted, 'add', 'inner.txt');
  git(planted, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'inner');
  const config = join(planted, '.git', 'config');
  writeFileSync(config, `${readFileSync(config, 'utf8')}[core]\n\tfsmonitor = "touch ${join(markers, 'fsmonitor')}; false"\n[filter "evil"]\n\tclean = "touch ${join(markers, 'clean')}; cat"\n`);
  writeFileSync(join(checkout, '.gitattributes'), '* filter=evil\n');
  return join(planted, '.git');
}

async function fresh(jobId: string): Promise<{ checkouts: Checkouts; checkout: Checkout; bare: string; markers: string }> {
  const { bare } = makeRepository({ 'a.txt': 'one\n' });
  const checkouts = new Checkouts(tempDir('seek-workdir-'));
  const checkout = await checkouts.prepare(bare, undefined, jobId, 1);
  return { checkouts, checkout, bare, markers: tempDir('seek-markers-') };
}

describe('a job changing its checkout\'s git pointers', () => {
  it('a .git rewritten to a planted git directory: publishing refuses with the reason and runs nothing planted', async () => {
    const { checkouts, checkout, bare, markers } = await fresh('job.a');
    const planted = plantGitDir(checkout.dir, markers);
    writeFileSync(join(checkout.dir, '.git'), `gitdir: ${planted}\n`);
    writeFileSync(join(checkout.dir, 'work.txt'), 'work\n');

    const refused = checkouts.publish(checkout, bare, 'seek/fleet/a', 'seek: a');
    await expect(refused).rejects.toBeInstanceOf(CheckoutChanged);
    await expect(refused).rejects.toThrow(`the job's checkout .git was changed to point at ${planted}; refusing to run git there`);
    expect(existsSync(join(markers, 'fsmonitor'))).toBe(false);
    expect(existsSync(join(markers, 'clean'))).toBe(false);
    expect(git(bare, 'branch', '--list', 'seek/fleet/a')).toBe('');

    // Removal runs no git there either; the plant was live: plain git in the checkout runs it.
    const copy = tempDir('seek-plant-copy-');
    execFileSync('cp', ['-a', `${checkout.dir}/.`, copy]);
    writeFileSync(join(copy, '.git'), `gitdir: ${join(copy, 'planted', '.git')}\n`);
    await checkouts.remove(checkout);
    expect(existsSync(checkout.dir)).toBe(false);
    expect(existsSync(checkout.layout.gitDir)).toBe(false);
    expect(existsSync(join(markers, 'fsmonitor'))).toBe(false);
    execFileSync('git', ['add', '-A'], { cwd: copy, stdio: 'ignore' });
    expect(existsSync(join(markers, 'clean'))).toBe(true);
  });

  it('names each other change it refuses: a link, a directory, the admin directory\'s commondir or gitdir, a planted config.worktree or commondir', async () => {
    const { checkout } = await fresh('job.b');
    const { dir, layout } = checkout;
    const dotGit = join(dir, '.git');
    const original = readFileSync(dotGit, 'utf8');
    expect(await checkoutProblem(layout)).toBeUndefined();
    const changed = async (change: () => void, undo: () => void): Promise<string | undefined> => {
      change();
      try {
        return await checkoutProblem(layout);
      } finally {
        undo();
        expect(await checkoutProblem(layout)).toBeUndefined();
      }
    };
    const restoreDotGit = (): void => {
      rmSync(dotGit, { recursive: true, force: true });
      writeFileSync(dotGit, original);
    };
    expect(await changed(() => (rmSync(dotGit), symlinkSync(layout.gitDir, dotGit)), restoreDotGit)).toMatch(/checkout \.git was changed to a link to /);
    expect(await changed(() => (rmSync(dotGit), mkdirSync(dotGit)), restoreDotGit)).toMatch(/checkout \.git was replaced by a directory/);
    const other = tempDir('seek-other-git-');
    const pointer = (name: string, text: string) => {
      const file = join(layout.gitDir, name);
      const before = readFileSync(file, 'utf8');
      return [() => writeFileSync(file, text), () => writeFileSync(file, before)] as const;
    };
    expect(await changed(...pointer('commondir', `${other}\n`))).toBe(
      `the job's git directory ${layout.gitDir} was changed: its commondir points at ${other}, not the worker's mirror ${layout.commonDir}; refusing to run git there`,
    );
    expect(await changed(...pointer('gitdir', `${join(other, '.git')}\n`))).toMatch(/its gitdir points at .*, not the checkout /);
    for (const planted of [join(layout.gitDir, 'config.worktree'), join(layout.commonDir, 'config.worktree'), join(layout.commonDir, 'commondir')]) {
      expect(await changed(() => writeFileSync(planted, '[core]\n'), () => rmSync(planted))).toBe(`${planted} was planted (the worker never makes one); refusing to run git there`);
    }
    const worktrees = join(layout.commonDir, 'worktrees');
    const moved = () => (renameSync(worktrees, `${worktrees}.real`), symlinkSync(`${worktrees}.real`, worktrees));
    const back = () => (rmSync(worktrees), renameSync(`${worktrees}.real`, worktrees));
    expect(await changed(moved, back)).toMatch(/was moved or replaced; refusing to run git there/);
  });

  it('a .git in a subfolder (a nested repository with programs in its config) is never followed: publishing commits without running them', async () => {
    const { checkouts, checkout, bare, markers } = await fresh('job.c');
    plantGitDir(checkout.dir, markers); // planted/.git is a nested repository; the checkout's .git is untouched
    writeFileSync(join(checkout.dir, 'planted', 'inner.txt'), 'changed\n');
    writeFileSync(join(checkout.dir, 'work.txt'), 'work\n');
    const published = (await checkouts.publish(checkout, bare, 'seek/fleet/c', 'seek: c'))!;
    expect(published.pushed).toBe(true);
    expect(git(bare, 'show', 'seek/fleet/c:work.txt')).toBe('work');
    expect(existsSync(join(markers, 'fsmonitor'))).toBe(false);
    expect(existsSync(join(markers, 'clean'))).toBe(false);
    await checkouts.remove(checkout);
  });

  it('a mirror whose worktrees directory a job replaced by a link is moved aside and cloned again; pruning never follows the link', async () => {
    const { checkouts, checkout, bare } = await fresh('job.d');
    const victim = tempDir('seek-victim-');
    mkdirSync(join(victim, 'precious'));
    writeFileSync(join(victim, 'precious', 'file'), 'keep me\n');
    const worktrees = join(checkout.mirror, 'worktrees');
    renameSync(worktrees, `${worktrees}.moved`);
    symlinkSync(victim, worktrees);
    // `git worktree prune` would delete victim/precious (it has no gitdir file); the worker's own pruning does not.
    await pruneAdminDirs(checkout.mirror, join(checkouts.workdir, 'jobs'));
    expect(readFileSync(join(victim, 'precious', 'file'), 'utf8')).toBe('keep me\n');
    await expect(checkout.git.ok(['status'])).rejects.toThrow(/was moved or replaced; refusing to run git there/);
    await checkouts.remove(checkout);
    expect(existsSync(join(victim, 'precious', 'file'))).toBe(true);

    const next = await checkouts.prepare(bare, undefined, 'job.e', 1);
    expect(next.mirror).toBe(checkout.mirror);
    expect(git(next.dir, 'show', 'HEAD:a.txt')).toBe('one');
    expect(existsSync(join(next.mirror, 'worktrees', 'job.e-1'))).toBe(true);
    expect(readFileSync(join(victim, 'precious', 'file'), 'utf8')).toBe('keep me\n');
    await checkouts.remove(next);
  });
});
