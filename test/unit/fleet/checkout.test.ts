/**
 * A worker's checkouts with real git: one mirror per repository URL, reused between jobs (not
 * fetched again when it holds the job's base commit), a fresh worktree per attempt at the base,
 * removed after; an editor's commit pushed, or bundled when the push is refused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkouts } from '../../../src/fleet/checkout.js';
import { makeRepository } from '../../support/fleet.js';
import { tempDir } from '../../support/temp-dirs.js';

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

describe('worker checkouts', () => {
  it('reuses one mirror per repository and gives each attempt a clean worktree at the base commit', async () => {
    const { bare, clone } = makeRepository({ 'a.txt': 'one\n' });
    const base = git(clone, 'rev-parse', 'HEAD');
    const checkouts = new Checkouts(tempDir('seek-workdir-'));
    const first = await checkouts.prepare(bare, base, 'job.1', 1);
    expect(git(first.dir, 'rev-parse', 'HEAD')).toBe(base);
    writeFileSync(join(first.dir, 'a.txt'), 'dirty\n');
    await checkouts.remove(first);
    expect(existsSync(first.dir)).toBe(false);

    // The mirror holds the commit: the next job needs no fetch (the repository may even be gone).
    renameSync(bare, `${bare}.away`);
    const second = await checkouts.prepare(bare, base, 'job.2', 1);
    expect(second.mirror).toBe(first.mirror);
    expect(git(second.dir, 'show', 'HEAD:a.txt')).toBe('one');
    expect(git(second.dir, 'status', '--porcelain')).toBe('');
    await checkouts.remove(second);
    // A ref (the default branch) is fetched, so it needs the repository.
    await expect(checkouts.prepare(bare, undefined, 'job.3', 1)).rejects.toThrow(/git fetch failed/);
    renameSync(`${bare}.away`, bare);

    // New commits arrive with the next fetch of the same mirror.
    git(clone, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'two');
    git(clone, 'push', '-q', 'origin', 'main');
    const third = await checkouts.prepare(bare, undefined, 'job.3', 2);
    expect(third.base).toBe(git(clone, 'rev-parse', 'HEAD'));
    expect(third.mirror).toBe(first.mirror);
    await checkouts.remove(third);
  });

  it('publishes a commit on the branch, or a bundle of it when the repository refuses the push', async () => {
    const { bare } = makeRepository();
    const checkouts = new Checkouts(tempDir('seek-workdir-'));
    const work = await checkouts.prepare(bare, undefined, 'job.p', 1);
    expect(await checkouts.publish(work, bare, 'seek/fleet/p', 'nothing')).toBeUndefined(); // no change, no commit
    writeFileSync(join(work.dir, 'new.txt'), 'new\n');
    const pushed = (await checkouts.publish(work, bare, 'seek/fleet/p', 'seek: p'))!;
    expect(pushed).toMatchObject({ branch: 'seek/fleet/p', pushed: true });
    expect(git(bare, 'show', 'seek/fleet/p:new.txt')).toBe('new');
    await checkouts.remove(work);

    git(bare, 'branch', 'blocked', 'main');
    const again = await checkouts.prepare(bare, undefined, 'job.q', 1);
    writeFileSync(join(again.dir, 'other.txt'), 'other\n');
    const bundled = (await checkouts.publish(again, bare, 'blocked/x', 'seek: q'))!; // refs/heads/blocked is a file
    expect(bundled.pushed).toBe(false);
    expect(bundled.pushError).toBeTruthy();
    const file = join(tempDir('seek-bundle-'), 'q.bundle');
    writeFileSync(file, Buffer.from(bundled.bundle!, 'base64'));
    const target = makeRepository().clone;
    git(target, 'fetch', '-q', bare, 'main');
    git(target, 'fetch', '-q', file, 'refs/seek/bundle/blocked/x');
    expect(git(target, 'show', 'FETCH_HEAD:other.txt')).toBe('other');
    await checkouts.remove(again);
  });
});
