/**
 * Forgetting (seek-spec 5.6): entries nobody recalls lose score over time, go stale (out of the
 * index, still recallable) and, after a long time stale, move to the archive (restorable). Pure:
 * the caller supplies the clock and writes the result.
 *
 *   score = (recall_count + 1) × exp(−(now − last_active) / half_life)
 *   last_active = max(created_at, updated_at, last_recalled_at)
 */
import { lastActive, time, type MemoryEntry } from './entry.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_HALF_LIFE_DAYS = 30;
export const STALE_BELOW = 0.5;
export const ARCHIVE_BELOW = 0.1;
export const ARCHIVE_AFTER_STALE_DAYS = 60;
/** Any entry younger than this (from created_at) is left alone. */
export const GRACE_DAYS = 7;
/** Auto-sourced entries (accepted observations) get longer to prove themselves. */
export const AUTO_SOURCED_GRACE_DAYS = 30;

export function decayScore(entry: MemoryEntry, now: Date, halfLifeDays = DEFAULT_HALF_LIFE_DAYS): number {
  const active = lastActive(entry);
  if (!Number.isFinite(active)) return entry.recall_count + 1;
  const idleDays = Math.max(0, now.getTime() - active) / DAY_MS;
  return (entry.recall_count + 1) * Math.exp(-idleDays / halfLifeDays);
}

/** Days since created_at (0 for an unparsable date: such an entry counts as new and is kept). */
export function ageDays(entry: MemoryEntry, now: Date): number {
  const created = time(entry.created_at);
  return Number.isFinite(created) ? Math.max(0, now.getTime() - created) / DAY_MS : 0;
}

export type DecayChange =
  | { kind: 'stale'; name: string; score: number }
  | { kind: 'revived'; name: string; score: number }
  | { kind: 'archived'; name: string; score: number; staleDays: number };

export interface DecayResult {
  /** The active entries after the pass, in their order. */
  entries: MemoryEntry[];
  /** Entries to move to the archive, with the reason to record. */
  archive: Array<{ name: string; reason: string }>;
  changes: DecayChange[];
  /** True when any entry changed (the file needs rewriting). */
  changed: boolean;
}

/** Whether the pass leaves an entry alone: pinned, auto-sourced and young, or young. */
export function isProtected(entry: MemoryEntry, now: Date): boolean {
  if (entry.pinned) return true;
  const age = ageDays(entry, now);
  if (entry.auto_sourced && age < AUTO_SOURCED_GRACE_DAYS) return true;
  return age < GRACE_DAYS;
}

export function decayPass(entries: readonly MemoryEntry[], now: Date, halfLifeDays = DEFAULT_HALF_LIFE_DAYS): DecayResult {
  const nowIso = now.toISOString();
  const out: MemoryEntry[] = [];
  const archive: DecayResult['archive'] = [];
  const changes: DecayChange[] = [];
  let changed = false;
  for (const original of entries) {
    if (isProtected(original, now)) {
      out.push(original);
      continue;
    }
    const entry: MemoryEntry = { ...original };
    if (entry.stale && !entry.stale_since) {
      entry.stale_since = nowIso; // a stale entry from an older file starts its stale clock now
      changed = true;
    }
    const score = decayScore(entry, now, halfLifeDays);
    if (!entry.stale && score < STALE_BELOW) {
      entry.stale = true;
      entry.stale_since = nowIso;
      changes.push({ kind: 'stale', name: entry.name, score });
      changed = true;
    } else if (entry.stale && score >= STALE_BELOW) {
      delete entry.stale;
      delete entry.stale_since;
      changes.push({ kind: 'revived', name: entry.name, score });
      changed = true;
    } else if (entry.stale && score < ARCHIVE_BELOW) {
      const since = time(entry.stale_since);
      const staleDays = Number.isFinite(since) ? (now.getTime() - since) / DAY_MS : 0;
      if (staleDays >= ARCHIVE_AFTER_STALE_DAYS) {
        archive.push({ name: entry.name, reason: `forgotten: score ${score.toFixed(2)} after ${Math.floor(staleDays)} days stale (not recalled since ${entry.last_recalled_at.slice(0, 10)})` });
        changes.push({ kind: 'archived', name: entry.name, score, staleDays });
        changed = true;
      }
    }
    out.push(entry);
  }
  return { entries: out, archive, changes, changed };
}

/** A one-line notice for a session's start, or undefined when nothing happened. */
export function describeDecay(changes: readonly DecayChange[]): string | undefined {
  if (changes.length === 0) return undefined;
  const names = (kind: DecayChange['kind']) => changes.filter((change) => change.kind === kind).map((change) => change.name);
  const parts: string[] = [];
  const stale = names('stale');
  const revived = names('revived');
  const archived = names('archived');
  if (stale.length > 0) parts.push(`${stale.length} went stale, left out of the index (${list(stale)})`);
  if (revived.length > 0) parts.push(`${revived.length} revived (${list(revived)})`);
  if (archived.length > 0) parts.push(`${archived.length} archived after 60 days stale (${list(archived)}; seek memory restore NAME brings one back)`);
  return `memory: ${parts.join('; ')}`;
}

function list(names: readonly string[]): string {
  return names.length > 4 ? `${names.slice(0, 4).join(', ')}, …` : names.join(', ');
}
