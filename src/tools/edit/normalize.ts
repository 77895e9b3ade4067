/**
 * Line normalisation for edit_file's tolerant matchers. Each tolerance level compares a line of
 * old_string with a line of the file after the same normalisation; the maps lead every normalised
 * character back to the raw text, so a match found on normalised text is applied to exact raw
 * offsets and nothing outside it is rewritten.
 */
import { lazy } from '../../util/lazy.js';

export interface Tolerance {
  /** Leading whitespace is compared separately (as a block shift), not character by character. */
  trimStart: boolean;
  trimEnd: boolean;
  /** Whitespace runs inside a line: dropped, or one space between two word characters. */
  inlineWhitespace: boolean;
  /** Look-alike punctuation, no-break and zero-width spaces, and NFC/NFD forms. */
  unicode: boolean;
}

/** A line's normalised text, and (computed only when a match needs it) where each character came from. */
export interface NormalizedLine {
  text: string;
  /** Raw index where the source of normalised character `index` starts. */
  startOf(index: number): number;
  /** Raw index just after the source of normalised character `index`. */
  endOf(index: number): number;
}

/** Characters a model types in place of a look-alike; each maps to its ASCII form. */
const LOOK_ALIKES: ReadonlyMap<string, string> = new Map([
  ...[...'\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D'].map((c) => [c, '-'] as const),
  ...[...'\u2018\u2019\u201A\u201B\u2032\u2035\uFF07'].map((c) => [c, "'"] as const),
  ...[...'\u201C\u201D\u201E\u201F\u2033\u2036\uFF02'].map((c) => [c, '"'] as const),
  ['\u2026', '...'],
  ['\u00AB', '<<'],
  ['\u00BB', '>>'],
]);

/** Space characters other than space and tab that stand for a space. */
const UNICODE_SPACE = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/;
/** Invisible characters that stand for nothing. */
const ZERO_WIDTH = /[\u200B\u200C\u200D\u2060\uFEFF]/;
// Unicode property classes cost 0.1 ms each to create: made at first use, not at start.
const COMBINING = lazy(() => /\p{M}/u);
const WORD = lazy(() => /[\p{L}\p{N}_$]/u);

/**
 * The normalised form of a line. The text comes from a few native string operations (most lines
 * are compared and dropped); the per-character map is built only when asked for.
 */
export function normalizeLine(raw: string, tolerance: Tolerance): NormalizedLine {
  const text = normalizedText(raw, tolerance);
  if (!tolerance.inlineWhitespace && !tolerance.unicode) {
    const from = tolerance.trimStart ? raw.length - raw.trimStart().length : 0;
    return { text, startOf: (index) => from + index, endOf: (index) => from + index + 1 };
  }
  let map: MappedLine | undefined;
  const mapped = (): MappedLine => (map ??= mapLine(raw, tolerance));
  // If the two ways ever disagreed, offsets past the map's end clamp to the line's end; the
  // caller only asks for offsets inside a match it verified on `text`.
  return {
    text,
    startOf: (index) => mapped().starts[index] ?? raw.length,
    endOf: (index) => mapped().ends[index] ?? raw.length,
  };
}

const ZERO_WIDTH_ALL = /[\u200B\u200C\u200D\u2060\uFEFF]/g;
const UNICODE_SPACE_ALL = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;
const LOOK_ALIKE_ALL = new RegExp(`[${[...LOOK_ALIKES.keys()].join('')}]`, 'g');

/** normalizeLine's text, with native operations only. */
export function normalizedText(raw: string, tolerance: Tolerance): string {
  let text = raw;
  if (tolerance.unicode) {
    text = text.replace(ZERO_WIDTH_ALL, '').normalize('NFC').replace(LOOK_ALIKE_ALL, (char) => LOOK_ALIKES.get(char)!).replace(UNICODE_SPACE_ALL, ' ');
  }
  if (tolerance.trimStart) text = text.replace(/^[ \t]+/, '');
  if (tolerance.trimEnd) text = text.replace(/[ \t]+$/, '');
  if (tolerance.inlineWhitespace) {
    text = text.replace(/[ \t]+/g, (run: string, at: number, whole: string) =>
      WORD().test(whole[at - 1] ?? '') && WORD().test(whole[at + run.length] ?? '') ? ' ' : '',
    );
  }
  return text;
}

interface MappedLine {
  starts: number[];
  ends: number[];
}

/**
 * The per-character form of normalizedText: the raw source range of every character it keeps.
 * A tight loop over char codes (regular expressions only for non-ASCII), since a 5 MB line can
 * reach it.
 */
function mapLine(raw: string, tolerance: Tolerance): MappedLine {
  const unicode = tolerance.unicode;
  const space = (code: number, char: string): boolean =>
    code === 32 || code === 9 || (unicode && code >= 0x80 && (UNICODE_SPACE.test(char) || ZERO_WIDTH.test(char)));
  let from = 0;
  let to = raw.length;
  if (tolerance.trimStart) while (from < to && space(raw.charCodeAt(from), raw[from]!)) from += 1;
  if (tolerance.trimEnd) while (to > from && space(raw.charCodeAt(to - 1), raw[to - 1]!)) to -= 1;

  const starts: number[] = [];
  const ends: number[] = [];
  let last = '';
  let index = from;
  while (index < to) {
    const code = raw.charCodeAt(index);
    if (code < 0x80 && code !== 32 && code !== 9) {
      starts.push(index);
      ends.push(index + 1);
      last = raw[index]!;
      index += 1;
      continue;
    }
    const char = raw[index]!;
    if (unicode && code >= 0x80 && ZERO_WIDTH.test(char)) {
      index += 1;
      continue;
    }
    if (tolerance.inlineWhitespace && space(code, char)) {
      const runStart = index;
      while (index < to && space(raw.charCodeAt(index), raw[index]!)) index += 1;
      const after = raw[index];
      if (last !== '' && after !== undefined && WORD().test(last) && WORD().test(after)) {
        starts.push(runStart);
        ends.push(index);
        last = ' ';
      }
      continue;
    }
    if (!unicode) {
      starts.push(index);
      ends.push(index + 1);
      last = char;
      index += 1;
      continue;
    }
    // A code point with the combining marks after it, normalised as one cluster.
    const codePoint = raw.codePointAt(index)!;
    let end = index + (codePoint > 0xffff ? 2 : 1);
    while (end < to && COMBINING().test(raw[end]!)) end += 1;
    const cluster = raw.slice(index, end);
    const composed = cluster.length === 1 ? cluster : cluster.normalize('NFC');
    const replaced = LOOK_ALIKES.get(composed) ?? (UNICODE_SPACE.test(composed) ? ' ' : composed);
    for (let unit = 0; unit < replaced.length; unit += 1) {
      starts.push(index);
      ends.push(end);
    }
    last = replaced[replaced.length - 1] ?? last;
    index = end;
  }
  return { starts, ends };
}

/** The tolerance levels after the exact match, strict to tolerant. */
export const LEVELS = [
  { name: 'trailing-whitespace', tolerance: { trimStart: false, trimEnd: true, inlineWhitespace: false, unicode: false } },
  { name: 'indentation', tolerance: { trimStart: true, trimEnd: true, inlineWhitespace: false, unicode: false } },
  { name: 'whitespace', tolerance: { trimStart: true, trimEnd: true, inlineWhitespace: true, unicode: false } },
  { name: 'unicode', tolerance: { trimStart: true, trimEnd: true, inlineWhitespace: true, unicode: true } },
] as const satisfies ReadonlyArray<{ name: string; tolerance: Tolerance }>;

export type LevelName = 'exact' | (typeof LEVELS)[number]['name'];

/** Leading spaces and tabs of a line. */
export function indentOf(line: string): string {
  let end = 0;
  while (end < line.length && (line[end] === ' ' || line[end] === '\t')) end += 1;
  return line.slice(0, end);
}
