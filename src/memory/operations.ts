/**
 * What can be done to a project's memory, each one transaction on the store: remember (upsert),
 * recall, amend, archive, restore, pin, replace (edit) and the decay pass. The tools, `seek memory`
 * and the TUI all go through these, so they behave the same everywhere.
 */
import { canonicalName, cleanInput, ENTRY_SCHEMA_VERSION, EntryInputError, type ArchivedEntry, type EntryInput, type MemoryEntry } from './entry.js';
import { decayPass, describeDecay, type DecayChange } from './decay.js';
import type { MemoryStore } from './store.js';

export interface RememberOptions {
  /** An accepted observation (memory_observe), not confirmed by the user. */
  autoSourced?: boolean;
  sessionId?: string;
  /** Refuse (EntryInputError) instead of replacing an active entry of the same name. */
  onlyNew?: boolean;
}

export interface RememberOutcome {
  entry: MemoryEntry;
  /** An entry of that name existed and was replaced (its recall history kept). */
  replaced: boolean;
  /** The entry this one superseded, now archived. */
  superseded?: string;
}

/**
 * Creates or replaces the entry `input.name`. A replaced entry keeps its creation time, recall
 * count and pin. With `supersedes`, the named active entry is archived with the reason
 * `superseded by "<name>"`; naming an entry that is not active is an EntryInputError (nothing is
 * saved).
 */
export async function rememberEntry(store: MemoryStore, raw: EntryInput, options: RememberOptions = {}): Promise<RememberOutcome> {
  const input = cleanInput(raw);
  return store.transact(async (tx) => {
    const now = tx.now.toISOString();
    let superseded: string | undefined;
    if (input.supersedes) {
      const old = tx.find(input.supersedes);
      if (!old) {
        const archive = await tx.loadArchive();
        const already = archive.entries.some((entry) => entry.name === input.supersedes && entry.superseded_by === input.name);
        if (!already) throw new EntryInputError(`"${input.supersedes}" is not an active memory entry, so "${input.name}" cannot supersede it (check the name with memory_recall)`);
      } else {
        tx.archive(old.name, `superseded by "${input.name}"`, { superseded_by: input.name });
        superseded = old.name;
      }
    }
    const existing = tx.find(input.name);
    if (existing && options.onlyNew) throw new EntryInputError(`an entry named "${input.name}" already exists (change it with: seek memory edit ${input.name})`);
    const entry: MemoryEntry = {
      ...(existing ?? {}),
      schema_version: ENTRY_SCHEMA_VERSION,
      name: input.name,
      tagline: input.tagline,
      content: input.content,
      created_at: existing?.created_at ?? now,
      updated_at: now,
      last_recalled_at: existing?.last_recalled_at ?? now,
      recall_count: existing?.recall_count ?? 0,
    };
    if (input.tags) entry.tags = input.tags;
    else delete entry.tags;
    if (input.supersedes) entry.supersedes = input.supersedes;
    delete entry.stale;
    delete entry.stale_since;
    if (options.sessionId) entry.source_session_id = options.sessionId;
    if (options.autoSourced) {
      entry.auto_sourced = true;
      entry.observe_count = (existing?.observe_count ?? 0) + 1;
    } else {
      delete entry.auto_sourced; // the user confirmed it
    }
    if (existing) tx.entries[tx.entries.indexOf(existing)] = entry;
    else tx.entries.push(entry);
    tx.changed();
    return { entry, replaced: existing !== undefined, ...(superseded ? { superseded } : {}) };
  });
}

export type RecallOutcome =
  | { kind: 'active'; entry: MemoryEntry }
  | { kind: 'archived'; entry: ArchivedEntry; successor?: MemoryEntry }
  | { kind: 'missing'; name: string };

/**
 * Looks an entry up by name. An active entry's recall count goes up and its stale flag goes
 * (a recall is the strongest sign it still matters) unless `bump` is false. An archived one is
 * returned with its successor when it was superseded.
 */
export async function recallEntry(store: MemoryStore, rawName: string, options: { bump?: boolean } = {}): Promise<RecallOutcome> {
  const name = canonicalName(rawName);
  const bump = options.bump !== false;
  const found = bump
    ? await store.transact((tx) => {
        const entry = tx.find(name);
        if (!entry) return undefined;
        entry.recall_count += 1;
        entry.last_recalled_at = tx.now.toISOString();
        delete entry.stale;
        delete entry.stale_since;
        tx.changed();
        return { ...entry };
      })
    : (await store.load()).entries.find((entry) => entry.name === name);
  if (found) return { kind: 'active', entry: found };
  const archived = (await store.loadArchive()).entries.filter((entry) => entry.name === name).at(-1);
  if (!archived) return { kind: 'missing', name };
  if (!archived.superseded_by) return { kind: 'archived', entry: archived };
  const successor = await latestSuccessor(store, archived.superseded_by);
  return { kind: 'archived', entry: archived, ...(successor ? { successor } : {}) };
}

/** Follows a chain of supersessions (a → b → c) to the active end, if any. */
async function latestSuccessor(store: MemoryStore, name: string): Promise<MemoryEntry | undefined> {
  const active = (await store.load()).entries;
  const archive = (await store.loadArchive()).entries;
  const seen = new Set<string>();
  for (let current: string | undefined = name; current && !seen.has(current); ) {
    seen.add(current);
    const live = active.find((entry) => entry.name === current);
    if (live) return live;
    current = archive.filter((entry) => entry.name === current).at(-1)?.superseded_by;
  }
  return undefined;
}

/** Appends a timestamped section to an entry's content. Undefined when no such active entry. */
export async function amendEntry(store: MemoryStore, rawName: string, text: string): Promise<MemoryEntry | undefined> {
  const name = canonicalName(rawName);
  const addition = text.trim();
  if (!addition) throw new EntryInputError('append_content is empty');
  return store.transact((tx) => {
    const entry = tx.find(name);
    if (!entry) return undefined;
    const now = tx.now.toISOString();
    entry.content = `${entry.content}\n\n---\n${now}\n\n${addition}`;
    entry.updated_at = now;
    entry.last_recalled_at = now;
    delete entry.stale;
    delete entry.stale_since;
    tx.changed();
    return { ...entry };
  });
}

/** Moves an active entry to the archive with `reason`. Undefined when no such active entry. */
export async function archiveEntry(store: MemoryStore, rawName: string, reason: string): Promise<ArchivedEntry | undefined> {
  const name = canonicalName(rawName);
  const why = reason.replace(/\s+/g, ' ').trim();
  if (!why) throw new EntryInputError('reason is empty: say why the entry no longer applies');
  return store.transact((tx) => tx.archive(name, why));
}

export type RestoreOutcome = { kind: 'restored'; entry: MemoryEntry } | { kind: 'missing' } | { kind: 'active' };

/** Brings the latest archived entry of that name back, fresh (not stale, recall clock reset to now). */
export async function restoreEntry(store: MemoryStore, rawName: string): Promise<RestoreOutcome> {
  const name = canonicalName(rawName);
  return store.transact(async (tx) => {
    if (tx.find(name)) return { kind: 'active' as const };
    const archived = (await tx.loadArchive()).entries.filter((entry) => entry.name === name).at(-1);
    if (!archived) return { kind: 'missing' as const };
    const { archived_at: _at, archived_reason: _reason, superseded_by: _by, ...rest } = archived;
    const entry: MemoryEntry = { ...rest, last_recalled_at: tx.now.toISOString() };
    delete entry.stale;
    delete entry.stale_since;
    tx.entries.push(entry);
    tx.changed();
    tx.unarchive((candidate) => candidate.name === name && candidate.archived_at === archived.archived_at);
    return { kind: 'restored' as const, entry };
  });
}

/** Pins (never decays, listed first when the index is cut) or unpins. Undefined when no such entry. */
export async function setPinned(store: MemoryStore, rawName: string, pinned: boolean): Promise<MemoryEntry | undefined> {
  const name = canonicalName(rawName);
  return store.transact((tx) => {
    const entry = tx.find(name);
    if (!entry) return undefined;
    if (pinned) {
      entry.pinned = true;
      delete entry.stale;
      delete entry.stale_since;
    } else {
      delete entry.pinned;
    }
    tx.changed();
    return { ...entry };
  });
}

/**
 * Replaces an entry's editable fields (`seek memory edit`): name (a rename must not collide),
 * tagline, content, tags, pinned. Recall history and creation time are kept; the user's edit
 * confirms an auto-sourced entry. Undefined when no such entry.
 */
export async function replaceEntry(
  store: MemoryStore,
  rawName: string,
  edited: EntryInput & { pinned?: boolean },
): Promise<MemoryEntry | undefined> {
  const name = canonicalName(rawName);
  const input = cleanInput(edited);
  return store.transact((tx) => {
    const entry = tx.find(name);
    if (!entry) return undefined;
    if (input.name !== name && tx.find(input.name)) throw new EntryInputError(`an entry named "${input.name}" already exists`);
    const next: MemoryEntry = { ...entry, name: input.name, tagline: input.tagline, content: input.content, updated_at: tx.now.toISOString() };
    if (input.tags) next.tags = input.tags;
    else delete next.tags;
    if (edited.pinned) next.pinned = true;
    else delete next.pinned;
    delete next.auto_sourced;
    tx.entries[tx.entries.indexOf(entry)] = next;
    tx.changed();
    return { ...next };
  });
}

export interface DecayReport {
  changes: DecayChange[];
  /** One line for the user, when anything changed. */
  notice?: string;
}

/**
 * The decay pass at session start. Rewrites the files only when something changed. With `write`
 * false (a --no-save run) nothing is written; the caller gets the entries as the pass sees them.
 */
export async function runDecay(
  store: MemoryStore,
  options: { halfLifeDays: number; write: boolean },
): Promise<DecayReport & { entries: MemoryEntry[] }> {
  // A pass that changes nothing (the usual case: no entries, or none due) is settled on a plain
  // read: no lock taken, nothing written. Only a pass with changes runs again under the lock.
  const now = store.now();
  const result = decayPass((await store.load()).entries, now, options.halfLifeDays);
  if (!options.write || !result.changed) {
    const gone = new Set(result.archive.map((item) => item.name));
    const notice = describeDecay(result.changes);
    return { changes: result.changes, entries: result.entries.filter((entry) => !gone.has(entry.name)), ...(notice ? { notice } : {}) };
  }
  return store.transact((tx) => {
    const result = decayPass(tx.entries, tx.now, options.halfLifeDays);
    if (result.changed) {
      tx.entries = result.entries;
      tx.changed();
      for (const item of result.archive) tx.archive(item.name, item.reason);
    }
    const notice = describeDecay(result.changes);
    return { changes: result.changes, entries: [...tx.entries], ...(notice ? { notice } : {}) };
  });
}
