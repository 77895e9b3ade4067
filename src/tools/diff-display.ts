import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { ToolDisplay } from '../agent/types.js';

export type DiffDisplay = Extract<ToolDisplay, { kind: 'diff' }>;

const CONTEXT_LINES = 3;

/**
 * The part of two texts that differs, with context: lines both share at the start and the end are
 * left out of the diff (an edit in a 10 MB file diffs a few lines, not 200,000). `firstLine` is
 * how many lines were left out before, for the hunk headers.
 */
function changedRegion(before: string, after: string): { before: string; after: string; firstLine: number } {
  const old = before.split('\n');
  const next = after.split('\n');
  let prefix = 0;
  const shortest = Math.min(old.length, next.length);
  while (prefix < shortest && old[prefix] === next[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < shortest - prefix && old[old.length - 1 - suffix] === next[next.length - 1 - suffix]) suffix += 1;
  const start = Math.max(0, prefix - CONTEXT_LINES);
  if (start === 0 && suffix <= CONTEXT_LINES) return { before, after, firstLine: 0 };
  const slice = (lines: string[]): string => {
    const end = Math.min(lines.length, lines.length - suffix + CONTEXT_LINES);
    // Every line but the file's last is followed by a newline.
    return lines.slice(start, end).join('\n') + (end < lines.length ? '\n' : '');
  };
  return { before: slice(old), after: slice(next), firstLine: start };
}

/** Moves every hunk header of `patch` down by `lines` lines. */
function shiftHunks(patch: string, lines: number): string {
  return patch.replace(/^@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@/gm, (_match, oldStart: string, oldCount: string, newStart: string, newCount: string) =>
    `@@ -${Number(oldStart) + lines}${oldCount} +${Number(newStart) + lines}${newCount} @@`,
  );
}

/** Past this much work the diff gives up and the display says so, instead of stalling a write. */
const DIFF_TIMEOUT_MS = 1_000;

/**
 * The unified diff shown for a write or an edit (screens and permission prompts), with the counts
 * of added and removed lines. `label` names the file in the diff header (a display path).
 * Carriage returns are ignored, so a CRLF file's diff shows only the real changes.
 */
export function makeDiffDisplay(label: string, before: string, after: string): DiffDisplay {
  const region = changedRegion(before, after);
  const raw = createTwoFilesPatch(label, label, region.before, region.after, undefined, undefined, {
    context: CONTEXT_LINES,
    stripTrailingCr: true,
    timeout: DIFF_TIMEOUT_MS,
    headerOptions: FILE_HEADERS_ONLY,
  });
  const patch = raw === undefined || region.firstLine === 0 ? raw : shiftHunks(raw, region.firstLine);
  if (patch === undefined) {
    const added = countLines(after);
    const removed = countLines(before);
    return {
      kind: 'diff',
      path: label,
      diff: `--- ${label}\n+++ ${label}\n(diff too large to show: ${removed} lines replaced by ${added})\n`,
      added,
      removed,
    };
  }
  let added = 0;
  let removed = 0;
  let inHunks = false; // the `---`/`+++` file headers come before the first hunk
  for (const line of patch.split('\n')) {
    if (line.startsWith('@@')) inHunks = true;
    else if (inHunks && line.startsWith('+')) added += 1;
    else if (inHunks && line.startsWith('-')) removed += 1;
  }
  return { kind: 'diff', path: label, diff: patch, added, removed };
}

/** Lines in a text: a final line without a newline counts, an empty text has none. */
export function countLines(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}
