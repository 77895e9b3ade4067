import { diffWordsWithSpace } from 'diff';
import { sanitizeTerminalText, type Line, type Segment, type Style } from '../../markdown/ansi.js';
import { truncateLine, wrapSegments } from '../../markdown/width.js';

/**
 * A unified diff as styled lines: `+` green, `-` red, `@@` hunk headers cyan, file headers bold.
 * Options add a gutter with the old and the new line number (a removed line has only the old one,
 * an added line only the new one), highlight the words that changed between a removed line and
 * the added line that replaces it, and wrap long lines under the gutter instead of cutting them.
 */

export interface DiffLinesOptions {
  /** Cut lines at this many columns (or wrap them, see `wrap`); no limit when absent. */
  width?: number;
  /** Show at most this many diff lines, then "… N more lines". */
  maxLines?: number;
  /** A dim gutter with the old and the new line number. */
  lineNumbers?: boolean;
  /** Wrap lines longer than `width` onto rows under the gutter (nothing cut); default: cut. */
  wrap?: boolean;
  /** Highlight the changed words of a removed line and the added line paired with it. */
  words?: boolean;
  /** Leave out the `---`/`+++` file headers (a row that already names the file). */
  hideFileHeaders?: boolean;
  /** A link target for the file the `---`/`+++` headers name (`file://…`, where links are on). */
  fileLink?: string;
}

const ADDED: Style = { fg: 'green' };
const REMOVED: Style = { fg: 'red' };
/** Changed words: bold and underlined on top of the line's colour, so they stand out in colour and
 * in monochrome terminals that keep attributes. */
const ADDED_WORD: Style = { fg: 'green', bold: true, underline: true };
const REMOVED_WORD: Style = { fg: 'red', bold: true, underline: true };
const HUNK: Style = { fg: 'cyan' };
const FILE_HEADER: Style = { bold: true };
const DIM: Style = { dim: true };

type DiffLineKind = 'added' | 'removed' | 'context' | 'hunk' | 'header' | 'note';

export interface ParsedDiffLine {
  kind: DiffLineKind;
  text: string;
  oldNumber?: number;
  newNumber?: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The diff's lines with their kinds and line numbers (old for removed, new for added, both for
 * context). Escape sequences are made safe, tabs are 4 spaces. */
export function parseDiff(diff: string): ParsedDiffLine[] {
  const source = sanitizeTerminalText(diff).replace(/\t/g, '    ').replace(/\n$/, '');
  if (source === '') return [];
  const parsed: ParsedDiffLine[] = [];
  let inHunks = false; // `---`/`+++` are file headers before the first hunk, changes after it
  let oldNumber = 0;
  let newNumber = 0;
  for (const text of source.split('\n')) {
    const hunk = HUNK_HEADER.exec(text);
    if (hunk !== null) {
      inHunks = true;
      oldNumber = Number(hunk[1]);
      newNumber = Number(hunk[2]);
      parsed.push({ kind: 'hunk', text });
    } else if (!inHunks) {
      if (/^=+$/.test(text)) continue; // the separator `diff` prints: noise on a screen
      const header = /^(---|\+\+\+|diff |index |Index:)/.test(text);
      parsed.push({ kind: header ? 'header' : 'note', text });
    } else if (text.startsWith('+')) {
      parsed.push({ kind: 'added', text, newNumber: newNumber++ });
    } else if (text.startsWith('-')) {
      parsed.push({ kind: 'removed', text, oldNumber: oldNumber++ });
    } else if (text.startsWith('\\')) {
      parsed.push({ kind: 'note', text }); // "\ No newline at end of file"
    } else {
      parsed.push({ kind: 'context', text, oldNumber: oldNumber++, newNumber: newNumber++ });
    }
  }
  return parsed;
}

const STYLE_BY_KIND: Record<DiffLineKind, Style | undefined> = {
  added: ADDED,
  removed: REMOVED,
  context: undefined,
  hunk: HUNK,
  header: FILE_HEADER,
  note: DIM,
};

/** Past this many characters a pair of lines is not diffed word by word (cost, and the result
 * would be noise anyway). */
const WORD_DIFF_MAX_CHARS = 2_000;

/**
 * The text segments of each changed line, with the words that differ from its partner styled:
 * the n-th removed line of a block is paired with the n-th added line that follows it. A pair
 * with less than a third in common is left whole (a rewrite, not an edit).
 */
function wordSegments(parsed: readonly ParsedDiffLine[]): Map<number, Segment[]> {
  const out = new Map<number, Segment[]>();
  let index = 0;
  while (index < parsed.length) {
    if (parsed[index]!.kind !== 'removed') {
      index++;
      continue;
    }
    const removedStart = index;
    while (index < parsed.length && parsed[index]!.kind === 'removed') index++;
    const addedStart = index;
    while (index < parsed.length && parsed[index]!.kind === 'added') index++;
    const pairs = Math.min(addedStart - removedStart, index - addedStart);
    for (let pair = 0; pair < pairs; pair++) {
      const before = parsed[removedStart + pair]!.text.slice(1);
      const after = parsed[addedStart + pair]!.text.slice(1);
      if (before.length + after.length > WORD_DIFF_MAX_CHARS) continue;
      const changes = diffWordsWithSpace(before, after);
      const common = changes.filter((change) => !change.added && !change.removed).reduce((sum, change) => sum + change.value.trim().length, 0);
      if (common * 3 < Math.max(before.trim().length, after.trim().length)) continue;
      const removed: Segment[] = [{ text: '-', style: REMOVED }];
      const added: Segment[] = [{ text: '+', style: ADDED }];
      for (const change of changes) {
        if (!change.added) removed.push({ text: change.value, style: change.removed ? REMOVED_WORD : REMOVED });
        if (!change.removed) added.push({ text: change.value, style: change.added ? ADDED_WORD : ADDED });
      }
      out.set(removedStart + pair, removed);
      out.set(addedStart + pair, added);
    }
  }
  return out;
}

export function diffLines(diff: string, options: DiffLinesOptions = {}): Line[] {
  let parsed = parseDiff(diff);
  if (options.hideFileHeaders) parsed = parsed.filter((line) => line.kind !== 'header');
  const numbered = options.lineNumbers === true;
  const numberWidth = numbered ? Math.max(1, ...parsed.map((line) => String(Math.max(line.oldNumber ?? 0, line.newNumber ?? 0)).length)) : 0;
  const gutterOf = (line: ParsedDiffLine): Segment[] => {
    if (!numbered) return [];
    const show = (value: number | undefined) => (value === undefined ? '' : String(value)).padStart(numberWidth);
    const numbers = line.kind === 'hunk' || line.kind === 'header' || line.kind === 'note' ? ' '.repeat(numberWidth * 2 + 1) : `${show(line.oldNumber)} ${show(line.newNumber)}`;
    return [{ text: `${numbers} `, style: DIM }];
  };
  const words = options.words === true ? wordSegments(parsed) : new Map<number, Segment[]>();
  const rows: Line[][] = parsed.map((line, index) => {
    const gutter = gutterOf(line);
    const body: Segment[] = words.get(index) ?? headerSegments(line, options.fileLink) ?? (line.text === '' ? [] : [{ text: line.text, style: STYLE_BY_KIND[line.kind] }]);
    if (options.width === undefined) return [[...gutter, ...body]];
    const width = Math.max(1, options.width);
    if (options.wrap !== true) return [truncateLine([...gutter, ...body], width)];
    const room = Math.max(1, width - (numbered ? numberWidth * 2 + 2 : 0));
    const wrapped = body.length === 0 ? [[]] : wrapRows(body, room);
    const blank: Segment[] = numbered ? [{ text: ' '.repeat(numberWidth * 2 + 2) }] : [];
    return wrapped.map((row, at) => [...(at === 0 ? gutter : blank), ...row]);
  });
  // The cap counts diff lines, not screen rows: "… N more lines" means lines of the diff.
  const shown = options.maxLines === undefined ? rows : rows.slice(0, options.maxLines);
  const flat = shown.flat();
  if (options.maxLines === undefined || rows.length <= options.maxLines) return flat;
  const hidden = rows.length - options.maxLines;
  return [...flat, [{ text: `… ${hidden} more ${hidden === 1 ? 'line' : 'lines'}`, style: DIM }]];
}

/** A `---`/`+++` header with its file name linked to `link`; undefined for other lines. */
function headerSegments(line: ParsedDiffLine, link: string | undefined): Segment[] | undefined {
  const header = link === undefined || line.kind !== 'header' ? null : /^(---|\+\+\+) (?=\S)/.exec(line.text);
  if (header === null) return undefined;
  return [
    { text: header[0], style: FILE_HEADER },
    { text: line.text.slice(header[0].length), style: { ...FILE_HEADER, link: link! } },
  ];
}

/** A diff line cut into rows of `columns`, every character kept (spaces included: indentation is
 * part of code). */
function wrapRows(body: readonly Segment[], columns: number): Line[] {
  const rows = wrapSegments(
    body.map((segment) => ({ ...segment, text: segment.text.replace(/ /g, '\u00a0') })),
    columns,
  );
  return rows.map((row) => row.map((segment) => ({ ...segment, text: segment.text.replace(/\u00a0/g, ' ') })));
}
