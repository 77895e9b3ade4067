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

/**
 * The lines an edit changed, in order: change n turned lines [beforeStart[n], beforeEnd[n]) of the
 * old text (0-based) into lines [afterStart[n], afterEnd[n]) of the new one. Four arrays of
 * numbers, not an object per change: a replace_all over 200,000 lines makes no garbage here.
 */
export class LineChanges {
  readonly beforeStart: number[] = [];
  readonly beforeEnd: number[] = [];
  readonly afterStart: number[] = [];
  readonly afterEnd: number[] = [];

  get length(): number {
    return this.beforeStart.length;
  }

  /** Adds a change after the last one, merged with it when they share a line. */
  add(beforeStart: number, beforeEnd: number, afterStart: number, afterEnd: number): void {
    const last = this.length - 1;
    if (last >= 0 && beforeStart < this.beforeEnd[last]!) {
      this.beforeEnd[last] = beforeEnd;
      this.afterEnd[last] = afterEnd;
      return;
    }
    this.beforeStart.push(beforeStart);
    this.beforeEnd.push(beforeEnd);
    this.afterStart.push(afterStart);
    this.afterEnd.push(afterEnd);
  }
}

/** Replacements in raw offsets of the old text (sorted, not overlapping), read by number. */
export interface ReplacementList {
  readonly count: number;
  start(n: number): number;
  end(n: number): number;
  /** The raw text put in place n. */
  text(n: number): string;
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

/** The lines each replacement changes. Replacements sharing a line are merged. */
export function changedLines(before: string, replacements: ReplacementList): LineChanges {
  const changes = new LineChanges();
  let position = 0;
  let line = 0;
  let delta = 0; // after-line minus before-line, past the replacements seen so far
  let lastText: string | undefined;
  let lastAdded = 0;
  for (let n = 0; n < replacements.count; n += 1) {
    const start = replacements.start(n);
    const end = replacements.end(n);
    const text = replacements.text(n);
    line += newlinesIn(before, position, start);
    const inside = newlinesIn(before, start, end);
    // A replace_all puts the same text everywhere: its newlines are counted once.
    if (text !== lastText) {
      lastText = text;
      lastAdded = newlinesIn(text, 0, text.length);
    }
    const added = lastAdded;
    // The line holding the end is untouched when both sides end exactly at a line start there.
    const atLineStart = start === 0 || before.charCodeAt(start - 1) === 10;
    const beforeEndsLine = end > start ? before.charCodeAt(end - 1) === 10 : atLineStart;
    const afterEndsLine = text !== '' ? text.endsWith('\n') : atLineStart;
    const tail = beforeEndsLine && afterEndsLine ? 0 : 1;
    changes.add(line, line + inside + tail, line + delta, line + delta + added + tail);
    delta += added - inside;
    line += inside;
    position = end;
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

  /** Where line n's text starts (without a carriage return before its newline, see endOf). */
  startOf(n: number): number {
    return this.starts[n]!;
  }

  /** Where line n's text ends, without its newline or a carriage return before it. */
  endOf(n: number): number {
    let end = n + 1 < this.starts.length ? this.starts[n + 1]! - 1 : this.text.length;
    if (end > this.starts[n]! && this.text.charCodeAt(end - 1) === 13) end -= 1;
    return end;
  }

  /** key(n) === other.key(m), compared in place (most lines of a large edit differ in length). */
  same(n: number, other: Lines, m: number): boolean {
    const noNewline = n === this.count - 1 && !this.endsWithNewline;
    if (noNewline !== (m === other.count - 1 && !other.endsWithNewline)) return false;
    const from = this.startOf(n);
    const to = this.endOf(n);
    const otherFrom = other.startOf(m);
    if (to - from !== other.endOf(m) - otherFrom) return false;
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
export function diffFromChanges(label: string, before: string, after: string, changes: LineChanges): { diff: string; added: number; removed: number } {
  const old = new Lines(before);
  const next = new Lines(after);
  const ops = new Ops();
  for (let n = 0; n < changes.length; n += 1) {
    const beforeEnd = Math.min(changes.beforeEnd[n]!, old.count);
    regionOps(old, next, changes.beforeStart[n]!, beforeEnd, changes.afterStart[n]!, Math.min(changes.afterEnd[n]!, next.count), ops);
  }
  const writer = new DiffWriter(label, old, next, ops);
  let at = 0;
  while (at < ops.length) {
    if (writer.full()) {
      writer.countRest(at);
      break;
    }
    // One hunk: changed lines whose contexts touch or overlap (as the general diff groups them).
    let last = at;
    while (last + 1 < ops.length && ops.old[last + 1]! - ops.endOf(last) <= 2 * CONTEXT_LINES) last += 1;
    at = writer.hunk(at, last);
  }
  return { diff: `${writer.out.join('\n')}\n`, added: writer.added, removed: writer.removed };
}

/** Writes the diff's lines, up to DIFF_LINE_CAP, and counts every changed line. */
class DiffWriter {
  readonly out: string[];
  removed = 0;
  added = 0;
  /** Old lines before the next op that are unchanged map to new lines at a fixed offset: new = old + shift. */
  private shift = 0;

  constructor(
    label: string,
    private readonly old: Lines,
    private readonly next: Lines,
    private readonly ops: Ops,
  ) {
    this.out = [`--- ${label}`, `+++ ${label}`];
  }

  full(): boolean {
    return this.out.length > DIFF_LINE_CAP;
  }

  /** Past the cap, the rest is only counted. */
  countRest(from: number): void {
    let more = 0;
    for (let at = from; at < this.ops.length; at += 1) more += this.ops.added[at] === -1 ? (this.removed++, 1) : (this.added++, 1);
    this.out.push(`(diff cut at ${DIFF_LINE_CAP.toLocaleString('en-US')} lines: ${more} more changed lines not shown)`);
  }

  private push(prefix: string, text: Lines, n: number): void {
    this.out.push(prefix + text.get(n));
    if (n === text.count - 1 && !text.endsWithNewline) this.out.push(NO_NEWLINE);
  }

  /**
   * The hunk of ops [at, last]. One hunk can hold a whole file's changes (a replace_all on every
   * line), so the cap also ends a hunk early, after a run of changed lines (a run cut to fit).
   * Returns the first op not written.
   */
  hunk(at: number, last: number): number {
    const { ops, old, next } = this;
    const oldStart = Math.max(0, ops.old[at]! - CONTEXT_LINES);
    let oldEnd = Math.min(old.count, ops.endOf(last) + CONTEXT_LINES);
    const newStart = oldStart + this.shift;
    // The hunk's header is known once its lines are counted: its place is kept and filled then.
    const header = this.out.length;
    this.out.push('');
    let line = oldStart;
    let oldLines = 0;
    let newLines = 0;
    let n = at;
    while (n <= last) {
      if (this.full()) {
        oldEnd = line; // cut: no context after the last run shown
        break;
      }
      for (; line < ops.old[n]!; line += 1, oldLines += 1, newLines += 1) this.push(' ', old, line);
      // A run of changed lines with no context between: removed lines first, then added ones.
      const room = Math.max(1, DIFF_LINE_CAP + 1 - this.out.length);
      let end = n + 1;
      while (end <= last && end - n < room && ops.old[end] === ops.endOf(end - 1)) end += 1;
      for (let op = n; op < end; op += 1) {
        if (ops.added[op] !== -1) continue;
        this.push('-', old, ops.old[op]!);
        line = ops.old[op]! + 1;
        oldLines += 1;
        this.removed += 1;
        this.shift -= 1;
      }
      for (let op = n; op < end; op += 1) {
        if (ops.added[op] === -1) continue;
        this.push('+', next, ops.added[op]!);
        newLines += 1;
        this.added += 1;
        this.shift += 1;
      }
      n = end;
    }
    for (; line < oldEnd; line += 1, oldLines += 1, newLines += 1) this.push(' ', old, line);
    this.out[header] = `@@ -${oldLines === 0 ? oldStart : oldStart + 1},${oldLines} +${newLines === 0 ? newStart : newStart + 1},${newLines} @@`;
    return n;
  }
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
