import type { Tokens } from 'marked';
import type { Line, Segment, Style } from './ansi.js';
import { inlineSegments } from './inline.js';
import { lineWidth, padLine, prefixLines, wrapSegments } from './width.js';

/**
 * Markdown tables drawn with box characters. No cell text is ever cut: when the natural widths do
 * not fit, columns shrink fairly (narrow columns keep their width, wide ones share the rest) and
 * cell text wraps inside its column, with a rule between body rows so a wrapped row reads as one.
 * When even that leaves a column too narrow to read, the table becomes a list: one entry per row,
 * one `header: value` line (wrapped) per cell.
 */

const BORDER: Style = { dim: true };
const HEADER: Style = { bold: true };
/** Narrowest a shrunk column gets; below this the table is shown as a list. */
const MIN_COLUMN = 6;

type Align = 'left' | 'right' | 'center';

function cellLine(cell: Tokens.TableCell, base?: Style): Line {
  // A cell is one paragraph: hard breaks (`<br>` is not parsed, but `\` line ends are) become spaces.
  return inlineSegments(cell.tokens, base).map((segment: Segment) =>
    segment.text.includes('\n') ? { text: segment.text.replace(/\n/g, ' '), style: segment.style } : segment,
  );
}

/**
 * Column widths for `available` columns of cell text. Natural widths when they fit; otherwise
 * the columns are visited narrowest first and each gets at most an equal share of what is left,
 * so one long column cannot squeeze short ones to nothing.
 */
export function fitColumnWidths(natural: readonly number[], available: number): number[] {
  const total = natural.reduce((sum, width) => sum + width, 0);
  if (total <= available) return [...natural];
  const widths = natural.map(() => 0);
  const order = natural.map((width, index) => ({ width, index })).sort((a, b) => a.width - b.width);
  let remaining = available;
  order.forEach(({ width, index }, position) => {
    const share = Math.floor(remaining / (order.length - position));
    const fitted = Math.max(Math.min(width, share), Math.min(width, 1));
    widths[index] = fitted;
    remaining -= fitted;
  });
  return widths;
}

function border(widths: readonly number[], left: string, middle: string, right: string): Line {
  return [{ text: left + widths.map((width) => '─'.repeat(width + 2)).join(middle) + right, style: BORDER }];
}

/** One table row as screen rows: each cell wrapped in its column, shorter cells padded below. */
function row(cells: readonly Line[], widths: readonly number[], aligns: readonly Align[]): Line[] {
  const wrapped = widths.map((width, index) => {
    const lines = wrapSegments(cells[index] ?? [], width);
    return lines.length > 0 ? lines : [[]];
  });
  const height = Math.max(...wrapped.map((lines) => lines.length));
  const out: Line[] = [];
  for (let rowIndex = 0; rowIndex < height; rowIndex++) {
    const line: Line = [{ text: '│', style: BORDER }];
    widths.forEach((width, index) => {
      const cell = wrapped[index]![rowIndex] ?? [];
      line.push({ text: ' ' }, ...padLine(cell, width, aligns[index] ?? 'left'), { text: ' ' }, { text: '│', style: BORDER });
    });
    out.push(line);
  }
  return out;
}

/** The table as a list, for screens too narrow for its columns: per row, `header: value` lines
 * with a hanging indent, rows apart by a blank line. */
function tableAsList(header: readonly Line[], rows: readonly Line[][], width: number): Line[] {
  const out: Line[] = [];
  rows.forEach((cells, rowIndex) => {
    if (rowIndex > 0) out.push([]);
    header.forEach((name, index) => {
      const label: Line = [...name, { text: ': ', style: HEADER }];
      const indent = Math.min(2, Math.max(0, width - 1));
      const body = wrapSegments([...label, ...(cells[index] ?? [])], Math.max(1, width - indent));
      out.push(...prefixLines(body, [], [{ text: ' '.repeat(indent) }]));
    });
  });
  return out;
}

export function renderTable(table: Tokens.Table, width: number): Line[] {
  const columns = table.header.length;
  if (columns === 0) return [];
  const header = table.header.map((cell) => cellLine(cell, HEADER));
  const rows = table.rows.map((cells) => cells.map((cell) => cellLine(cell)));
  const natural = header.map((cell, index) =>
    Math.max(1, lineWidth(cell), ...rows.map((cells) => lineWidth(cells[index] ?? []))),
  );
  // Each column costs its text plus a space either side and one border; plus the last border.
  const widths = fitColumnWidths(natural, width - (3 * columns + 1));
  if (widths.some((fitted, index) => fitted < Math.min(natural[index]!, MIN_COLUMN))) return tableAsList(header, rows, width);
  const aligns: Align[] = table.align.map((align) => align ?? 'left');
  const body = rows.map((cells) => row(cells, widths, aligns));
  // Rows that wrap need a rule between them to read as rows.
  const ruled = body.some((lines) => lines.length > 1);
  return [
    border(widths, '┌', '┬', '┐'),
    ...row(header, widths, aligns),
    border(widths, '├', '┼', '┤'),
    ...body.flatMap((lines, index) => (ruled && index > 0 ? [border(widths, '├', '┼', '┤'), ...lines] : lines)),
    border(widths, '└', '┴', '┘'),
  ];
}
