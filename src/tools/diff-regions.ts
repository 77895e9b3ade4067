/**
 * A unified diff built from the places an edit changed, in time linear in the file: the edit
 * knows which lines each replacement touched, so only those lines are compared (each region with
 * a small line diff, so lines new_string repeats show as context), and nothing searches the whole
 * file for an alignment. A replace_all over 200,000 lines of a 10 MB file costs tens of
 * milliseconds here, where a general diff of the two texts would give up after its time budget.
 * The output has the format of the general diff (src/tools/diff-display.ts): `---`/`+++` headers,
 * `@@ -a,b +c,d @@` hunks with 3 lines of context, carriage returns ignored, "\ No newline at end
 * of file" where a side's last line has none.
 */
import { diffArrays } from 'diff';

/** Lines [beforeStart, beforeEnd) of the old text became lines [afterStart, afterEnd) of the new one (0-based). */
export interface LineChange {
  beforeStart: number;
  beforeEnd: number;
  afterStart: number;
  afterEnd: number;
}

const CONTEXT_LINES = 3;
/** Regions with more lines than this on a side are shown as all removed, then all added. */
const REGION_DIFF_LIMIT = 400;
const NO_NEWLINE = '\\ No newline at end of file';
/**
 * Past this many lines the diff stops at a hunk's end and says how many changed lines it left
 * out (the counts stay exact): a preview of 400,000 lines helps no one and costs memory in every
 * screen and session that holds it.
 */
const DIFF_LINE_CAP = 20_000;

function newlinesIn(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/**
 * The lines each replacement changes, from the replacements in raw offsets of `before` (sorted,
 * not overlapping) and the raw text put in each place. Replacements sharing a line are merged.
 */
export function changedLines(before: string, replacements: ReadonlyArray<{ start: number; end: number; text: string }>): LineChange[] {
  const changes: LineChange[] = [];
  let position = 0;
  let line = 0;
  let delta = 0; // after-line minus before-line, past the replacements seen so far
  for (const { start, end, text } of replacements) {
    line += newlinesIn(before, position, start);
    const inside = newlinesIn(before, start, end);
    const added = newlinesIn(text, 0, text.length);
    // The line holding the end is untouched when both sides end exactly at a line start there.
    const atLineStart = start === 0 || before[start - 1] === '\n';
    const beforeEndsLine = end > start ? before[end - 1] === '\n' : atLineStart;
    const afterEndsLine = text !== '' ? text.endsWith('\n') : atLineStart;
    const tail = beforeEndsLine && afterEndsLine ? 0 : 1;
    const change = { beforeStart: line, beforeEnd: line + inside + tail, afterStart: line + delta, afterEnd: line + delta + added + tail };
    delta += added - inside;
    line += inside;
    position = end;
    const last = changes[changes.length - 1];
    if (last && change.beforeStart < last.beforeEnd) {
      last.beforeEnd = change.beforeEnd;
      last.afterEnd = change.afterEnd;
    } else changes.push(change);
  }
  return changes;
}

/** A text's lines by number without splitting it: a trailing newline ends the last line. */
class Lines {
  private readonly starts: number[] = [0];
  readonly count: number;
  readonly endsWithNewline: boolean;

  constructor(private readonly text: string) {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) this.starts.push(at + 1);
    this.endsWithNewline = text.endsWith('\n');
    this.count = text === '' ? 0 : this.endsWithNewline ? this.starts.length - 1 : this.starts.length;
  }

  /** Line `n` without its newline or a carriage return before it. */
  get(n: number): string {
    const end = n + 1 < this.starts.length ? this.starts[n + 1]! - 1 : this.text.length;
    const line = this.text.slice(this.starts[n], end);
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }

  /** The key lines are compared by: a last line without a newline differs from the same text with one. */
  key(n: number): string {
    return n === this.count - 1 && !this.endsWithNewline ? `${this.get(n)}\u0000` : this.get(n);
  }

  /** Where line n's text starts and ends (without its newline or a carriage return before it). */
  bounds(n: number): [number, number] {
    let end = n + 1 < this.starts.length ? this.starts[n + 1]! - 1 : this.text.length;
    if (end > this.starts[n]! && this.text.charCodeAt(end - 1) === 13) end -= 1;
    return [this.starts[n]!, end];
  }

  /** key(n) === other.key(m), compared in place (most lines of a large edit differ in length). */
  same(n: number, other: Lines, m: number): boolean {
    const noNewline = n === this.count - 1 && !this.endsWithNewline;
    if (noNewline !== (m === other.count - 1 && !other.endsWithNewline)) return false;
    const [from, to] = this.bounds(n);
    const [otherFrom, otherTo] = other.bounds(m);
    if (to - from !== otherTo - otherFrom) return false;
    for (let at = 0; at < to - from; at += 1) if (this.text.charCodeAt(from + at) !== other.text.charCodeAt(otherFrom + at)) return false;
    return true;
  }
}

/**
 * The changed lines, in order, as two parallel arrays (numbers only: a replace_all over 200,000
 * lines makes no object per line). Op n removes old line `old[n]` when `added[n]` is -1, else
 * inserts new line `added[n]` before old line `old[n]`.
 */
class Ops {
  readonly old: number[] = [];
  readonly added: number[] = [];
  get length(): number {
    return this.old.length;
  }
  remove(oldLine: number): void {
    this.old.push(oldLine);
    this.added.push(-1);
  }
  insert(beforeOld: number, newLine: number): void {
    this.old.push(beforeOld);
    this.added.push(newLine);
  }
  /** The old line just after op n. */
  endOf(n: number): number {
    return this.added[n] === -1 ? this.old[n]! + 1 : this.old[n]!;
  }
}

/** The unified diff of `before` and `after` for `changes`, with counts of added and removed lines. */
export function diffFromChanges(label: string, before: string, after: string, changes: readonly LineChange[]): { diff: string; added: number; removed: number } {
  const old = new Lines(before);
  const next = new Lines(after);
  const ops = new Ops();
  for (const change of changes) {
    regionOps(old, next, change.beforeStart, Math.min(change.beforeEnd, old.count), change.afterStart, Math.min(change.afterEnd, next.count), ops);
  }
  const out: string[] = [`--- ${label}`, `+++ ${label}`];
  let removed = 0;
  let added = 0;
  // Old lines before the next op that are unchanged map to new lines at a fixed offset: new = old + shift.
  let shift = 0;
  let at = 0;
  while (at < ops.length) {
    if (out.length > DIFF_LINE_CAP) {
      // Past the cap, the rest is only counted.
      let more = 0;
      for (; at < ops.length; at += 1) more += ops.added[at] === -1 ? (removed++, 1) : (added++, 1);
      out.push(`(diff cut at ${DIFF_LINE_CAP.toLocaleString('en-US')} lines: ${more} more changed lines not shown)`);
      break;
    }
    // One hunk: changed lines whose contexts touch or overlap (as the general diff groups them).
    let last = at;
    while (last + 1 < ops.length && ops.old[last + 1]! - ops.endOf(last) <= 2 * CONTEXT_LINES) last += 1;
    const oldStart = Math.max(0, ops.old[at]! - CONTEXT_LINES);
    const oldEnd = Math.min(old.count, ops.endOf(last) + CONTEXT_LINES);
    const newStart = oldStart + shift;
    // The hunk's header is known once its lines are counted: its place is kept and filled then.
    const header = out.length;
    out.push('');
    const push = (prefix: string, text: Lines, n: number): void => {
      out.push(prefix + text.get(n));
      if (n === text.count - 1 && !text.endsWithNewline) out.push(NO_NEWLINE);
    };
    let line = oldStart;
    let oldLines = 0;
    let newLines = 0;
    for (let n = at; n <= last; ) {
      for (; line < ops.old[n]!; line += 1, oldLines += 1, newLines += 1) push(' ', old, line);
      // A run of changed lines with no context between: removed lines first, then added ones.
      let end = n + 1;
      while (end <= last && ops.old[end] === ops.endOf(end - 1)) end += 1;
      for (let op = n; op < end; op += 1) {
        if (ops.added[op] !== -1) continue;
        push('-', old, ops.old[op]!);
        line = ops.old[op]! + 1;
        oldLines += 1;
        removed += 1;
        shift -= 1;
      }
      for (let op = n; op < end; op += 1) {
        if (ops.added[op] === -1) continue;
        push('+', next, ops.added[op]!);
        newLines += 1;
        added += 1;
        shift += 1;
      }
      n = end;
    }
    for (; line < oldEnd; line += 1, oldLines += 1, newLines += 1) push(' ', old, line);
    out[header] = `@@ -${oldLines === 0 ? oldStart : oldStart + 1},${oldLines} +${newLines === 0 ? newStart : newStart + 1},${newLines} @@`;
    at = last + 1;
  }
  return { diff: `${out.join('\n')}\n`, added, removed };
}

/** One region's changed lines: a line diff when it is small, else all removed then all added. */
function regionOps(old: Lines, next: Lines, beforeStart: number, beforeEnd: number, afterStart: number, afterEnd: number, ops: Ops): void {
  if (beforeEnd - beforeStart > REGION_DIFF_LIMIT || afterEnd - afterStart > REGION_DIFF_LIMIT) {
    for (let n = beforeStart; n < beforeEnd; n += 1) ops.remove(n);
    for (let n = afterStart; n < afterEnd; n += 1) ops.insert(beforeEnd, n);
    return;
  }
  // Lines the region starts or ends with on both sides are context; most regions (a replace_all
  // inside lines) are then one line against one and need no line diff.
  while (beforeStart < beforeEnd && afterStart < afterEnd && old.same(beforeStart, next, afterStart)) {
    beforeStart += 1;
    afterStart += 1;
  }
  while (beforeEnd > beforeStart && afterEnd > afterStart && old.same(beforeEnd - 1, next, afterEnd - 1)) {
    beforeEnd -= 1;
    afterEnd -= 1;
  }
  if (beforeEnd === beforeStart || afterEnd === afterStart || (beforeEnd - beforeStart === 1 && afterEnd - afterStart === 1)) {
    for (let n = beforeStart; n < beforeEnd; n += 1) ops.remove(n);
    for (let n = afterStart; n < afterEnd; n += 1) ops.insert(beforeEnd, n);
    return;
  }
  const oldKeys: string[] = [];
  const newKeys: string[] = [];
  for (let n = beforeStart; n < beforeEnd; n += 1) oldKeys.push(old.key(n));
  for (let n = afterStart; n < afterEnd; n += 1) newKeys.push(next.key(n));
  let o = beforeStart;
  let a = afterStart;
  for (const part of diffArrays(oldKeys, newKeys)) {
    const count = part.count ?? part.value.length;
    for (let n = 0; n < count; n += 1) {
      if (part.removed) ops.remove(o++);
      else if (part.added) ops.insert(o, a++);
      else {
        o += 1;
        a += 1;
      }
    }
  }
}
