/**
 * Text a schema has already accepted, remembered by hash, so that a start with an unchanged file
 * skips validating it again. Validation builds and runs a zod schema, and loading zod is about
 * 10 ms of a headless start on a 2-core machine (bench/say-hello); hashing a small file takes
 * microseconds. A user's `~/.seek/config.json` is read at every start and rarely changes.
 *
 * Contract:
 * - The memo is `<SEEK_HOME>/cache/validated.json`, `{ "<kind>": "<sha256 hex>" }`, one entry per
 *   kind of file; the hash covers seek's version and the text, so a new seek (a new schema)
 *   validates again.
 * - Only valid text is remembered, and only a schema that checks without transforming (the value
 *   used is the parsed JSON itself) may use this: a remembered text is used as `JSON.parse` gives it.
 * - The memo only ever saves work: a missing, unreadable, damaged or stale memo means validating
 *   again, and a memo that cannot be written is not an error. Writes are atomic (a temporary file,
 *   then a rename); two seeks writing at once leave one of their memos, each whole.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SEEK_VERSION } from '../util/version.js';

export type MemoKind = 'config';

function memoFile(home: string): string {
  return join(home, 'cache', 'validated.json');
}

function digest(text: string): string {
  return createHash('sha256').update(`${SEEK_VERSION}\n`).update(text).digest('hex');
}

function readMemo(home: string): Record<string, unknown> {
  try {
    const memo: unknown = JSON.parse(readFileSync(memoFile(home), 'utf8'));
    return typeof memo === 'object' && memo !== null && !Array.isArray(memo) ? (memo as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** True when `text` of this kind was validated by this version of seek before. */
export function knownValid(home: string, kind: MemoKind, text: string): boolean {
  return readMemo(home)[kind] === digest(text);
}

/** Remembers that `text` of this kind passed validation. */
export function rememberValid(home: string, kind: MemoKind, text: string): void {
  const file = memoFile(home);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, `${JSON.stringify({ ...readMemo(home), [kind]: digest(text) })}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // A read-only or full home costs the next start a validation, nothing else.
    try {
      unlinkSync(temporary);
    } catch {
      // Never written.
    }
  }
}
