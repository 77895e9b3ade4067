import type { Tokens } from 'marked';
import type { Line, Segment, Style } from './ansi.js';
import { inlineSegments } from './inline.js';
import { lineWidth, padLine, truncateLine } from './width.js';

/**
 * Markdown tables drawn with box characters. Cells stay on one line; when the natural widths do
 * not fit, columns shrink fairly (narrow columns keep their width, wide ones share the rest) and
 * cells are cut with `…`.
 */

const BORDER: Style = { dim: true };
const HEADER: Style = { bold: true };
/** Narrowest a shrunk column gets: one character and the ellipsis. */
const MIN_COLUMN = 2;

type Align = 'left' | 'right' | 'center';

function cellLine(cell: Tokens.TableCell, base?: Style): Line {
  // A cell is one row: hard breaks (`<br>` is not parsed, but `\` line ends are) become spaces.
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
    const fitted = Math.max(Math.min(width, share), Math.min(width, MIN_COLUMN));
    widths[index] = fitted;
    remaining -= fitted;
  });
  return widths;
}

function border(widths: readonly number[], left: string, middle: string, right: string): Line {
  return [{ text: left + widths.map((width) => '─'.repeat(width + 2)).join(middle) + right, style: BORDER }];
}

function row(cells: readonly Line[], widths: readonly number[], aligns: readonly Align[]): Line {
  const out: Line = [{ text: '│', style: BORDER }];
  widths.forEach((width, index) => {
    const cell = truncateLine(cells[index] ?? [], width);
    out.push({ text: ' ' }, ...padLine(cell, width, aligns[index] ?? 'left'), { text: ' ' }, { text: '│', style: BORDER });
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
  const aligns: Align[] = table.align.map((align) => align ?? 'left');
  return [
    border(widths, '┌', '┬', '┐'),
    row(header, widths, aligns),
    border(widths, '├', '┼', '┤'),
    ...rows.map((cells) => row(cells, widths, aligns)),
    border(widths, '└', '┴', '┘'),
  ];
}
