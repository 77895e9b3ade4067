import { distance } from 'fastest-levenshtein';
import type { LineIndex, OldLines } from './line-match.js';
import { normalizeLine, type Tolerance } from './normalize.js';

/** Names of the characters that look like others or cannot be seen. */
const CHARACTER_NAMES: Readonly<Record<string, string>> = {
  '\t': 'TAB',
  ' ': 'SPACE',
  '\u00A0': 'NO-BREAK SPACE',
  '\u2009': 'THIN SPACE',
  '\u202F': 'NARROW NO-BREAK SPACE',
  '\u200B': 'ZERO WIDTH SPACE',
  '\uFEFF': 'BYTE ORDER MARK',
  '\u2010': 'HYPHEN',
  '\u2011': 'NON-BREAKING HYPHEN',
  '\u2013': 'EN DASH',
  '\u2014': 'EM DASH',
  '\u2212': 'MINUS SIGN',
  '\u2018': 'LEFT SINGLE QUOTATION MARK',
  '\u2019': 'RIGHT SINGLE QUOTATION MARK',
  '\u201C': 'LEFT DOUBLE QUOTATION MARK',
  '\u201D': 'RIGHT DOUBLE QUOTATION MARK',
  '\u2026': 'HORIZONTAL ELLIPSIS',
  '\u0301': 'COMBINING ACUTE ACCENT',
  '\r': 'CARRIAGE RETURN',
};

/** `'–' (U+2013 EN DASH)`, or `end of line`. */
export function describeCharacter(char: string | undefined): string {
  if (char === undefined) return 'end of line';
  const code = char.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = CHARACTER_NAMES[char];
  const visible = code < 0x20 || /\s|\p{M}|\p{Cf}/u.test(char) ? '' : `'${char}' `;
  return `${visible}(${hex}${name ? ` ${name}` : ''})`;
}

/** Where two lines first differ, as `column C: the file has X where old_string has Y`. */
export function firstDifference(fileLine: string, oldLine: string): string {
  let column = 0;
  while (column < fileLine.length && column < oldLine.length && fileLine[column] === oldLine[column]) column += 1;
  return `column ${column + 1}: the file has ${describeCharacter(fileLine[column])} where old_string has ${describeCharacter(oldLine[column])}`;
}

const LOOSE: Tolerance = { trimStart: true, trimEnd: true, inlineWhitespace: true, unicode: true };
/** Above this, finding the closest line by edit distance would take too long; votes still work. */
const DISTANCE_BUDGET_CHARS = 4_000_000;

/**
 * The message for an old_string that matches nowhere: the closest region of the file, the first
 * line that differs and the characters that differ (with code points when they are invisible or
 * look alike), so the next attempt can succeed.
 */
export function notFoundMessage(index: LineIndex, old: OldLines, shown: string, nearMiss?: string): string {
  const head = `old_string was not found in ${shown}.`;
  const region = closestRegion(index, old);
  const advice = 'Re-read that part of the file with read_file and copy the text exactly.';
  if (nearMiss) return `${head} ${nearMiss} ${advice}`;
  if (!region) return `${head} No line of it appears in the file; it may have changed since you read it. ${advice}`;
  const lastLine = region.first + old.lines.length;
  const place = region.first + 1 === lastLine ? `line ${lastLine}` : `lines ${region.first + 1}-${lastLine}`;
  for (let offset = 0; offset < old.lines.length; offset += 1) {
    const lineNumber = region.first + offset;
    if (lineNumber >= index.count) break;
    const fileLine = index.line(lineNumber);
    const oldLine = old.lines[offset]!;
    if (fileLine === oldLine || (offset === 0 && fileLine.endsWith(oldLine)) || (offset === old.lines.length - 1 && fileLine.startsWith(oldLine))) continue;
    return (
      `${head} The closest match is ${place}; line ${lineNumber + 1} differs at ${firstDifference(fileLine, oldLine)}.\n` +
      `  file:       ${JSON.stringify(fileLine.slice(0, 200))}\n  old_string: ${JSON.stringify(oldLine.slice(0, 200))}\n${advice}`
    );
  }
  return `${head} The closest match is ${place}, but it differs in where lines begin or end. ${advice}`;
}

/** The window of file lines that shares the most lines with old_string (compared loosely). */
function closestRegion(index: LineIndex, old: OldLines): { first: number } | undefined {
  const wanted = new Map<string, number[]>();
  old.lines.forEach((line, offset) => {
    const text = normalizeLine(line, LOOSE).text;
    if (text === '') return;
    wanted.set(text, [...(wanted.get(text) ?? []), offset]);
  });
  const votes = new Map<number, number>();
  if (wanted.size > 0) {
    for (let line = 0; line < index.count; line += 1) {
      const offsets = wanted.get(normalizeLine(index.line(line), LOOSE).text);
      for (const offset of offsets ?? []) votes.set(line - offset, (votes.get(line - offset) ?? 0) + 1);
    }
  }
  let best: { first: number; votes: number } | undefined;
  for (const [first, count] of votes) if (!best || count > best.votes) best = { first: Math.max(0, first), votes: count };
  if (best) return best;
  return closestByDistance(index, old);
}

function closestByDistance(index: LineIndex, old: OldLines): { first: number } | undefined {
  const longest = old.lines.reduce((a, b) => (b.trim().length > a.trim().length ? b : a), '').trim();
  if (longest === '' || index.text.length > DISTANCE_BUDGET_CHARS) return undefined;
  const offset = old.lines.findIndex((line) => line.trim() === longest);
  let best: { line: number; score: number } | undefined;
  for (let line = 0; line < index.count; line += 1) {
    const text = index.line(line).trim();
    if (text === '' || Math.abs(text.length - longest.length) > longest.length) continue;
    const score = distance(text, longest);
    if (!best || score < best.score) best = { line, score };
  }
  // Too far apart to be the same line with a typo: better no region than a misleading one.
  if (!best || best.score > Math.max(3, longest.length * 0.4)) return undefined;
  return { first: Math.max(0, best.line - offset) };
}
