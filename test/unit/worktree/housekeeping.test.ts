import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatAge, parseDuration } from '../../../src/worktree/housekeeping.js';
import { WorktreeError } from '../../../src/worktree/manager.js';
import { discardedRefTime, formatPruneMessage } from '../../../src/worktree/rescue.js';
import { git, head, makeProject, refs, writeFiles } from './helpers.js';

const HOUR = 3_600_000;

function stamp(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
}

describe('gc of discarded refs', () => {
  it('prunes by the age in the ref name, skipping malformed names; 0 prunes all', async () => {
    const now = new Date('2025-06-10T12:00:00Z');
    const { root, make } = makeProject();
    const manager = make({ clock: () => now });
    const sha = head(root);
    const old = `refs/seek/discarded/${stamp(new Date(now.getTime() - 72 * HOUR))}`;
    const oldSuffixed = `${old}-2`;
    const recent = `refs/seek/discarded/${stamp(new Date(now.getTime() - 1 * HOUR))}`;
    const malformed = ['refs/seek/discarded/not-a-time', 'refs/seek/discarded/20251399-000000'];
    for (const ref of [old, oldSuffixed, recent, ...malformed]) git(root, 'update-ref', ref, sha);

    expect(await manager.gc()).toBe(2);
    expect(refs(root, 'refs/seek/discarded/').sort()).toEqual([recent, ...malformed].sort());
    expect(await manager.gc({ olderThanMs: 2 * HOUR })).toBe(0);
    expect(await manager.gc({ olderThanMs: 0 })).toBe(1);
    expect(refs(root, 'refs/seek/discarded/').sort()).toEqual([...malformed].sort());
  });

  it('formats the messages like the original and parses names', () => {
    expect(formatPruneMessage(0)).toBe('no discarded refs to prune');
    expect(formatPruneMessage(1)).toBe('pruned 1 discarded ref');
    expect(formatPruneMessage(3)).toBe('pruned 3 discarded refs');
    expect(discardedRefTime('refs/seek/discarded/20250102-030405')).toBe(Date.UTC(2025, 0, 2, 3, 4, 5));
    expect(discardedRefTime('refs/seek/discarded/20250102-030405-7')).toBe(Date.UTC(2025, 0, 2, 3, 4, 5));
    expect(discardedRefTime('refs/seek/discarded/20250230-000000')).toBeUndefined();
    expect(discardedRefTime('refs/seek/discarded/2025010-030405')).toBeUndefined();
    expect(parseDuration('48h')).toBe(48 * HOUR);
    expect(parseDuration('1h30m')).toBe(1.5 * HOUR);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('soon')).toBeUndefined();
    expect(formatAge('2025-01-01T00:00:00Z', new Date('2025-01-03T01:00:00Z'))).toBe('2d');
  });
});

describe('list, housekeeping, remove', () => {
  it('lists newest first with changes and owner, and reports a missing directory and an unregistered one', async () => {
    let tick = Date.parse('2025-01-01T00:00:00Z');
    const { root, make } = makeProject();
    const manager = make({ clock: () => new Date((tick += 1000)) });
    const older = await manager.create({ ownerSubSid: '20250101-000000-aaaaaa' });
    const newer = await manager.create();
    const gone = await manager.create();
    writeFiles(newer.path, { 'x.txt': 'x\n', 'a.txt': 'changed\n' });
    rmSync(gone.path, { recursive: true, force: true });
    const stray = join(manager.worktreesDir, '20240101-000000-ffffff');
    mkdirSync(stray);

    const listed = await manager.list();
    expect(listed.map((row) => row.id)).toEqual([gone.id, newer.id, older.id, '20240101-000000-ffffff']);
    expect(listed[0]).toMatchObject({ id: gone.id, changes: undefined, problem: 'missing_directory', branch: gone.branch });
    expect(listed[1]).toMatchObject({ id: newer.id, path: newer.path, branch: newer.branch, changes: 2 });
    expect(listed[1]!.problem).toBeUndefined();
    expect(listed[2]).toMatchObject({ id: older.id, changes: 0, ownerSubSid: '20250101-000000-aaaaaa', createdAt: '2025-01-01T00:00:01.000Z' });
    expect(listed[3]).toMatchObject({ problem: 'not_registered', changes: undefined, createdAt: '2024-01-01T00:00:00.000Z' });

    const report = await manager.housekeep();
    expect(report.skipped).toBe(false);
    expect(report.problems.map((row) => [row.id, row.problem])).toEqual([
      [gone.id, 'missing_directory'],
      ['20240101-000000-ffffff', 'not_registered'],
    ]);
    const notices = await manager.startupHousekeeping();
    expect(notices[0]).toContain(`seek worktree remove ${gone.id}`);
    expect(notices[1]).toContain('seek worktree remove 20240101-000000-ffffff --discard');
    // Reported, never removed.
    expect(existsSync(stray)).toBe(true);
    expect(refs(root, 'refs/seek/worktrees/')).toContain(`refs/seek/worktrees/${gone.id}`);

    // remove drops the records of the missing one, and deletes the stray directory only on --discard.
    expect((await manager.remove(gone.id)).result).toBe('[worktree: cleaned]');
    expect(refs(root, 'refs/seek/worktrees/')).not.toContain(`refs/seek/worktrees/${gone.id}`);
    expect(git(root, 'worktree', 'list', '--porcelain')).not.toContain(gone.id);
    await expect(manager.remove('20240101-000000-ffffff')).rejects.toMatchObject({ code: 'not_registered' });
    expect((await manager.remove('20240101-000000-ffffff', { discard: true })).result).toBe('[worktree: cleaned]');
    expect(existsSync(stray)).toBe(false);
  });

  it('housekeeping prunes discarded refs older than 48 h, and skips projects with nothing of seek', async () => {
    const now = new Date('2025-06-10T12:00:00Z');
    const { root, make } = makeProject();
    let gitCalls = 0;
    const { runGit } = await import('../../../src/worktree/git.js');
    const manager = make({
      clock: () => now,
      git: (args, options) => {
        gitCalls++;
        return runGit(args, options);
      },
    });
    const report = await manager.housekeep();
    expect(report).toEqual({ skipped: true, pruned: 0, problems: [], timedOut: false });
    expect(gitCalls).toBe(0);
    // Checkpoint refs (every saved session writes some) are no reason to run git, loose or packed.
    git(root, 'update-ref', 'refs/seek/checkpoints/20250610-120000-abcdef/1', head(root));
    expect(await manager.housekeep()).toMatchObject({ skipped: true });
    git(root, 'pack-refs', '--all');
    expect(await manager.housekeep()).toMatchObject({ skipped: true });
    expect(gitCalls).toBe(0);

    git(root, 'update-ref', `refs/seek/discarded/${stamp(new Date(now.getTime() - 49 * HOUR))}`, head(root));
    git(root, 'update-ref', `refs/seek/discarded/${stamp(new Date(now.getTime() - 47 * HOUR))}`, head(root));
    git(root, 'pack-refs', '--all'); // packed refs are seen too
    expect(await manager.housekeep()).toMatchObject({ skipped: false, pruned: 1, problems: [] });
    expect(refs(root, 'refs/seek/discarded/')).toHaveLength(1);
  });

  it('collectStale leaves a worktree alone once a running process adopted it (a resumed session)', async () => {
    const created = new Date('2025-06-01T00:00:00Z');
    const { make } = makeProject();
    const info = await make({ clock: () => created }).create();
    const metaPath = join(make().worktreesDir, `${info.id}.json`);
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(metaPath, JSON.stringify({ ...meta, owner_pid: 2 ** 22 + 7 })); // a process that ended
    const later = make({ clock: () => new Date('2025-06-10T00:00:00Z') });

    await later.adopt(info.id);
    expect(JSON.parse(readFileSync(metaPath, 'utf8'))).toMatchObject({ owner_pid: process.pid });
    const collected = await later.collectStale();
    expect(collected.removed).toEqual([]);
    expect(collected.inUse).toEqual([info.id]);
    expect(existsSync(info.path)).toBe(true);
  });

  it('remove refuses a dirty worktree without discard, naming the change count', async () => {
    const { root, manager } = makeProject();
    const info = await manager.create();
    writeFiles(info.path, { 'a.txt': 'changed\n', 'new.txt': 'new\n' });
    const refusal = manager.remove(info.id);
    await expect(refusal).rejects.toBeInstanceOf(WorktreeError);
    await expect(refusal).rejects.toThrow(`worktree ${info.id} has 2 uncommitted changes`);
    expect(existsSync(join(info.path, 'new.txt'))).toBe(true);

    const outcome = await manager.remove(info.id.slice(0, 17), { discard: true }); // a unique prefix works
    expect(outcome.kind).toBe('discarded');
    const ref = outcome.kind === 'discarded' ? outcome.rescueRef! : '';
    expect(git(root, 'show', `${ref}:new.txt`)).toBe('new\n');
    expect(existsSync(info.path)).toBe(false);
    await expect(manager.remove(info.id)).rejects.toMatchObject({ code: 'not_found' });

    const clean = await manager.create();
    expect((await manager.remove(clean.path)).result).toBe('[worktree: cleaned]');
  });

  it('finds worktrees by id, prefix or path, and maps worktree paths to the project', async () => {
    const { root, manager } = makeProject();
    const info = await manager.create();
    expect((await manager.findByPathOrId(info.id))?.path).toBe(info.path);
    expect((await manager.findByPathOrId(join(info.path, 'src', 'x.ts')))?.id).toBe(info.id);
    expect((await manager.findByPathOrId(info.id.slice(0, 10)))?.id).toBe(info.id);
    expect(await manager.findByPathOrId('20000101-000000-000000')).toBeUndefined();
    const second = await manager.create();
    if (second.id.slice(0, 8) === info.id.slice(0, 8)) {
      await expect(manager.findByPathOrId(info.id.slice(0, 8))).rejects.toMatchObject({ code: 'ambiguous' });
    }

    expect(manager.mapToProject(join(info.path, 'src', 'x.ts'))).toBe(join(root, 'src', 'x.ts'));
    expect(manager.mapToProject(info.path)).toBe(root);
    expect(manager.mapToProject('/elsewhere/file.ts')).toBe('/elsewhere/file.ts');
    expect(manager.mapToProject(join(manager.worktreesDir, 'not-an-id', 'x'))).toBe(join(manager.worktreesDir, 'not-an-id', 'x'));
  });
});
