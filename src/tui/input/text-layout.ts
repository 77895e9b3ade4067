/**
 * Visual layout of the editor's text: logical lines (split on '\n') wrapped into rows that fit in
 * `columns` cells. The renderer draws exactly these rows and Up/Down move between them, so what
 * the user sees and where the cursor goes always agree.
 *
 * The cursor sits *on* a cell, so a row's text takes at most `columns - 1` cells and the last
 * column is kept for the cursor at the end of a line, or for one "hanging" space: the space at
 * which a row breaks stays at the end of that row instead of starting the next one. Otherwise a
 * row breaks after its last space when a word would overflow, and a word longer than a row is
 * broken hard.
 */
import { graphemes, graphemeWidth, textWidth } from './text-width.js';

export interface VisualRow {
  /** The row shows `text.slice(start, end)`; a row never contains '\n'. */
  readonly start: number;
  readonly end: number;
  /** Index of the logical line the row belongs to. */
  readonly line: number;
  /**
   * True for the last row of a logical line. Offset `end` belongs to this row only when `lineEnd`
   * is set (the cursor at the end of the line); otherwise `end` is the next row's `start`.
   */
  readonly lineEnd: boolean;
}

/** The rows of `text` drawn in `columns` cells (at least one row, even for empty text). */
export function layoutRows(text: string, columns: number): VisualRow[] {
  const textColumns = Number.isFinite(columns) ? Math.max(1, Math.floor(columns) - 1) : Number.POSITIVE_INFINITY;
  const rows: VisualRow[] = [];
  let lineStart = 0;
  let line = 0;
  for (;;) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    wrapLine(text, lineStart, lineEnd, line, textColumns, rows);
    if (newline === -1) return rows;
    lineStart = newline + 1;
    line += 1;
  }
}

function wrapLine(text: string, start: number, end: number, line: number, width: number, rows: VisualRow[]): void {
  let rowStart = start;
  let rowWidth = 0;
  /** Offset just after the last space on the current row, or -1. */
  let breakAfterSpace = -1;
  let offset = start;
  for (const grapheme of graphemes(text.slice(start, end))) {
    const cells = graphemeWidth(grapheme);
    if (rowWidth + cells > width && offset > rowStart) {
      if (grapheme === ' ') {
        // The space hangs in the reserved last column and the row ends after it.
        offset += 1;
        rows.push({ start: rowStart, end: offset, line, lineEnd: false });
        rowStart = offset;
        rowWidth = 0;
        breakAfterSpace = -1;
        continue;
      }
      const rowEnd = breakAfterSpace > rowStart ? breakAfterSpace : offset;
      rows.push({ start: rowStart, end: rowEnd, line, lineEnd: false });
      rowStart = rowEnd;
      rowWidth = textWidth(text.slice(rowEnd, offset));
      breakAfterSpace = -1;
    }
    rowWidth += cells;
    offset += grapheme.length;
    if (grapheme === ' ') breakAfterSpace = offset;
  }
  rows.push({ start: rowStart, end, line, lineEnd: true });
}

/** Index of the row that shows the cursor at `offset`. */
export function rowIndexAt(rows: readonly VisualRow[], offset: number): number {
  let low = 0;
  let high = rows.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    const row = rows[middle]!;
    const ownsEnd = row.lineEnd ? offset <= row.end : offset < row.end;
    if (ownsEnd) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The cell column of `offset` within `row`. */
export function columnAt(text: string, row: VisualRow, offset: number): number {
  return textWidth(text.slice(row.start, Math.max(row.start, offset)));
}

/**
 * The offset in `row` whose column is closest to `column` without passing it (a wide character
 * is not split). On a row that is not a line end, the row's `end` belongs to the next row, so the
 * result stays before the last grapheme's end.
 */
export function offsetAtColumn(text: string, row: VisualRow, column: number): number {
  let offset = row.start;
  let cells = 0;
  const parts = graphemes(text.slice(row.start, row.end));
  for (let index = 0; index < parts.length; index++) {
    const grapheme = parts[index]!;
    const isLast = index === parts.length - 1;
    const next = cells + graphemeWidth(grapheme);
    if (next > column || (isLast && !row.lineEnd)) return offset;
    cells = next;
    offset += grapheme.length;
  }
  return offset;
}
