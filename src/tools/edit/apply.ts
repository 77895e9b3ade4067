import type { LineChanges } from '../diff-regions.js';
import { READ_MAX_LINE_CHARS } from '../read-file.js';
import { composeReplacement } from './compose.js';
import { composeLineByLine } from './line-reindent.js';
import { unicodeLevelIsRedundant } from './prefilter.js';
import { firstDifference, notFoundMessage } from './diagnose.js';
import { LineEndings } from './line-endings.js';
import { findWindows, LineIndex, splitOld, type OldLines, type WindowMatch } from './line-match.js';
import { indentOf, LEVELS, normalizeLine, type LevelName } from './normalize.js';
import { findBlockShift, spaceUnitOf, type BlockShift } from './reindent.js';
import { placeCount, problemAtEnds, splice, type ExactMatches, type Replacement } from './splice.js';
import { CUT_MARKER, elisionPlaceholder, halveBackslashes, stripLineNumbers, trimBlankLines, unescapeStrings, type EditStrings, type Repair } from './repairs.js';

export interface EditSpec {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export type EditOutcome =
  /** `changes`: the lines each replacement changed (one edit only), for a diff built in linear time. */
  | { ok: true; updated: string; replacements: number; notes: string[]; changes?: LineChanges }
  | { ok: false; message: string };

/**
 * Applies edits in order to `original` in memory; all of them or none. Each old_string is looked
 * for from strict to tolerant (exact; trailing whitespace; indentation shifted as a block; spacing
 * inside lines; look-alike characters), first as sent, then with read_file's line numbers or
 * stray escapes removed. The first level that finds it decides: one place is applied, several are
 * refused with their line numbers. Whatever tolerance was needed is returned in `notes`.
 */
export function applyEdits(original: string, edits: readonly EditSpec[], shown: string): EditOutcome {
  let text = original;
  let replacements = 0;
  const notes: string[] = [];
  for (const [position, edit] of edits.entries()) {
    const outcome = applyEdit(text, edit, shown);
    if (!outcome.ok) {
      const which = edits.length > 1 ? `Edit ${position + 1} of ${edits.length} failed, so none were applied. ` : '';
      return { ok: false, message: which + outcome.message };
    }
    if (edits.length === 1) return outcome;
    text = outcome.updated;
    replacements += outcome.replacements;
    notes.push(...outcome.notes.map((note) => (edits.length > 1 ? `edit ${position + 1}: ${note}` : note)));
  }
  return { ok: true, updated: text, replacements, notes };
}

type Search =
  /** `places`: exact matches as offsets only, or the tolerant matchers' replacements. */
  | { kind: 'found'; level: LevelName; places: ExactMatches | Replacement[]; note?: string }
  | { kind: 'ambiguous'; level: LevelName; lines: number[] }
  | { kind: 'none'; nearMiss?: string };

function applyEdit(raw: string, edit: EditSpec, shown: string): EditOutcome {
  const strings: EditStrings = { oldString: lf(edit.old_string), newString: lf(edit.new_string) };
  if (strings.oldString === strings.newString) {
    return { ok: false, message: 'old_string and new_string are identical; the edit would change nothing.' };
  }
  if (strings.oldString === '') {
    return { ok: false, message: 'old_string is empty. To create a file or replace all of it, use write_file.' };
  }
  const endings = new LineEndings(raw);
  const index = new LineIndex(endings.lf);
  const cut = cutMarkerProblem(strings, endings.lf);
  if (cut) return { ok: false, message: cut };

  const replaceAll = edit.replace_all === true;
  let used: EditStrings = strings;
  let repairNote: string | undefined;
  let search = locate(index, strings, replaceAll);
  if (search.kind === 'none') {
    for (const repair of repairsOf(strings, endings.lf)) {
      const attempt = locate(index, repair, replaceAll);
      if (attempt.kind === 'none') continue;
      if (repair.refused !== undefined) return { ok: false, message: repair.refused };
      search = attempt;
      used = repair;
      repairNote = repair.note;
      break;
    }
  }
  if (search.kind === 'none') return { ok: false, message: notFoundMessage(index, splitOld(strings.oldString), shown, search.nearMiss) };
  if (search.kind === 'ambiguous') return { ok: false, message: ambiguousMessage(search, shown, replaceAll) };

  const placeholder = elisionPlaceholder(used.oldString, used.newString);
  if (placeholder !== undefined) {
    const effect = placeholder.deletes ? 'where old_string has code, so the edit would delete that code' : 'that old_string does not have; it would be written into the file literally';
    return {
      ok: false,
      message:
        `new_string contains the placeholder "${placeholder.line}" ${effect}. ` +
        'edit_file writes new_string as it is: include the full text you want, or make old_string smaller so it covers only what changes.',
    };
  }
  const midLine = problemAtEnds(search.places, (end) => midLineCut(index, end));
  if (midLine !== undefined) return { ok: false, message: midLine };

  // One pass over the text, so replace_all over 200,000 places stays linear.
  const { updated, changes } = splice(endings, search.places);
  const notes = [repairNote, search.note].filter((note): note is string => note !== undefined);
  return { ok: true, updated, replacements: placeCount(search.places), notes, changes };
}

function lf(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}

function* repairsOf(strings: EditStrings, fileText: string): Generator<Repair> {
  const numbers = stripLineNumbers(strings);
  if (numbers) yield numbers;
  const escapes = unescapeStrings(strings, fileText);
  if (escapes) yield escapes;
  const both = numbers && unescapeStrings(numbers, fileText);
  if (both) yield { ...both, note: `${numbers.note}; ${both.note}` };
  const backslashes = halveBackslashes(strings);
  if (backslashes) yield backslashes;
  const blanks = trimBlankLines(strings);
  if (blanks) yield blanks;
}

/** Finds old_string from strict to tolerant; the first level with any match decides. */
function locate(index: LineIndex, strings: EditStrings, replaceAll: boolean): Search {
  const exact = exactPositions(index.text, strings.oldString, replaceAll ? Infinity : AMBIGUITY_LIST_LIMIT);
  if (exact.length > 0) {
    if (exact.length > 1 && !replaceAll) return { kind: 'ambiguous', level: 'exact', lines: exact.map((at) => index.lineAt(at) + 1) };
    const end = (at: number): number => at + strings.oldString.length;
    if (exact.some((at, n) => n > 0 && at < end(exact[n - 1]!))) return { kind: 'ambiguous', level: 'exact', lines: exact.map((at) => index.lineAt(at) + 1) };
    return { kind: 'found', level: 'exact', places: { positions: exact, old: strings.oldString, text: strings.newString } };
  }
  const old = splitOld(strings.oldString);
  for (const level of LEVELS) {
    if (level.name === 'unicode' && unicodeLevelIsRedundant(index, old)) continue;
    const windows = findWindows(index, old, level.tolerance);
    if (windows.length === 0) continue;
    const lines = windows.map((window) => window.firstLine + 1);
    if (windows.length > 1 && (!replaceAll || overlapping(windows))) return { kind: 'ambiguous', level: level.name, lines };
    const replacements: Replacement[] = [];
    let shiftSeen: BlockShift | undefined;
    for (const window of windows) {
      const shift = blockShiftOf(index, old, window, strings.newString);
      // No shift of the whole block fits: the (unique) block is re-indented line by line from the file.
      shiftSeen ??= shift ?? LINE_BY_LINE;
      const text = shift ? composeReplacement(index, window, old, strings.newString, shift) : composeLineByLine(index, window, old, strings.newString);
      replacements.push({ start: window.start, end: window.end, text });
    }
    return { kind: 'found', level: level.name, places: replacements, note: levelNote(level.name, shiftSeen!, index, old, windows[0]!) };
  }
  return { kind: 'none' };
}

/** Stands for "indentation taken from the file line by line" in the result's note. */
const LINE_BY_LINE: BlockShift = {
  description: "its indentation is not the file's shifted as a block, so new_string's lines were indented from the file's lines one by one",
  identity: false,
  apply: (indent) => indent,
};

/** Without replace_all, a second place already means "ambiguous": counting stops here. */
const AMBIGUITY_LIST_LIMIT = 100;

/** Every start of `needle` in `text` (at most `limit`), overlapping ones included. */
function exactPositions(text: string, needle: string, limit: number): number[] {
  const positions: number[] = [];
  for (let at = text.indexOf(needle); at !== -1 && positions.length < limit; at = text.indexOf(needle, at + 1)) positions.push(at);
  return positions;
}

function overlapping(windows: WindowMatch[]): boolean {
  const sorted = [...windows].sort((a, b) => a.start - b.start);
  return sorted.some((window, n) => n > 0 && window.start < sorted[n - 1]!.end);
}

function blockShiftOf(index: LineIndex, old: OldLines, window: WindowMatch, newString: string): BlockShift | undefined {
  const pairs = [];
  for (let offset = 0; offset < window.lineCount; offset += 1) {
    if (offset === 0 && !window.firstWhole) continue;
    const oldLine = old.lines[offset]!;
    const fileLine = index.line(window.firstLine + offset);
    if (oldLine.trim() === '' || fileLine.trim() === '') continue;
    pairs.push({ old: indentOf(oldLine), file: indentOf(fileLine) });
  }
  const around = (): number => {
    const lines: string[] = [];
    for (let line = Math.max(0, window.firstLine - 50); line < Math.min(index.count, window.firstLine + window.lineCount + 50); line += 1) {
      lines.push(index.line(line));
    }
    return spaceUnitOf(lines);
  };
  return findBlockShift(pairs, around, newString.split('\n').map(indentOf));
}

function levelNote(level: LevelName, shift: BlockShift, index: LineIndex, old: OldLines, window: WindowMatch): string | undefined {
  const reindented = shift.identity ? '' : ` and a shifted indentation (${shift.description}; new_string was re-indented to match)`;
  switch (level) {
    case 'exact':
      return undefined;
    case 'trailing-whitespace':
      return 'old_string matched once trailing whitespace was ignored';
    case 'indentation':
      if (shift === LINE_BY_LINE) return `old_string matched once indentation was ignored; ${shift.description}`;
      return shift.identity
        ? 'old_string matched once leading and trailing whitespace was ignored'
        : `old_string matched with a shifted indentation (${shift.description}; new_string was re-indented to match)`;
    case 'whitespace':
      return `old_string matched once spacing inside lines was ignored${reindented}`;
    case 'unicode':
      return `old_string matched once look-alike characters were treated as equal (${lookAlikeDifference(index, old, window)})${reindented}`;
  }
}

/** The first look-alike character of the match, described for the model. */
function lookAlikeDifference(index: LineIndex, old: OldLines, window: WindowMatch): string {
  const spacing = LEVELS[2].tolerance;
  for (let offset = 0; offset < window.lineCount; offset += 1) {
    const fileLine = normalizeLine(index.line(window.firstLine + offset), spacing).text;
    const oldLine = normalizeLine(old.lines[offset]!, spacing).text;
    if (fileLine.includes(oldLine)) continue;
    const at = offset === 0 && window.lineCount > 1 ? Math.max(0, fileLine.length - oldLine.length) : 0;
    return `line ${window.firstLine + offset + 1}, ${firstDifference(fileLine.slice(at), oldLine)}`;
  }
  return 'the characters differ in their Unicode form';
}

function ambiguousMessage(search: { level: LevelName; lines: number[] }, shown: string, replaceAll: boolean): string {
  const lines = [...new Set(search.lines)];
  const listed = lines.slice(0, 8).join(', ') + (lines.length > 8 ? ', …' : '');
  const count = search.lines.length >= AMBIGUITY_LIST_LIMIT ? `at least ${AMBIGUITY_LIST_LIMIT}` : String(search.lines.length);
  const how = search.level === 'exact' ? '' : ` once ${LEVEL_WORDS[search.level]} is ignored`;
  if (replaceAll) {
    return `old_string matches overlapping places in ${shown} (lines ${listed})${how}; replace_all cannot tell which to change. Make old_string longer so the places do not overlap.`;
  }
  return (
    `old_string matches ${count} places in ${shown} (lines ${listed})${how}. ` +
    'Include more surrounding lines to make it unique, or set replace_all to true to change every occurrence.'
  );
}

const LEVEL_WORDS: Record<Exclude<LevelName, 'exact'>, string> = {
  'trailing-whitespace': 'trailing whitespace',
  indentation: 'indentation',
  whitespace: 'spacing',
  unicode: 'the difference between look-alike characters',
};

/**
 * read_file shows at most READ_MAX_LINE_CHARS characters of a line. An old_string that ends
 * exactly there inside a longer line was copied from the cut view: applying it would splice
 * new_string into the middle of the line.
 */
function midLineCut(index: LineIndex, end: number): string | undefined {
  const line = index.lineAt(end);
  const start = index.start(line);
  const lineEnd = index.end(line);
  const bom = line === 0 && index.text.startsWith('\uFEFF') ? 1 : 0;
  if (end >= lineEnd || end - start - bom !== READ_MAX_LINE_CHARS) return undefined;
  return (
    `old_string ends where read_file cuts line ${line + 1} (${lineEnd - start - bom} characters long; read_file shows the first ${READ_MAX_LINE_CHARS}). ` +
    'Applying it would put new_string in the middle of that line. Make old_string end before the cut, or rewrite the file with write_file.'
  );
}

function cutMarkerProblem(strings: EditStrings, fileText: string): string | undefined {
  const marker = CUT_MARKER.exec(strings.oldString) ?? CUT_MARKER.exec(strings.newString);
  if (!marker || fileText.includes(marker[0])) return undefined;
  return (
    `${CUT_MARKER.test(strings.oldString) ? 'old_string' : 'new_string'} contains "${marker[0]}", read_file's mark for a line it cut; it is not in the file. ` +
    'That line is longer than read_file shows. Edit a shorter piece that ends before the cut, or rewrite the file with write_file.'
  );
}
