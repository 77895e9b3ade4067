import { distance } from 'fastest-levenshtein';
import type { LineIndex, OldLines } from './line-match.js';
import { normalizedText, type Tolerance } from './normalize.js';

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

/**
 * Where a file line and an old_string line differ. Indentation is compared last (edit_file
 * re-indents a shifted block itself), so a typo is named rather than the first leading space.
 */
function lineDifference(fileLine: string, oldLine: string): string {
  const fileText = fileLine.trimStart();
  const oldText = oldLine.trimStart();
  if (fileText === oldText) return `its indentation: the file has ${JSON.stringify(fileLine.slice(0, fileLine.length - fileText.length))} where old_string has ${JSON.stringify(oldLine.slice(0, oldLine.length - oldText.length))}`;
  let column = 0;
  while (column < fileText.length && column < oldText.length && fileText[column] === oldText[column]) column += 1;
  const indent = fileLine.length - fileText.length;
  return `column ${indent + column + 1}: the file has ${describeCharacter(fileText[column])} where old_string has ${describeCharacter(oldText[column])}`;
}

const LOOSE: Tolerance = { trimStart: true, trimEnd: true, inlineWhitespace: true, unicode: true };
/** Above this, edit distance is computed only for lines sharing a rare token with old_string. */
const DISTANCE_BUDGET_CHARS = 1_000_000;

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
      `${head} The closest match is ${place}; line ${lineNumber + 1} differs at ${lineDifference(fileLine, oldLine)}.\n` +
      `  file:       ${JSON.stringify(fileLine.slice(0, 200))}\n  old_string: ${JSON.stringify(oldLine.slice(0, 200))}\n${advice}`
    );
  }
  return `${head} The closest match is ${place}, but it differs in where lines begin or end. ${advice}`;
}

/** Lines holding `token`, at most `limit` of them (undefined when there are more). */
function linesWith(index: LineIndex, token: string, limit: number): Set<number> | undefined {
  const lines = new Set<number>();
  for (let at = index.text.indexOf(token); at !== -1; at = index.text.indexOf(token, at + token.length)) {
    lines.add(index.lineAt(at));
    if (lines.size > limit) return undefined;
  }
  return lines;
}

/** Runs of ASCII letters and digits of a line, longest first: they survive every normalisation. */
function tokensOf(line: string): string[] {
  return [...new Set(line.match(/[A-Za-z0-9_]{2,}/g) ?? [])].sort((a, b) => b.length - a.length);
}

/** Up to this many file lines are compared per old line; a token more common than that is skipped. */
const CANDIDATE_LIMIT = 2000;

/** The file lines that could be `line` of old_string: those holding its rarest usable token. */
function candidatesFor(index: LineIndex, line: string): Set<number> {
  let best: Set<number> | undefined;
  for (const token of tokensOf(line).slice(0, 6)) {
    const lines = linesWith(index, token, CANDIDATE_LIMIT);
    if (lines && (!best || lines.size < best.size)) best = lines;
    if (best && best.size <= 3) break;
  }
  return best ?? new Set();
}

/**
 * The window of file lines that shares the most lines with old_string (compared loosely), or,
 * when none is shared, that holds the line closest to old_string's longest by edit distance.
 * Only lines sharing a rare token with old_string are compared, so a 10 MB file costs a few
 * indexOf scans.
 */
function closestRegion(index: LineIndex, old: OldLines): { first: number } | undefined {
  const votes = new Map<number, number>();
  old.lines.forEach((line, offset) => {
    const wanted = normalizedText(line, LOOSE);
    if (wanted === '') return;
    for (const candidate of candidatesFor(index, line)) {
      if (normalizedText(index.line(candidate), LOOSE) !== wanted) continue;
      votes.set(candidate - offset, (votes.get(candidate - offset) ?? 0) + 1);
    }
  });
  let best: { first: number; votes: number } | undefined;
  for (const [first, count] of votes) if (!best || count > best.votes) best = { first: Math.max(0, first), votes: count };
  if (best) return best;
  return closestByDistance(index, old);
}

function closestByDistance(index: LineIndex, old: OldLines): { first: number } | undefined {
  const longest = old.lines.reduce((a, b) => (b.trim().length > a.trim().length ? b : a), '').trim();
  if (longest === '') return undefined;
  const offset = old.lines.findIndex((line) => line.trim() === longest);
  const candidates = index.text.length > DISTANCE_BUDGET_CHARS ? candidatesFor(index, longest) : allLines(index);
  let best: { line: number; score: number } | undefined;
  for (const line of candidates) {
    const text = index.line(line).trim();
    if (text === '' || Math.abs(text.length - longest.length) > longest.length) continue;
    const score = distance(text, longest);
    if (!best || score < best.score) best = { line, score };
  }
  // Too far apart to be the same line with a typo: better no region than a misleading one.
  if (!best || best.score > Math.max(3, longest.length * 0.4)) return undefined;
  return { first: Math.max(0, best.line - offset) };
}

function allLines(index: LineIndex): number[] {
  return Array.from({ length: index.count }, (_, line) => line);
}
