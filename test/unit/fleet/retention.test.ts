/**
 * Retention of a worker's workdir with real git checkouts: leftover checkouts of a dead worker,
 * job transcripts and unused mirrors older than the retention go; a running job's checkout, its
 * transcripts and its mirror stay, however old; nothing outside the worker's jobs is touched.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkouts } from '../../../src/fleet/checkout.js';
import { sweepWorkdir } from '../../../src/fleet/retention.js';
import { makeRepository } from '../../support/fleet.js';
import { tempDir } from '../../support/temp-dirs.js';

const DAY_MS = 24 * 3600_000;

/** Sets the modification time of `path` and everything below it `days` back. */
function age(path: string, days: number): void {
  const when = new Date(Date.now() - days * DAY_MS);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) age(join(path, name), days);
  utimesSync(path, when, when);
}

/** A job session's project directory as a worker's session leaves it (manifest, a transcript). */
function project(home: string, name: string, absPath: string): string {
  const dir = join(home, 'projects', name);
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ schema_version: 1, project_id: name, abs_path: absPath, first_seen: '', last_seen: '' }));
  writeFileSync(join(dir, 'sessions', 's.jsonl'), '{}\n');
  return dir;
}

describe('worker workdir retention', () => {
  it('removes what is old and not running, and never a running job\'s checkout, transcripts or mirror', async () => {
    const workdir = tempDir('seek-workdir-');
    const home = tempDir('seek-worker-home-');
    const checkouts = new Checkouts(workdir);
    const used = makeRepository();
    const unused = makeRepository();
    // A checkout a killed worker left (its marker names a process that is gone), and a running one.
    const dead = await checkouts.prepare(used.bare, undefined, 'job.dead', 1);
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid!;
    const marker = JSON.parse(readFileSync(`${dead.dir}.running`, 'utf8')) as { pid: number };
    writeFileSync(`${dead.dir}.running`, JSON.stringify({ ...marker, pid: deadPid }));
    const running = await checkouts.prepare(used.bare, undefined, 'job.running', 1);
    const idle = await checkouts.prepare(unused.bare, undefined, 'job.idle', 1);
    await checkouts.remove(idle);
    const transcripts = {
      dead: project(home, 'p-dead', dead.dir),
      running: project(home, 'p-running', running.dir),
      recent: project(home, 'p-recent', join(workdir, 'jobs', 'job.recent-1')),
      user: project(home, 'p-user', tempDir('seek-user-project-')),
    };
    for (const path of [dead.dir, running.dir, dead.mirror, idle.mirror, transcripts.dead, transcripts.running, transcripts.user]) age(path, 10);

    const dry = await sweepWorkdir({ workdir, seekHome: home, keepMs: 7 * DAY_MS, dryRun: true });
    expect(dry.checkouts).toEqual([dead.dir]);
    expect(dry.transcripts).toEqual([transcripts.dead]);
    expect(dry.mirrors).toEqual([idle.mirror]);
    expect(dry.running).toEqual({ checkouts: [running.dir], mirrors: [running.mirror] });
    for (const path of [dead.dir, transcripts.dead, idle.mirror]) expect(existsSync(path)).toBe(true);

    const swept = await sweepWorkdir({ workdir, seekHome: home, keepMs: 7 * DAY_MS });
    expect(swept).toEqual(dry);
    for (const path of [dead.dir, `${dead.dir}.running`, transcripts.dead, idle.mirror]) expect(existsSync(path), path).toBe(false);
    for (const path of [running.dir, `${running.dir}.running`, running.mirror, transcripts.running, transcripts.recent, transcripts.user]) expect(existsSync(path), path).toBe(true);
    // The kept mirror forgot the removed worktree; the running one still works.
    expect(spawnSync('git', ['worktree', 'list', '--porcelain'], { cwd: running.mirror, encoding: 'utf8' }).stdout).not.toContain('job.dead');
    expect(spawnSync('git', ['status', '--porcelain'], { cwd: running.dir, encoding: 'utf8' }).status).toBe(0);

    // Once the job ended, a zero retention takes the rest of the worker's, and still nothing else.
    await checkouts.remove(running);
    const rest = await sweepWorkdir({ workdir, seekHome: home, keepMs: 0, now: new Date(Date.now() + 1000) });
    expect(rest.transcripts.sort()).toEqual([transcripts.recent, transcripts.running].sort());
    expect(rest.mirrors).toEqual([running.mirror]);
    expect(readdirSync(join(workdir, 'jobs'))).toEqual([]);
    expect(existsSync(transcripts.user)).toBe(true);
  });

  it('does not sweep while a checkout is being prepared', async () => {
    const checkouts = new Checkouts(tempDir('seek-workdir-'));
    const { bare } = makeRepository();
    const preparing = checkouts.prepare(bare, undefined, 'job.a', 1);
    expect(await checkouts.exclusively(async () => 'swept')).toBeUndefined();
    const checkout = await preparing;
    expect(await checkouts.exclusively(async () => 'swept')).toBe('swept');
    await checkouts.remove(checkout);
  });
});
