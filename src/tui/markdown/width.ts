import stringWidth from 'string-width';
import type { Line, Segment, Style } from './ansi.js';

/**
 * Column widths and line fitting for styled segments. Widths follow `string-width` (what Ink uses
 * to lay out, so our lines and Ink's agree): wide CJK characters take two columns, combining marks
 * none. Text made only of characters that are always one column (ASCII, Latin, Greek, Cyrillic,
 * punctuation, arrows, box drawing: bullets, borders, gutters) takes a fast path, since this runs
 * per word and string-width segments graphemes, which is far slower.
 */

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Strings of one-column characters only (a test checks each against string-width). */
export const ONE_COLUMN_TEXT =
  /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0377\u037a-\u037f\u0384-\u03ff\u0400-\u0482\u048a-\u052f\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u25fc\u25ff]*$/;

/** Columns `text` takes (no escape codes expected; segments never hold any). */
export function textWidth(text: string): number {
  return ONE_COLUMN_TEXT.test(text) ? text.length : stringWidth(text);
}

export function lineWidth(line: Line): number {
  let width = 0;
  for (const segment of line) width += textWidth(segment.text);
  return width;
}

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** User-perceived characters (an emoji with modifiers stays one). */
export function graphemes(text: string): string[] {
  if (ONE_COLUMN_TEXT.test(text)) return text.split('');
  return Array.from(graphemeSegmenter.segment(text), (part) => part.segment);
}

/** The longest prefix of `text` that fits in `columns`. */
export function sliceToWidth(text: string, columns: number): string {
  if (ONE_COLUMN_TEXT.test(text)) return text.slice(0, Math.max(0, columns));
  let out = '';
  let used = 0;
  for (const grapheme of graphemes(text)) {
    const width = textWidth(grapheme);
    if (used + width > columns) break;
    out += grapheme;
    used += width;
  }
  return out;
}

/**
 * The line cut to `columns`, ending in `…` when something was cut. Lines that fit come back
 * unchanged (same array).
 */
export function truncateLine(line: Line, columns: number): Line {
  if (lineWidth(line) <= columns) return line;
  if (columns <= 0) return [];
  let budget = columns - 1; // room for the ellipsis
  const out: Line = [];
  let lastStyle: Style | undefined;
  for (const segment of line) {
    const width = textWidth(segment.text);
    lastStyle = segment.style;
    if (width <= budget) {
      out.push(segment);
      budget -= width;
      continue;
    }
    // A cut between two words ends at the word before: `every file…`, not `every file …`.
    const head = sliceToWidth(segment.text, budget).trimEnd();
    if (head !== '') out.push({ text: head, style: segment.style });
    break;
  }
  out.push({ text: '…', style: lastStyle });
  return out;
}

/** The line padded with spaces to `columns` (alignment in table cells). */
export function padLine(line: Line, columns: number, align: 'left' | 'right' | 'center' = 'left'): Line {
  const missing = columns - lineWidth(line);
  if (missing <= 0) return line;
  const before = align === 'right' ? missing : align === 'center' ? Math.floor(missing / 2) : 0;
  const after = missing - before;
  const out: Line = [];
  if (before > 0) out.push({ text: ' '.repeat(before) });
  out.push(...line);
  if (after > 0) out.push({ text: ' '.repeat(after) });
  return out;
}

// Characters a line may break before or after without a space: CJK ideographs, kana, hangul,
// fullwidth forms. Scripts written without spaces need this to wrap at all.
const WIDE_BREAKABLE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;
// Closing punctuation that must not start a line (a light form of the CJK "kinsoku" rule): the
// ideographic comma and full stop, full-width punctuation and closing brackets, the prolonged
// sound mark, ellipses, closing quotes (\u escapes keep dist/cli/main.cjs ASCII, see scripts/build.mjs).
const NO_BREAK_BEFORE = /^[\u3001\u3002\uff0c\uff0e\uff1a\uff1b\uff1f\uff01\uff09\u300d\u300f\u3011\u3015\u3009\u300b\u3017\u3019\u301b\u30fc\u2026\u2025\u30fb\uff05\u2019\u201d,.:;?!)\]}]$/u;
// A hard break, a run of breakable whitespace, or a run of anything else (a no-break space
// belongs to its word).
const PIECES = /\n|[^\S\n\u00a0]+|[\S\u00a0]+/g;

/** A unit the wrapper never splits unless it is wider than a whole line. */
interface Atom {
  parts: Segment[];
  width: number;
  /** Whitespace before the atom: kept mid-line, dropped when the atom starts a wrapped line. */
  gap: Segment | null;
  hardBreak: boolean;
}

function appendPart(parts: Segment[], text: string, style: Style | undefined): void {
  const last = parts[parts.length - 1];
  if (last !== undefined && last.style === style) last.text += text;
  else parts.push({ text, style });
}

/** Splits styled text into atoms: words (which may span several segments, as in `**a**b`), single
 * wide characters, and hard breaks. */
function toAtoms(segments: readonly Segment[]): Atom[] {
  const atoms: Atom[] = [];
  let current: Atom | null = null; // the atom a following word piece joins, if nothing separates them
  let gap: Segment | null = null;
  const startAtom = (): Atom => {
    const atom: Atom = { parts: [], width: 0, gap, hardBreak: false };
    atoms.push(atom);
    gap = null;
    return atom;
  };
  for (const segment of segments) {
    for (const match of segment.text.matchAll(PIECES)) {
      const piece = match[0];
      if (piece === '\n') {
        atoms.push({ parts: [], width: 0, gap: null, hardBreak: true });
        current = null;
        gap = null;
      } else if (/^\s/.test(piece) && !piece.startsWith('\u00a0')) {
        gap = { text: piece.replace(/\t/g, '    '), style: segment.style };
        current = null;
      } else if (PRINTABLE_ASCII.test(piece) || !WIDE_BREAKABLE.test(piece)) {
        current ??= startAtom();
        appendPart(current.parts, piece, segment.style);
        current.width += textWidth(piece);
      } else {
        // Mixed or CJK text: every wide character is its own atom, other runs stay whole.
        let previousWide = false;
        for (const grapheme of graphemes(piece)) {
          const wide = WIDE_BREAKABLE.test(grapheme);
          const joins = current !== null && (NO_BREAK_BEFORE.test(grapheme) || (!wide && !previousWide));
          if (!joins) current = startAtom();
          const atom: Atom = current ?? startAtom();
          appendPart(atom.parts, grapheme, segment.style);
          atom.width += textWidth(grapheme);
          current = atom;
          previousWide = wide;
        }
      }
    }
  }
  return atoms;
}

/** Cuts an atom wider than a line into line-sized pieces (long URLs, paths, hashes). */
function splitAtom(atom: Atom, columns: number): Line[] {
  const pieces: Line[] = [];
  let piece: Segment[] = [];
  let used = 0;
  for (const part of atom.parts) {
    for (const grapheme of graphemes(part.text)) {
      const width = textWidth(grapheme);
      if (used + width > columns && used > 0) {
        pieces.push(piece);
        piece = [];
        used = 0;
      }
      appendPart(piece, grapheme, part.style);
      used += width;
    }
  }
  if (piece.length > 0) pieces.push(piece);
  return pieces;
}

/** The line cut into rows of at most `columns` (the last one may be shorter), at any character:
 * for text whose spacing means something (code). Styles carry over; a line that fits comes back
 * as the only row. */
export function hardWrapLine(line: Line, columns: number): Line[] {
  const width = Math.max(1, columns);
  if (lineWidth(line) <= width) return [line];
  return splitAtom({ parts: line, width: lineWidth(line), gap: null, hardBreak: false }, width);
}

/**
 * Word-wraps styled text to `columns`. Breaks at spaces and between wide characters; a word wider
 * than a line is cut (kept whole on a line of its own with `keepLongWords`). `\n` is a hard break. Whitespace inside a line is kept as written; the
 * space where a line wraps is dropped. Empty text gives no lines.
 */
export function wrapSegments(segments: readonly Segment[], columns: number, keepLongWords = false): Line[] {
  const width = Math.max(1, columns);
  const lines: Line[] = [];
  let line: Segment[] = [];
  let used = 0;
  let softWrapped = false; // the current line began with a wrap, so leading whitespace goes
  const flush = (wrapped: boolean): void => {
    lines.push(line);
    line = [];
    used = 0;
    softWrapped = wrapped;
  };
  const atoms = toAtoms(segments);
  for (const atom of atoms) {
    if (atom.hardBreak) {
      flush(false);
      continue;
    }
    const gap = atom.gap !== null && !(softWrapped && used === 0) ? atom.gap : null;
    const gapWidth = gap === null ? 0 : textWidth(gap.text);
    if (used + gapWidth + atom.width <= width) {
      if (gap !== null) appendPart(line, gap.text, gap.style);
      for (const part of atom.parts) appendPart(line, part.text, part.style);
      used += gapWidth + atom.width;
      continue;
    }
    if (used > 0) flush(true);
    // A word wider than the line (a URL, a path) stays whole on a line of its own when asked:
    // the terminal soft-wraps it, so it is never broken by seek.
    if (atom.width <= width || keepLongWords) {
      for (const part of atom.parts) appendPart(line, part.text, part.style);
      used = atom.width;
      continue;
    }
    const pieces = splitAtom(atom, width);
    const last = pieces.pop() ?? [];
    for (const piece of pieces) {
      line = piece;
      flush(true);
    }
    line = last;
    used = lineWidth(last);
  }
  if (line.length > 0 || (atoms.length > 0 && atoms[atoms.length - 1]?.hardBreak === true)) lines.push(line);
  return lines;
}

/** Lines with `first` before the first one and `rest` before the others (hanging indent, quote
 * bars, gutters). */
export function prefixLines(lines: readonly Line[], first: Line, rest: Line): Line[] {
  const restIsBlank = rest.every((segment) => segment.text.trim() === '');
  return lines.map((line, index) => {
    if (index > 0 && line.length === 0 && restIsBlank) return []; // no trailing spaces on blank lines
    return [...(index === 0 ? first : rest), ...line];
  });
}
