import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EntryInputError } from '../../../src/memory/entry.js';
import { amendEntry, archiveEntry, recallEntry, rememberEntry, replaceEntry, restoreEntry, setPinned } from '../../../src/memory/operations.js';
import { entry, tempStore } from './helpers.js';

describe('project memory store', () => {
  it('remembers entries with every field of the spec, upserting by name and keeping recall history', async () => {
    const { store, advance } = tempStore();
    await rememberEntry(store, { ...entry('use-pnpm'), tags: ['Tooling', 'ci'] }, { sessionId: 's1' });
    await recallEntry(store, 'use-pnpm');
    advance(1);
    const outcome = await rememberEntry(store, { name: 'Use-PNPM', tagline: 'new tagline', content: 'new content' });
    expect(outcome.replaced).toBe(true);
    const [line] = readFileSync(store.file, 'utf8').trim().split('\n');
    expect(JSON.parse(line!)).toEqual({
      schema_version: 1,
      name: 'use-pnpm',
      tagline: 'new tagline',
      content: 'new content',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
      last_recalled_at: '2026-01-01T00:00:00.000Z',
      recall_count: 1,
      source_session_id: 's1',
    });
  });

  it('rejects bad inputs with a message saying what to fix, saving nothing', async () => {
    const { store } = tempStore();
    await expect(rememberEntry(store, entry('Not Kebab Case'))).rejects.toThrow(EntryInputError);
    await expect(rememberEntry(store, { name: 'x', tagline: '  ', content: 'c' })).rejects.toThrow('tagline is empty');
    expect((await store.load()).entries).toEqual([]);
  });

  it('recall by name bumps the count; amend appends a timestamped section; the archive keeps the reason', async () => {
    const { store, advance } = tempStore();
    await rememberEntry(store, entry('api-style'));
    advance(2);
    const recalled = await recallEntry(store, 'api-style');
    expect(recalled).toMatchObject({ kind: 'active', entry: { recall_count: 1, last_recalled_at: '2026-01-03T00:00:00.000Z' } });
    const amended = await amendEntry(store, 'api-style', 'Also: no trailing slashes.');
    expect(amended!.content).toBe('api-style content\n\n---\n2026-01-03T00:00:00.000Z\n\nAlso: no trailing slashes.');
    const archived = await archiveEntry(store, 'api-style', 'we moved to gRPC');
    expect(archived).toMatchObject({ archived_reason: 'we moved to gRPC', archived_at: '2026-01-03T00:00:00.000Z' });
    expect((await store.load()).entries).toEqual([]);
    const archiveLine = JSON.parse(readFileSync(store.archiveFile, 'utf8').trim());
    expect(archiveLine).toMatchObject({ name: 'api-style', archived_reason: 'we moved to gRPC', recall_count: 1 });
    expect(await recallEntry(store, 'api-style')).toMatchObject({ kind: 'archived', entry: { archived_reason: 'we moved to gRPC' } });
    expect(await restoreEntry(store, 'api-style')).toMatchObject({ kind: 'restored' });
    expect((await store.load()).entries.map((e) => e.name)).toEqual(['api-style']);
    expect(readFileSync(store.archiveFile, 'utf8')).toBe('');
  });

  it('a decision that supersedes another archives it with that reason, and recalling the old one points to its successor', async () => {
    const { store } = tempStore();
    await rememberEntry(store, entry('db-postgres'));
    await rememberEntry(store, { ...entry('db-sqlite'), supersedes: 'db-postgres' });
    const old = await recallEntry(store, 'db-postgres');
    expect(old).toMatchObject({ kind: 'archived', entry: { archived_reason: 'superseded by "db-sqlite"', superseded_by: 'db-sqlite' }, successor: { name: 'db-sqlite' } });
    await expect(rememberEntry(store, { ...entry('db-x'), supersedes: 'nothing-here' })).rejects.toThrow('is not an active memory entry');
  });

  it('pins, and edits with replaceEntry (a rename must not collide)', async () => {
    const { store } = tempStore();
    await rememberEntry(store, entry('a'));
    await rememberEntry(store, entry('b'));
    expect(await setPinned(store, 'a', true)).toMatchObject({ pinned: true });
    await expect(replaceEntry(store, 'a', { ...entry('b') })).rejects.toThrow('already exists');
    expect(await replaceEntry(store, 'a', { ...entry('a2'), pinned: true })).toMatchObject({ name: 'a2', pinned: true });
  });

  it('skips corrupt lines, reports them, and keeps them in <file>.corrupt on the next write', async () => {
    const { store } = tempStore();
    await rememberEntry(store, entry('good'));
    appendFileSync(store.file, '{not json\n{"tagline":"no name"}\n');
    const loaded = await store.load();
    expect(loaded.entries.map((e) => e.name)).toEqual(['good']);
    expect(loaded.skipped.map((s) => s.line)).toEqual([2, 3]);
    await rememberEntry(store, entry('second'));
    expect(readFileSync(`${store.file}.corrupt`, 'utf8')).toBe('{not json\n{"tagline":"no name"}\n');
    expect((await store.load()).skipped).toEqual([]);
  });

  it('reads an older file without the newer fields', async () => {
    const { store } = tempStore();
    await rememberEntry(store, entry('x')); // creates the directory
    writeFileSync(store.file, `${JSON.stringify({ name: 'old', tagline: 't', content: 'c', created_at: '2025-01-01T00:00:00Z' })}\n`);
    expect((await store.load()).entries[0]).toMatchObject({ name: 'old', recall_count: 0, last_recalled_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' });
  });
});
