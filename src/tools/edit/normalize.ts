/**
 * Line normalisation for edit_file's tolerant matchers. Each tolerance level compares a line of
 * old_string with a line of the file after the same normalisation; the maps lead every normalised
 * character back to the raw text, so a match found on normalised text is applied to exact raw
 * offsets and nothing outside it is rewritten.
 */

export interface Tolerance {
  /** Leading whitespace is compared separately (as a block shift), not character by character. */
  trimStart: boolean;
  trimEnd: boolean;
  /** Whitespace runs inside a line: dropped, or one space between two word characters. */
  inlineWhitespace: boolean;
  /** Look-alike punctuation, no-break and zero-width spaces, and NFC/NFD forms. */
  unicode: boolean;
}

export interface NormalizedLine {
  text: string;
  /** Raw index where the source of each normalised character starts. */
  starts: number[];
  /** Raw index just after the source of each normalised character. */
  ends: number[];
  /** Raw index of the first character kept (after trimming). */
  from: number;
  /** Raw index just after the last character kept. */
  to: number;
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
const COMBINING = /\p{M}/u;
const WORD = /[\p{L}\p{N}_$]/u;

function isSpace(char: string, tolerance: Tolerance): boolean {
  return char === ' ' || char === '\t' || (tolerance.unicode && UNICODE_SPACE.test(char));
}

export function normalizeLine(raw: string, tolerance: Tolerance): NormalizedLine {
  let from = 0;
  let to = raw.length;
  const space = (index: number): boolean => {
    const char = raw[index]!;
    return isSpace(char, tolerance) || (tolerance.unicode && ZERO_WIDTH.test(char));
  };
  if (tolerance.trimStart) while (from < to && space(from)) from += 1;
  if (tolerance.trimEnd) while (to > from && space(to - 1)) to -= 1;

  // Fast path: nothing inside the line can change.
  if (!tolerance.inlineWhitespace && !tolerance.unicode) {
    const text = raw.slice(from, to);
    const starts = new Array<number>(text.length);
    const ends = new Array<number>(text.length);
    for (let index = 0; index < text.length; index += 1) {
      starts[index] = from + index;
      ends[index] = from + index + 1;
    }
    return { text, starts, ends, from, to };
  }

  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  const emit = (chars: string, start: number, end: number): void => {
    for (const char of chars) {
      text += char;
      starts.push(start);
      ends.push(end);
    }
  };
  let index = from;
  while (index < to) {
    const char = raw[index]!;
    if (tolerance.unicode && ZERO_WIDTH.test(char)) {
      index += 1;
      continue;
    }
    if (tolerance.inlineWhitespace && isSpace(char, tolerance)) {
      const runStart = index;
      while (index < to && isSpace(raw[index]!, tolerance)) index += 1;
      const before = text[text.length - 1];
      const after = raw[index];
      if (before !== undefined && after !== undefined && WORD.test(before) && WORD.test(after)) emit(' ', runStart, index);
      continue;
    }
    if (!tolerance.unicode) {
      emit(char, index, index + 1);
      index += 1;
      continue;
    }
    // A code point with the combining marks after it, normalised as one cluster.
    const codePoint = raw.codePointAt(index)!;
    let end = index + (codePoint > 0xffff ? 2 : 1);
    while (end < to && COMBINING.test(raw[end]!)) end += 1;
    const cluster = raw.slice(index, end);
    const composed = cluster.length === 1 ? cluster : cluster.normalize('NFC');
    const replaced = LOOK_ALIKES.get(composed) ?? (UNICODE_SPACE.test(composed) ? ' ' : composed);
    emit(replaced, index, end);
    index = end;
  }
  return { text, starts, ends, from, to };
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
