import { normalizeLine, type NormalizedLine, type Tolerance } from './normalize.js';
import { candidateStarts } from './prefilter.js';
import type { LineIndex, OldLines } from './line-index.js';

export { LineIndex, splitOld, type OldLines } from './line-index.js';

/** A region of the file that matched old_string, in offsets of the LF text. */
export interface WindowMatch {
  firstLine: number;
  lineCount: number;
  start: number;
  end: number;
  /** The first old line matched the whole file line (so its indentation is comparable). */
  firstWhole: boolean;
  lastWhole: boolean;
}

type Mode = 'substring' | 'suffix' | 'prefix' | 'whole';

function modeOf(index: number, old: OldLines): Mode {
  const last = old.lines.length - 1;
  if (index === 0 && last === 0 && !old.tailNewline) return 'substring';
  if (index === 0) return 'suffix';
  if (index === last && !old.tailNewline) return 'prefix';
  return 'whole';
}

/**
 * Every place where old_string's lines match consecutive file lines under `tolerance`: middle
 * lines whole, the first line as the end of a file line, the last as its beginning, and a single
 * line anywhere inside one. Overlapping matches are all counted, so uniqueness means unique.
 */
export function findWindows(index: LineIndex, old: OldLines, tolerance: Tolerance): WindowMatch[] {
  const normalizedOld = old.lines.map((line) => normalizeLine(line, tolerance));
  if (normalizedOld.every((line) => line.text === '')) return [];
  const cache = new Map<number, NormalizedLine>();
  const fileLine = (line: number): NormalizedLine => {
    let normalized = cache.get(line);
    if (!normalized) {
      normalized = normalizeLine(index.line(line), tolerance);
      cache.set(line, normalized);
    }
    return normalized;
  };

  const matches: WindowMatch[] = [];
  const count = old.lines.length;
  for (const first of candidateStarts(index, old, tolerance)) {
    if (first < 0 || first + count > index.count) continue;
    if (count === 1 && !old.tailNewline) {
      matches.push(...substringMatches(index, first, fileLine(first), normalizedOld[0]!.text));
      continue;
    }
    let start = -1;
    let end = -1;
    let firstWhole = false;
    let lastWhole = false;
    let ok = true;
    for (let offset = 0; offset < count && ok; offset += 1) {
      const line = first + offset;
      const want = normalizedOld[offset]!.text;
      const have = fileLine(line);
      const mode = modeOf(offset, old);
      const whole = have.text === want;
      if (mode === 'whole') ok = whole;
      else if (mode === 'suffix') ok = have.text.endsWith(want);
      else ok = have.text.startsWith(want);
      if (!ok) break;
      if (offset === 0) {
        firstWhole = whole;
        if (whole) start = index.start(line);
        else if (want === '') start = index.end(line);
        else start = index.start(line) + have.startOf(have.text.length - want.length);
      }
      if (offset === count - 1) {
        lastWhole = whole || mode !== 'prefix';
        if (old.tailNewline) end = Math.min(index.end(line) + 1, index.text.length);
        else if (whole) end = index.end(line);
        else end = want === '' ? index.start(line) : index.start(line) + have.endOf(want.length - 1);
      }
    }
    if (ok) matches.push({ firstLine: first, lineCount: count, start, end, firstWhole, lastWhole });
  }
  return matches;
}

function substringMatches(index: LineIndex, line: number, have: NormalizedLine, want: string): WindowMatch[] {
  if (want === '') return [];
  const matches: WindowMatch[] = [];
  for (let at = have.text.indexOf(want); at !== -1; at = have.text.indexOf(want, at + 1)) {
    const whole = at === 0 && want.length === have.text.length;
    const start = whole ? index.start(line) : index.start(line) + have.startOf(at);
    const end = whole ? index.end(line) : index.start(line) + have.endOf(at + want.length - 1);
    matches.push({ firstLine: line, lineCount: 1, start, end, firstWhole: whole, lastWhole: whole });
  }
  return matches;
}
