/**
 * What the `/memory` panel needs from project memory, as a small interface so the panel is tested
 * with a fake. The real source works on the session's store with the same operations as
 * `seek memory` (one behaviour everywhere).
 */
import { decayScore } from '../../memory/decay.js';
import type { ArchivedEntry, MemoryEntry } from '../../memory/entry.js';
import { archiveEntry, restoreEntry, setPinned } from '../../memory/operations.js';
import { searchEntries } from '../../memory/search.js';
import type { MemoryStore } from '../../memory/store.js';

export interface MemoryRow {
  /** The entry as stored (search works on it). */
  entry: MemoryEntry;
  name: string;
  tagline: string;
  content: string;
  tags: readonly string[];
  status: 'active' | 'stale' | 'archived';
  /** Active and stale entries: the decay score now. */
  score?: number;
  recalls: number;
  createdAt: string;
  pinned: boolean;
  /** Saved by an accepted observation, not confirmed by the user. */
  unconfirmed: boolean;
  /** Archived entries: when and why. */
  archivedAt?: string;
  reason?: string;
}

export interface MemoryPanelSource {
  /** Active and stale entries (by score, highest first), then the archive (newest first). */
  list(): Promise<MemoryRow[]>;
  /** Each returns the line to show, or throws with what went wrong. */
  archive(name: string, reason: string): Promise<string>;
  restore(name: string): Promise<string>;
  pin(name: string, pinned: boolean): Promise<string>;
}

export function memoryPanelSource(store: MemoryStore, halfLifeDays: number): MemoryPanelSource {
  return {
    async list() {
      const now = store.now();
      const [active, archived] = await Promise.all([store.load(), store.loadArchive()]);
      const live = active.entries.map((entry) => toRow(entry, entry.stale ? 'stale' : 'active', decayScore(entry, now, halfLifeDays)));
      live.sort((a, b) => Number(b.pinned) - Number(a.pinned) || (b.score ?? 0) - (a.score ?? 0) || (a.name < b.name ? -1 : 1));
      const gone = [...archived.entries].reverse().map((entry) => toRow(entry, 'archived'));
      return [...live, ...gone];
    },
    async archive(name, reason) {
      const done = await archiveEntry(store, name, reason);
      if (!done) throw new Error(`"${name}" is not an active entry`);
      return `archived "${done.name}" (reason: ${done.archived_reason})`;
    },
    async restore(name) {
      const outcome = await restoreEntry(store, name);
      if (outcome.kind === 'missing') throw new Error(`"${name}" is not in the archive`);
      if (outcome.kind === 'active') throw new Error(`"${name}" is already active`);
      return `restored "${outcome.entry.name}"`;
    },
    async pin(name, pinned) {
      const entry = await setPinned(store, name, pinned);
      if (!entry) throw new Error(`"${name}" is not an active entry`);
      return `${pinned ? 'pinned' : 'unpinned'} "${entry.name}"`;
    },
  };
}

function toRow(entry: MemoryEntry | ArchivedEntry, status: MemoryRow['status'], score?: number): MemoryRow {
  const archived = status === 'archived' ? (entry as ArchivedEntry) : undefined;
  return {
    entry,
    name: entry.name,
    tagline: entry.tagline,
    content: entry.content,
    tags: entry.tags ?? [],
    status,
    ...(score !== undefined ? { score } : {}),
    recalls: entry.recall_count,
    createdAt: entry.created_at,
    pinned: entry.pinned === true,
    unconfirmed: entry.auto_sourced === true,
    ...(archived ? { archivedAt: archived.archived_at, reason: archived.archived_reason } : {}),
  };
}

/** The rows a search shows: name, tagline, tags and content, the same matching as `seek memory search`. */
export function filterRows(rows: readonly MemoryRow[], query: string): MemoryRow[] {
  if (!query.trim()) return [...rows];
  const rowOf = new Map(rows.map((row) => [row.entry, row]));
  const hits = new Set(searchEntries(rows.map((row) => row.entry), query).map((hit) => rowOf.get(hit.entry)));
  return rows.filter((row) => hits.has(row)); // keep the list's order
}
