import { existsSync, readFileSync, statSync } from 'node:fs';
import { withMemoryLock } from '../../../src/memory/lock.js';
import { describe, expect, it } from 'vitest';
import { decayScore } from '../../../src/memory/decay.js';
import { recallEntry, rememberEntry, runDecay, setPinned } from '../../../src/memory/operations.js';
import { entry, tempStore } from './helpers.js';

const pass = (store: ReturnType<typeof tempStore>['store']) => runDecay(store, { halfLifeDays: 30, write: true });

describe('forgetting (decay pass)', () => {
  it('follows the formula of the spec', () => {
    const now = new Date('2026-03-02T00:00:00Z');
    const base = { schema_version: 1, name: 'x', tagline: 't', content: 'c', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', last_recalled_at: '2026-01-01T00:00:00Z' };
    expect(decayScore({ ...base, recall_count: 1 }, now)).toBeCloseTo(2 * Math.exp(-60 / 30), 6); // ≈ 0.27
    expect(decayScore({ ...base, recall_count: 5 }, now)).toBeCloseTo(6 * Math.exp(-60 / 30), 6); // ≈ 0.81
  });

  it('goes stale, is revived by a recall, is archived after 60 days stale; pinned and young entries are kept', async () => {
    const { store, advance } = tempStore();
    await rememberEntry(store, entry('idle'));
    await rememberEntry(store, entry('pinned'));
    await setPinned(store, 'pinned', true);
    advance(10);
    await rememberEntry(store, entry('young'));

    advance(15); // idle: 25 days, score exp(-25/30) ≈ 0.43 < 0.5
    let report = await pass(store);
    expect(report.changes).toEqual([{ kind: 'stale', name: 'idle', score: expect.closeTo(Math.exp(-25 / 30), 6) }]);
    expect(report.notice).toBe('memory: 1 went stale, left out of the index (idle)');
    const stale = (await store.load()).entries.find((e) => e.name === 'idle')!;
    expect(stale).toMatchObject({ stale: true, stale_since: '2026-01-26T00:00:00.000Z' });

    await recallEntry(store, 'idle'); // a recall revives it at once
    expect((await store.load()).entries.find((e) => e.name === 'idle')!.stale).toBeUndefined();

    advance(100); // idle again: 100 days since the recall, score 2·exp(-100/30) ≈ 0.07
    report = await pass(store);
    expect(report.changes.map((c) => [c.kind, c.name])).toEqual([['stale', 'idle'], ['stale', 'young']]);
    advance(59);
    expect((await pass(store)).changes.filter((c) => c.kind === 'archived')).toEqual([]); // 59 days stale: not yet
    advance(1);
    report = await pass(store);
    expect(report.changes.map((c) => [c.kind, c.name])).toEqual([['archived', 'idle'], ['archived', 'young']]);
    const names = (await store.load()).entries.map((e) => e.name);
    expect(names).toEqual(['pinned']); // pinned: 285 days untouched, never stale
    const archived = readFileSync(store.archiveFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(archived[0].archived_reason).toMatch(/^forgotten: score 0\.0\d after 60 days stale/);
  });

  it('rewrites the file only when something changed', async () => {
    const { store, advance } = tempStore();
    await rememberEntry(store, entry('fresh'));
    const before = statSync(store.file).mtimeMs;
    advance(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const report = await pass(store);
    expect(report.changes).toEqual([]);
    expect(statSync(store.file).mtimeMs).toBe(before);
  });

  it('revives a stale entry whose score rose (a longer half-life), and writes nothing in --no-save mode', async () => {
    const { store, advance } = tempStore();
    await rememberEntry(store, entry('e'));
    advance(25);
    await pass(store);
    const text = readFileSync(store.file, 'utf8');
    const preview = await runDecay(store, { halfLifeDays: 90, write: false });
    expect(preview.changes.map((c) => c.kind)).toEqual(['revived']);
    expect(readFileSync(store.file, 'utf8')).toBe(text);
    expect((await runDecay(store, { halfLifeDays: 90, write: true })).changes.map((c) => c.kind)).toEqual(['revived']);
  });

  it('a pass with nothing to change takes no lock and writes nothing (a start that changes nothing)', async () => {
    const { store, advance } = tempStore();
    // No memory at all: no file, no directory, no lock.
    expect((await pass(store)).changes).toEqual([]);
    expect(existsSync(store.dir)).toBe(false);
    await rememberEntry(store, entry('fresh'));
    advance(1);
    const mtime = statSync(store.file).mtimeMs;
    // Held by someone else: a pass that would need the lock would wait for it, and time out.
    const held = withMemoryLock(store.dir, () => pass(store), 200);
    await expect(held).resolves.toMatchObject({ changes: [], entries: [expect.objectContaining({ name: 'fresh' })] });
    expect(statSync(store.file).mtimeMs).toBe(mtime);
  });
});
