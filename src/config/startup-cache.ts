/**
 * Small JSON files under `<SEEK_HOME>/cache/` that spare a start work it did before (the
 * validation memo, project ids): read synchronously at start (a few microseconds), written only
 * when they change.
 *
 * Contract: such a file only ever saves work. A missing, unreadable or damaged file reads as
 * empty, and one that cannot be written (a read-only or full home) is not an error. Writes are
 * atomic (a temporary file, then a rename): two seeks writing at once leave one whole file, and
 * what the other added is simply worked out again later.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type StartupCacheName = 'validated.json' | 'project-ids.json';

function cacheFile(home: string, name: StartupCacheName): string {
  return join(home, 'cache', name);
}

/** The file's object of strings; entries that are not strings are left out. */
export function readStartupCache(home: string, name: StartupCacheName): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(cacheFile(home, name), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/** Adds `entries` to the file (read again just before, so concurrent additions mostly survive).
 * Synchronous and without fsync, unlike config/atomic-file.ts: it runs on the start path, and a
 * cache lost to a crash is only worked out again. */
export function addToStartupCache(home: string, name: StartupCacheName, entries: Record<string, string>): void {
  const dir = join(home, 'cache');
  const file = cacheFile(home, name);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(temporary, `${JSON.stringify({ ...readStartupCache(home, name), ...entries })}\n`, { mode: 0o600 });
    renameSync(temporary, file);
    removeAbandoned(dir, name);
  } catch {
    unlinkQuietly(temporary);
  }
}

/** A temporary file this old was left by a writer that was killed between write and rename. */
const ABANDONED_MS = 60_000;

function removeAbandoned(dir: string, name: StartupCacheName): void {
  const now = Date.now();
  for (const entry of readdirSync(dir)) {
    if (!entry.startsWith(`${name}.`) || !entry.endsWith('.tmp')) continue;
    const path = join(dir, entry);
    try {
      if (now - statSync(path).mtimeMs > ABANDONED_MS) unlinkQuietly(path);
    } catch {
      // Removed by another process first.
    }
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Never written, or already gone.
  }
}
