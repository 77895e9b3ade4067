/** What /rewind shows: one picker row per checkpoint, and the notices after a restore. Pure. */
import type { NumstatRow } from '../../checkpoints/restore.js';
import type { CheckpointKind } from '../../checkpoints/record.js';
import { formatAge } from '../../util/age.js';

/** What a row needs from a checkpoint (a SessionRewindPoint has all of it). */
export interface RewindRowSource {
  turn: number;
  kind: CheckpointKind;
  prompt: string;
  at: string;
  changedSince: readonly NumstatRow[];
}

/** "2 files +5 −1" (binary files count as files, without lines); "no change since" for none. */
export function changedSummary(rows: readonly NumstatRow[]): string {
  if (rows.length === 0) return 'no change since';
  const added = rows.reduce((sum, row) => sum + (row.added ?? 0), 0);
  const removed = rows.reduce((sum, row) => sum + (row.removed ?? 0), 0);
  return `${rows.length === 1 ? '1 file' : `${rows.length} files`} +${added} −${removed}`;
}

/** A picker row: age and the changes since first (they survive a narrow terminal's cut), then the
 * prompt; the changed files as the description. Restore points read "(before rewinding to N)". */
export function rewindRow(point: RewindRowSource, now: Date): { value: string; label: string; description?: string } {
  const what = point.kind === 'turn' ? point.prompt || '(empty prompt)' : `(${point.prompt})`;
  const label = `${formatAge(point.at, now).padStart(3)} ago  ${changedSummary(point.changedSince).padEnd(17)} ${what}`;
  const files = point.changedSince.map((row) => row.path).join(', ');
  return { value: String(point.turn), label, ...(files ? { description: files } : {}) };
}

/** The rows newest first (the turn one most likely wants back is the last). */
export function rewindRows(points: readonly RewindRowSource[], now: Date): Array<{ value: string; label: string; description?: string }> {
  return [...points].sort((a, b) => b.turn - a.turn).map((point) => rewindRow(point, now));
}

export interface CodeRestored {
  /** The checkpoint restored, and the one taken just before (restoring it undoes this). */
  target: number;
  before: number;
  files: number;
  /** The session the restore was recorded in. */
  sessionId: string;
  /** The UI moved on to a fork: the undo point is in `sessionId`, not in the session shown. */
  forked: boolean;
  skippedIgnored: readonly string[];
}

/** What a code restore did and how to undo it. */
export function codeRestoredNotice(done: CodeRestored): string {
  const count = done.files === 1 ? '1 file' : `${done.files} files`;
  const skipped = done.skippedIgnored.length > 0 ? ` Left alone (ignored by git now): ${done.skippedIgnored.join(', ')}.` : '';
  const here = done.forked ? `/resume ${done.sessionId}, then /rewind to "(before rewinding to ${done.target})"` : `/rewind to "(before rewinding to ${done.target})"`;
  return `restored the code to checkpoint ${done.target} (${count} changed).${skipped} To undo: ${here}, or seek rewind ${done.before} --code --session ${done.sessionId}`;
}

/** The choices once a checkpoint is picked; a restore point has only code to go back to. */
export function rewindChoices(kind: CheckpointKind): Array<{ value: RewindChoice; label: string }> {
  const code = { value: 'code' as const, label: 'restore code only' };
  const diff = { value: 'diff' as const, label: 'show the diff first' };
  // Only a turn's start is also a point in the conversation.
  if (kind !== 'turn') return [code, diff];
  return [{ value: 'both', label: 'restore code and conversation' }, code, { value: 'conversation', label: 'restore conversation only' }, diff];
}

export type RewindChoice = 'both' | 'code' | 'conversation' | 'diff';
