import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { ToolDisplay } from '../agent/types.js';

export type DiffDisplay = Extract<ToolDisplay, { kind: 'diff' }>;

/** Past this much work the diff gives up and the display says so, instead of stalling a write. */
const DIFF_TIMEOUT_MS = 1_000;

/**
 * The unified diff shown for a write or an edit (screens and permission prompts), with the counts
 * of added and removed lines. `label` names the file in the diff header (a display path).
 * Carriage returns are ignored, so a CRLF file's diff shows only the real changes.
 */
export function makeDiffDisplay(label: string, before: string, after: string): DiffDisplay {
  const patch = createTwoFilesPatch(label, label, before, after, undefined, undefined, {
    context: 3,
    stripTrailingCr: true,
    timeout: DIFF_TIMEOUT_MS,
    headerOptions: FILE_HEADERS_ONLY,
  });
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
