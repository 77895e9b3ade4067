/**
 * Where a tolerant match of old_string can start, found without normalising the file's lines.
 *
 * Every tolerance level only drops or changes spaces and tabs (and, at the unicode level, non-ASCII
 * characters), and keeps newlines. So a match needs old_string with every space and tab removed
 * (the needle: its lines joined by newlines) to occur in the file read with spaces and tabs
 * skipped: the first line as the end of a file line, the middle ones whole, the last as the
 * beginning of one. The search is anchored on the rarest piece of old_string that every level
 * keeps as it is (a run of ASCII letters and digits, else one ASCII character), found with native
 * indexOf; from each place it occurs, the needle is compared in place, backwards and forwards,
 * skipping spaces and tabs. Nothing is copied or allocated per line, so a miss on 10 MB of near-
 * identical lines costs a few indexOf scans and one short comparison per occurrence. The caller
 * verifies every candidate with the level's real comparison (at the unicode level a non-ASCII file
 * character ends the comparison with "maybe").
 */
import type { LineIndex, OldLines } from './line-index.js';
import { normalizedText, type Tolerance } from './normalize.js';

const ASCII_ONLY = /^[\x00-\x7F]*$/;
/** ASCII characters the unicode level can produce from others (`…` is `...`, `«` is `<<`, dashes, quotes). */
const UNICODE_TARGETS = new Set(['-', "'", '"', '.', '<', '>']);
const SPACE = 32;
const TAB = 9;
const NEWLINE = 10;
/** How much of the file is sampled to order the pieces by how common they are. */
const SAMPLE_CHARS = 256 * 1024;
/** How many of old_string's pieces are counted to find the rarest. */
const ANCHOR_TRIES = 8;

const asciiFiles = new WeakMap<LineIndex, boolean>();

function isAscii(index: LineIndex): boolean {
  let ascii = asciiFiles.get(index);
  if (ascii === undefined) asciiFiles.set(index, (ascii = ASCII_ONLY.test(index.text)));
  return ascii;
}

/** True when the unicode level can find nothing the whitespace level did not: old_string and the file are ASCII. */
export function unicodeLevelIsRedundant(index: LineIndex, old: OldLines): boolean {
  return isAscii(index) && old.lines.every((line) => ASCII_ONLY.test(line));
}

interface Anchor {
  piece: string;
  /** Where the piece starts in the needle. */
  at: number;
  /** Newlines in the needle before it: the anchor's file line minus this is the window's first line. */
  line: number;
}

/**
 * The needle and the pieces of it the level keeps as they are, each with its place in the needle.
 * Without spacing or look-alike tolerance a line's text between its first and last non-blank
 * character is kept whole (the most selective anchor); otherwise only word runs are.
 */
function needleOf(old: OldLines, tolerance: Tolerance): { needle: string; anchors: Anchor[] } {
  const unicode = tolerance.unicode;
  const wholeLines = !tolerance.inlineWhitespace && !unicode;
  const anchors: Anchor[] = [];
  const singles: Anchor[] = [];
  let needle = '';
  old.lines.forEach((raw, line) => {
    if (line > 0) needle += '\n';
    const text = unicode ? normalizedText(raw, { trimStart: false, trimEnd: false, inlineWhitespace: false, unicode: true }) : raw;
    let kept = 0; // non-blank characters of this line so far
    for (let at = 0; at < text.length; at += 1) {
      const char = text[at]!;
      if (char === ' ' || char === '\t') continue;
      if (char.charCodeAt(0) < 0x80 && !(unicode && UNICODE_TARGETS.has(char))) singles.push({ piece: char, at: needle.length + kept, line });
      kept += 1;
    }
    const inner = text.trim();
    if (wholeLines && inner !== '') anchors.push({ piece: inner, at: needle.length, line });
    for (const word of text.matchAll(/[A-Za-z0-9_]{2,}/g)) {
      const before = text.slice(0, word.index).replace(/[ \t]+/g, '').length;
      anchors.push({ piece: word[0], at: needle.length + before, line });
    }
    needle += text.replace(/[ \t]+/g, '');
  });
  if (old.tailNewline) needle += '\n';
  // Longest words first (likely rarest); single characters only when there is no word.
  anchors.sort((a, b) => b.piece.length - a.piece.length);
  const distinct = (list: Anchor[]): Anchor[] => list.filter((anchor, n) => list.findIndex((other) => other.piece === anchor.piece) === n);
  return { needle, anchors: (anchors.length > 0 ? distinct(anchors) : distinct(singles)).slice(0, ANCHOR_TRIES) };
}

/** Offsets of `piece` in `text`, or undefined as soon as there are more than `limit`. */
function occurrences(text: string, piece: string, limit: number): number[] | undefined {
  const found: number[] = [];
  for (let at = text.indexOf(piece); at !== -1; at = text.indexOf(piece, at + 1)) {
    if (found.length >= limit) return undefined;
    found.push(at);
  }
  return found;
}

/**
 * Whether the needle can lie in `text` with needle offset `needleAt` on text offset `textAt`,
 * spaces and tabs in the text skipped. The anchor's own line is compared first (both ways), as it
 * is the likeliest to differ, then the rest of the needle. A non-ASCII character (in either) at
 * the unicode level stops the comparison with "maybe" (true).
 */
function fitsAt(walk: Walk, textAt: number, needleAt: number): boolean {
  walk.maybe = false;
  return (
    walk.run(textAt, needleAt, 1, true) &&
    walk.run(textAt - 1, needleAt - 1, -1, true) &&
    walk.run(walk.forwardText, walk.forwardNeedle, 1, false) &&
    walk.run(walk.backwardText, walk.backwardNeedle, -1, false)
  );
}

/** A comparison of the needle with the text in one direction, remembering where each direction stopped. */
class Walk {
  forwardText = 0;
  forwardNeedle = 0;
  backwardText = 0;
  backwardNeedle = 0;
  /** Set when a non-ASCII character at the unicode level ended the comparison: the rest is not compared. */
  maybe = false;

  constructor(
    private readonly text: string,
    private readonly needle: string,
    private readonly unicode: boolean,
  ) {}

  /** Compares from (i, j) in direction `step`, up to the needle's next newline when `lineOnly`. */
  run(i: number, j: number, step: 1 | -1, lineOnly: boolean): boolean {
    if (this.maybe) return true;
    const { text, needle, unicode } = this;
    while (j >= 0 && j < needle.length) {
      const want = needle.charCodeAt(j);
      if (lineOnly && want === NEWLINE) break;
      if (i < 0 || i >= text.length) return false;
      const code = text.charCodeAt(i);
      i += step;
      if (code === SPACE || code === TAB) continue;
      if (unicode && (code >= 0x80 || want >= 0x80)) {
        this.maybe = true;
        return true;
      }
      if (code !== want) return false;
      j += step;
    }
    if (step === 1) {
      this.forwardText = i;
      this.forwardNeedle = j;
    } else {
      this.backwardText = i;
      this.backwardNeedle = j;
    }
    return true;
  }
}

/**
 * The first lines of every window of the file that may match `old` under `tolerance`: a superset
 * of the real matches, ascending, without duplicates.
 */
export function candidateStarts(index: LineIndex, old: OldLines, tolerance: Tolerance): number[] {
  const { needle, anchors } = needleOf(old, tolerance);
  if (needle.trim() === '') return [];
  // Levels with the same needle and anchors share the search (and every repair sees the same file).
  let known = searches.get(index);
  if (!known) searches.set(index, (known = new Map()));
  const key = `${tolerance.unicode ? 'u' : tolerance.inlineWhitespace ? 'w' : 'l'}${needle}`;
  let starts = known.get(key);
  if (!starts) known.set(key, (starts = search(index.text, index, needle, anchors, tolerance.unicode)));
  return starts;
}

/** Searches already made on a file text, by the kind of anchors used and needle. */
const searches = new WeakMap<LineIndex, Map<string, number[]>>();

function search(text: string, index: LineIndex, needle: string, anchors: Anchor[], unicode: boolean): number[] {
  // Any piece gives every real match; the rarest gives the fewest to compare. A sample of the text
  // tells which pieces are common: those seen there are ranked by the sample alone (counting two
  // common pieces in full would cost two scans), those not seen are counted in full, rarest kept.
  const sample = text.slice(0, SAMPLE_CHARS);
  const ranked = anchors.map((anchor) => ({ anchor, count: occurrences(sample, anchor.piece, Infinity)!.length }));
  const fewest = Math.min(...ranked.map((entry) => entry.count));
  const tried = ranked.filter((entry) => entry.count === fewest).slice(0, fewest === 0 ? ANCHOR_TRIES : 1);
  let best: { anchor: Anchor; places: number[] } | undefined;
  for (const { anchor } of tried) {
    const places = occurrences(text, anchor.piece, best ? best.places.length : Infinity);
    if (places && (!best || places.length < best.places.length)) best = { anchor, places };
    if (best && best.places.length <= 1) break;
  }
  if (!best) return []; // old_string is only spaces, tabs and newlines: nothing a level can match
  const starts = new Set<number>();
  const walk = new Walk(text, needle, unicode);
  for (const place of best.places) {
    if (fitsAt(walk, place, best.anchor.at)) starts.add(index.lineAt(place) - best.anchor.line);
  }
  return [...starts].sort((a, b) => a - b);
}
