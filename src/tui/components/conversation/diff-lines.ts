import { sanitizeTerminalText, type Line, type Style } from '../../markdown/ansi.js';
import { truncateLine } from '../../markdown/width.js';
import { capLines } from './text-blocks.js';

/**
 * A unified diff as styled lines: `+` green, `-` red, `@@` hunk headers cyan, file headers bold,
 * optional line numbers (the new file's for added and context lines, the old file's for removed
 * ones). Lines are cut at `width`, never wrapped, so columns stay aligned.
 */

export interface DiffLinesOptions {
  /** Cut lines at this many columns; no limit when absent. */
  width?: number;
  /** Show at most this many diff lines, then "… N more lines". */
  maxLines?: number;
  lineNumbers?: boolean;
}

const ADDED: Style = { fg: 'green' };
const REMOVED: Style = { fg: 'red' };
const HUNK: Style = { fg: 'cyan' };
const FILE_HEADER: Style = { bold: true };
const DIM: Style = { dim: true };

type DiffLineKind = 'added' | 'removed' | 'context' | 'hunk' | 'header' | 'note';

interface ParsedLine {
  kind: DiffLineKind;
  text: string;
  number?: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

function parseDiff(diff: string): ParsedLine[] {
  const source = sanitizeTerminalText(diff).replace(/\t/g, '    ').replace(/\n$/, '');
  if (source === '') return [];
  const parsed: ParsedLine[] = [];
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
      parsed.push({ kind: 'added', text, number: newNumber++ });
    } else if (text.startsWith('-')) {
      parsed.push({ kind: 'removed', text, number: oldNumber++ });
    } else if (text.startsWith('\\')) {
      parsed.push({ kind: 'note', text }); // "\ No newline at end of file"
    } else {
      parsed.push({ kind: 'context', text, number: newNumber++ });
      oldNumber++;
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

export function diffLines(diff: string, options: DiffLinesOptions = {}): Line[] {
  const parsed = parseDiff(diff);
  const numbered = options.lineNumbers === true;
  const numberWidth = numbered ? Math.max(1, ...parsed.map((line) => String(line.number ?? '').length)) : 0;
  const lines = parsed.map((line): Line => {
    const out: Line = [];
    if (numbered) {
      const number = line.number === undefined ? '' : String(line.number);
      out.push({ text: `${number.padStart(numberWidth)} `, style: DIM });
    }
    if (line.text !== '') out.push({ text: line.text, style: STYLE_BY_KIND[line.kind] });
    return options.width === undefined ? out : truncateLine(out, Math.max(1, options.width));
  });
  return capLines(lines, options.maxLines);
}

