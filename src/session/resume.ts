/**
 * Continuing a saved session (`--resume`, `--continue`, `/resume`) with one writer per file:
 * the session's lock is taken (lock.ts); when another live seek process holds it, the session is
 * continued as a fork instead: a new session id whose file (created with its first message, like
 * any session) starts with copies of the original's finished turns, and whose header records
 * `forked_from` (format.ts). The original is never written by two processes.
 */
import { sessionFile } from '../config/paths.js';
import { newSessionId, type SessionEntryInput, type SessionHeader } from './format.js';
import { lockSession, type SessionLock, type SessionOwner } from './lock.js';
import { readSession, type IndexedEntry, type LoadedSession } from './reader.js';
import { changed, describeRepairs } from './repair.js';
import { SessionWriter } from './writer.js';

/** A session to continue. For a fork, `header` and `path` are the new session's, and everything
 * else (entries, messages, totals) is the original's finished turns, which the fork carries. */
export interface ResumeTarget extends LoadedSession {
  /** Held on `path` when this process continues the session itself (not for a fork or `--no-save`). */
  lock?: SessionLock;
  /** The copies of the original's entries a fork's file starts with. */
  forkPreamble?: SessionEntryInput[];
  /** Warnings for the user: what was repaired, that this is a fork and why. */
  notices: string[];
}

export interface ResumeOptions {
  /** False for `--no-save`: nothing is written, so no lock is taken and nothing forks. */
  save: boolean;
  now?: Date;
}

/** Loads the session at `path` for continuing it, locked or forked (see the top of this file). */
export async function openResumeTarget(home: string, pid: string, path: string, options: ResumeOptions): Promise<ResumeTarget> {
  if (!options.save) return withNotices(await readSession(path));
  const outcome = await lockSession(path);
  if ('lock' in outcome) {
    try {
      return { ...withNotices(await readSession(path)), lock: outcome.lock };
    } catch (error) {
      outcome.lock.release();
      throw error;
    }
  }
  return forkOf(home, pid, path, outcome.heldBy, options.now ?? new Date());
}

/** The writer for a resume target: the original file opened for append, or the fork's file,
 * created with its first message. */
export function resumeWriter(target: ResumeTarget): SessionWriter {
  if (target.forkPreamble) {
    const { type: _type, schema_version: _version, ...header } = target.header;
    return SessionWriter.deferred(target.path, header, { preamble: target.forkPreamble });
  }
  return SessionWriter.openForAppend(target.path, target.lock ? { lock: target.lock } : {});
}

async function forkOf(home: string, pid: string, path: string, owner: SessionOwner | undefined, now: Date): Promise<ResumeTarget> {
  const original = await readSession(path, owner?.settled !== undefined ? { entriesBefore: owner.settled } : {});
  const id = newSessionId(now);
  const carried = owner?.settled ?? (original.entries.at(-1)?.index ?? -1) + 1;
  const header: SessionHeader = {
    ...original.header,
    id,
    created_at: now.toISOString(),
    forked_from: { session_id: original.header.id, entries: carried, ...(owner ? { pid: owner.pid } : {}) },
  };
  const who = owner ? `another seek process (pid ${owner.pid})` : 'another seek process';
  const fork = withNotices(original);
  return {
    ...fork,
    path: sessionFile(home, pid, id),
    header,
    forkPreamble: copiedEntries(original.entries),
    notices: [
      ...fork.notices,
      `session ${original.header.id} is open in ${who}; continuing in a new session ${id} forked from it ` +
        `(its finished turns are carried over; the other process keeps ${original.header.id})`,
    ],
  };
}

/**
 * A new session holding the entries of the session at `path` that come before entry `entryIndex`
 * (`seek rewind`'s conversation restore: the history up to just before a turn). Its file is
 * written now, header `forked_from` included, so `seek --resume <id>` continues there; the
 * original is only read. Returns the new session's id and path.
 */
export async function forkSessionBefore(home: string, pid: string, path: string, entryIndex: number, now: Date = new Date()): Promise<{ id: string; path: string }> {
  const original = await readSession(path, { entriesBefore: entryIndex });
  const id = newSessionId(now);
  const { type: _type, schema_version: _version, ...header } = original.header;
  const forkPath = sessionFile(home, pid, id);
  const writer = SessionWriter.create(
    forkPath,
    { ...header, id, created_at: now.toISOString(), forked_from: { session_id: original.header.id, entries: entryIndex } },
    { preamble: copiedEntries(original.entries) },
  );
  await writer.close();
  return { id, path: forkPath };
}

/** Every entry in order with its timestamp; compactions' `replaces_through` and late entries'
 * `position` renumbered to the copy (damaged lines are not copied, so indexes shift). */
function copiedEntries(entries: readonly IndexedEntry[]): SessionEntryInput[] {
  const newIndexOf = new Map<number, number>();
  return entries.map(({ index, entry }, newIndex) => {
    newIndexOf.set(index, newIndex);
    if (entry.type === 'event' && entry.position !== undefined) return { ...entry, position: firstCopiedAtOrAfter(entries, entry.position) };
    if (entry.type !== 'compaction') return { ...entry };
    return { ...entry, replaces_through: lastCopiedAtOrBefore(newIndexOf, entry.replaces_through) };
  });
}

/** The copy's index of the first entry at or after `oldIndex` (the place a late entry stands for). */
function firstCopiedAtOrAfter(entries: readonly IndexedEntry[], oldIndex: number): number {
  const at = entries.findIndex(({ index }) => index >= oldIndex);
  return at === -1 ? entries.length : at;
}

function lastCopiedAtOrBefore(newIndexOf: ReadonlyMap<number, number>, oldIndex: number): number {
  let result = -1;
  for (const [oldI, newI] of newIndexOf) if (oldI <= oldIndex && newI > result) result = newI;
  return result;
}

/** The repair notice, naming the file: "<path>: skipped 2 unreadable lines; repaired the history: …". */
function withNotices(loaded: LoadedSession): ResumeTarget {
  const parts: string[] = [];
  if (loaded.skippedLines > 0) parts.push(`skipped ${loaded.skippedLines} unreadable line${loaded.skippedLines === 1 ? '' : 's'}`);
  if (changed(loaded.repairs)) parts.push(`repaired the history (${describeRepairs(loaded.repairs)})`);
  return { ...loaded, notices: parts.length > 0 ? [`${loaded.path} was damaged: ${parts.join('; ')}`] : [] };
}
