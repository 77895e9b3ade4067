/**
 * Puts an edit's replacements into the file's raw text, in one pass, and records the lines each
 * changed (for the diff). Two shapes: exact matches of one string all replaced by the same text
 * (offsets only; in a file without CRLF the text is built natively with split/join, so a
 * replace_all over 200,000 places makes no object per place), and a list of replacements found on
 * the LF text by the tolerant matchers (each mapped to raw offsets and given its line's ending).
 */
import { changedLines, type LineChanges } from '../diff-regions.js';
import type { LineEndings } from './line-endings.js';

export interface Replacement {
  start: number;
  end: number;
  text: string;
}

/** Every exact place of `old` in the LF text (ascending, not overlapping), each to become `text`. */
export interface ExactMatches {
  positions: number[];
  old: string;
  text: string;
}

export interface Spliced {
  updated: string;
  changes: LineChanges;
}

/** The first problem `check` finds at the end of a place (LF-text offsets), checked in order. */
export function problemAtEnds(places: ExactMatches | Replacement[], check: (end: number) => string | undefined): string | undefined {
  const count = placeCount(places);
  for (let n = 0; n < count; n += 1) {
    const problem = check(Array.isArray(places) ? places[n]!.end : places.positions[n]! + places.old.length);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

export function placeCount(places: ExactMatches | Replacement[]): number {
  return Array.isArray(places) ? places.length : places.positions.length;
}

export function splice(endings: LineEndings, places: ExactMatches | Replacement[]): Spliced {
  if (Array.isArray(places)) return spliceList(endings, places);
  if (endings.hasCrlf) {
    return spliceList(endings, places.positions.map((at) => ({ start: at, end: at + places.old.length, text: places.text })));
  }
  // No CRLF: LF offsets are raw offsets, and the positions are exactly the matches split finds
  // (every one, left to right, none overlapping).
  const { positions, old, text } = places;
  const raw = endings.raw;
  const updated = raw.split(old).join(text);
  const changes = changedLines(raw, { count: positions.length, start: (n) => positions[n]!, end: (n) => positions[n]! + old.length, text: () => text });
  return { updated, changes };
}

function spliceList(endings: LineEndings, replacements: Replacement[]): Spliced {
  const raw = endings.raw;
  const pieces: string[] = [];
  const rawReplacements: Replacement[] = [];
  let copied = 0;
  const inOrder = replacements.every((replacement, n) => n === 0 || replacements[n - 1]!.start <= replacement.start);
  for (const replacement of inOrder ? replacements : [...replacements].sort((a, b) => a.start - b.start)) {
    const start = endings.toRaw(replacement.start);
    const end = endings.toRaw(replacement.end);
    const ending = endings.endingFor(start, end);
    const text = ending === '\n' ? replacement.text : replacement.text.replace(/\n/g, ending);
    pieces.push(raw.slice(copied, start), text);
    rawReplacements.push({ start, end, text });
    copied = end;
  }
  pieces.push(raw.slice(copied));
  const changes = changedLines(raw, {
    count: rawReplacements.length,
    start: (n) => rawReplacements[n]!.start,
    end: (n) => rawReplacements[n]!.end,
    text: (n) => rawReplacements[n]!.text,
  });
  return { updated: pieces.join(''), changes };
}
