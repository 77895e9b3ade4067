/**
 * A terminal screen as SVG: reads what `tmux capture-pane -e -p` prints (text with SGR colour and
 * style sequences, one line per row) into a grid of cells, and draws that grid in a monospace font
 * on a dark palette. Used by scripts/screenshots.ts for the README's pictures; a dev tool, nothing
 * in seek depends on it.
 *
 * Contract: every cell sits at column × cellWidth, so alignment never depends on the font's glyph
 * advances (plain ASCII runs share one <text> element; any other character gets its own, placed at
 * its cell). A wide character (CJK, most emoji) takes two cells. Sequences other than SGR (cursor
 * moves, OSC hyperlinks) are dropped: a capture holds none that move text.
 */
import stringWidth from 'string-width';

export interface CellStyle {
  /** '#rrggbb', or undefined for the terminal's default. */
  fg?: string;
  bg?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  strike?: boolean;
}

export interface Cell {
  /** The grapheme shown; '' for the second half of a wide character. */
  text: string;
  /** Cells it covers: 1, or 2 for a wide character. */
  width: 1 | 2;
  style: CellStyle;
}

/** A dark terminal palette: the 16 ANSI colours, default foreground/background, and the cursor. */
export interface Palette {
  ansi: readonly string[];
  foreground: string;
  background: string;
  cursor: string;
}

export const DARK_PALETTE: Palette = {
  ansi: [
    '#1d1f21', '#e06c75', '#98c379', '#e5c07b', '#61afef', '#c678dd', '#56b6c2', '#c8ccd4',
    '#5c6370', '#ff7b86', '#b5e890', '#ffd68a', '#7cc4ff', '#de94f0', '#6fd6e3', '#ffffff',
  ],
  foreground: '#d4d7dd',
  background: '#16181d',
  cursor: '#d4d7dd',
};

const ESC = '\x1b';
const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The colour of xterm's 256-colour index `n` (0-15 from the palette, then the 6×6×6 cube and the grey ramp). */
export function color256(n: number, palette: Palette = DARK_PALETTE): string {
  if (n < 16) return palette.ansi[n] ?? palette.foreground;
  if (n < 232) {
    const index = n - 16;
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    return rgb(level(Math.floor(index / 36)), level(Math.floor(index / 6) % 6), level(index % 6));
  }
  const grey = 8 + (n - 232) * 10;
  return rgb(grey, grey, grey);
}

function rgb(r: number, g: number, b: number): string {
  const hex = (v: number) => Math.max(0, Math.min(255, v)).toString(16).padStart(2, '0');
  return `#${hex(r)}${hex(g)}${hex(b)}`;
}

/** Applies one SGR sequence's parameters ("1;38;5;208") to `style`, returning the new style. */
export function applySgr(style: CellStyle, params: string, palette: Palette = DARK_PALETTE): CellStyle {
  const next = { ...style };
  // Colon sub-parameters (38:2::r:g:b) read like semicolons; an empty colour-space id is dropped.
  const codes = (params === '' ? '0' : params).replace(/:(?=:)/g, '').split(/[;:]/).map((p) => (p === '' ? 0 : Number(p)));
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (code === 0) for (const key of Object.keys(next)) delete next[key as keyof CellStyle];
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 7) next.inverse = true;
    else if (code === 9) next.strike = true;
    else if (code === 22) next.bold = next.dim = false;
    else if (code === 23) next.italic = false;
    else if (code === 24) next.underline = false;
    else if (code === 27) next.inverse = false;
    else if (code === 29) next.strike = false;
    else if (code >= 30 && code <= 37) next.fg = palette.ansi[code - 30];
    else if (code >= 90 && code <= 97) next.fg = palette.ansi[code - 90 + 8];
    else if (code >= 40 && code <= 47) next.bg = palette.ansi[code - 40];
    else if (code >= 100 && code <= 107) next.bg = palette.ansi[code - 100 + 8];
    else if (code === 39) delete next.fg;
    else if (code === 49) delete next.bg;
    else if (code === 38 || code === 48) {
      const key = code === 38 ? 'fg' : 'bg';
      if (codes[i + 1] === 5) {
        next[key] = color256(codes[i + 2] ?? 0, palette);
        i += 2;
      } else if (codes[i + 1] === 2) {
        next[key] = rgb(codes[i + 2] ?? 0, codes[i + 3] ?? 0, codes[i + 4] ?? 0);
        i += 4;
      }
    }
    // Anything else (blink, overline, underline styles…) leaves the look unchanged.
  }
  for (const key of ['bold', 'dim', 'italic', 'underline', 'inverse', 'strike'] as const) if (next[key] === false) delete next[key];
  return next;
}

/** The captured screen as `rows` rows of `columns` cells; missing cells are blank, extra text is cut. */
export function parseScreen(captured: string, columns: number, rows: number, palette: Palette = DARK_PALETTE): Cell[][] {
  const blank = (): Cell => ({ text: ' ', width: 1, style: {} });
  const grid: Cell[][] = [];
  // The style carries across lines: tmux does not repeat an SGR that is still in effect.
  let style: CellStyle = {};
  const lines = captured.replace(/\n$/, '').split('\n');
  for (let y = 0; y < rows; y++) {
    const row: Cell[] = [];
    const line = lines[y] ?? '';
    let i = 0;
    while (i < line.length) {
      if (line[i] === ESC) {
        const csi = /^\x1b\[([0-9;:?]*)([@-~])/.exec(line.slice(i));
        if (csi) {
          if (csi[2] === 'm') style = applySgr(style, csi[1]!, palette);
          i += csi[0].length;
          continue;
        }
        const osc = /^\x1b\][^\x07\x1b]*(\x07|\x1b\\)/.exec(line.slice(i));
        i += osc ? osc[0].length : 2;
        continue;
      }
      const end = line.indexOf(ESC, i);
      const text = line.slice(i, end === -1 ? undefined : end);
      i += text.length;
      for (const { segment } of graphemeSegmenter.segment(text)) {
        const width = segment === '\t' ? 1 : stringWidth(segment);
        if (width === 0) {
          // A zero-width joiner or combining mark tmux printed on its own: attach it to the previous cell.
          const last = row.at(-1);
          if (last) last.text += segment;
          continue;
        }
        if (width >= 2) {
          row.push({ text: segment, width: 2, style }, { text: '', width: 1, style });
        } else {
          row.push({ text: segment === '\t' ? ' ' : segment, width: 1, style });
        }
      }
    }
    while (row.length < columns) row.push(blank());
    row.length = columns;
    // A wide character cut in half at the right edge shows as a blank.
    const edge = row[columns - 1]!;
    if (edge.width === 2) row[columns - 1] = { text: ' ', width: 1, style: edge.style };
    grid.push(row);
  }
  return grid;
}

export interface SvgOptions {
  columns: number;
  rows: number;
  /** The cursor's cell, drawn as a block when given. */
  cursor?: { x: number; y: number };
  palette?: Palette;
  fontSize?: number;
  /** Shown in a title bar above the screen; no title bar without it. */
  title?: string;
}

/** DejaVu Sans Mono's advance width is 1233/2048 em. */
const ADVANCE_EM = 1233 / 2048;
const FONT_FAMILY = "'DejaVu Sans Mono', monospace";

export const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

interface Resolved {
  fg: string;
  bg: string | undefined;
}

/** The colours a cell is drawn with: inverse swaps them, dim blends the text towards the background. */
function resolveColours(style: CellStyle, palette: Palette, isCursor: boolean): Resolved {
  let fg = style.fg ?? palette.foreground;
  let bg = style.bg;
  if (style.inverse) [fg, bg] = [bg ?? palette.background, fg];
  if (isCursor) [fg, bg] = [bg ?? palette.background, palette.cursor];
  if (style.dim) fg = blend(fg, bg ?? palette.background, 0.45);
  return { fg, bg };
}

function blend(colour: string, towards: string, amount: number): string {
  const parse = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  const [a, b] = [parse(colour), parse(towards)];
  return rgb(...(a.map((v, i) => Math.round(v + (b[i]! - v) * amount)) as [number, number, number]));
}

/** Light box-drawing characters by the sides of their cell they reach: Up, Right, Down, Left; the
 * rounded corners (╭╮╯╰) as `~` plus their two sides. */
const BOX: Record<string, string> = {
  '─': 'RL', '│': 'UD', '┌': 'RD', '┐': 'DL', '└': 'UR', '┘': 'UL', '├': 'URD', '┤': 'UDL', '┬': 'RDL', '┴': 'URL', '┼': 'URDL',
  '╭': '~RD', '╮': '~DL', '╯': '~UL', '╰': '~UR', '╴': 'L', '╵': 'U', '╶': 'R', '╷': 'D',
};

/**
 * A box-drawing character as an SVG path over its cell, or undefined for any other character. Drawn
 * rather than printed: font glyphs leave gaps between rows whenever the line height exceeds the
 * font's own, and the frames of approvals and panels would look dashed.
 */
function boxDrawing(char: string, left: number, top: number, width: number, height: number): string | undefined {
  const sides = BOX[char];
  if (sides === undefined) return undefined;
  const cx = (left + width / 2).toFixed(2);
  const cy = (top + height / 2).toFixed(2);
  const ends: Record<string, string> = {
    U: `${cx} ${top.toFixed(2)}`,
    R: `${(left + width).toFixed(2)} ${cy}`,
    D: `${cx} ${(top + height).toFixed(2)}`,
    L: `${left.toFixed(2)} ${cy}`,
  };
  const reached = [...sides.replace('~', '')];
  if (sides.startsWith('~')) {
    // A quarter circle of radius half the cell width, joined to both sides by straight lines.
    const r = width / 2;
    const vertical = reached.find((s) => s === 'U' || s === 'D')!;
    const horizontal = reached.find((s) => s === 'R' || s === 'L')!;
    const arcStart = `${cx} ${(top + height / 2 + (vertical === 'D' ? r : -r)).toFixed(2)}`;
    const arcEnd = `${(left + width / 2 + (horizontal === 'R' ? r : -r)).toFixed(2)} ${cy}`;
    return `M${ends[vertical]} L${arcStart} Q${cx} ${cy} ${arcEnd} L${ends[horizontal]}`;
  }
  return reached.map((side) => `M${cx} ${cy} L${ends[side]}`).join(' ');
}

/** Where the cells go: the screen's cell (column, row) has its top left corner at
 * (originX + column × cellWidth, originY + row × cellHeight). */
export function svgGeometry(options: Pick<SvgOptions, 'fontSize' | 'title'>) {
  const fontSize = options.fontSize ?? 14;
  const padding = 16;
  const titleHeight = options.title === undefined ? 0 : 28;
  return {
    cellWidth: fontSize * ADVANCE_EM,
    cellHeight: Math.round(fontSize * 1.25),
    padding,
    titleHeight,
    originX: padding,
    originY: titleHeight + padding / 2,
  };
}

/** The whole screen as a standalone SVG document. */
export function screenToSvg(captured: string, options: SvgOptions): string {
  const palette = options.palette ?? DARK_PALETTE;
  const fontSize = options.fontSize ?? 14;
  const { cellWidth, cellHeight, originX, originY, padding, titleHeight } = svgGeometry(options);
  const width = Math.ceil(options.columns * cellWidth + padding * 2);
  const height = Math.ceil(options.rows * cellHeight + titleHeight + padding);
  const grid = parseScreen(captured, options.columns, options.rows, palette);
  const x = (column: number) => (originX + column * cellWidth).toFixed(2);
  const backgrounds: string[] = [];
  const texts: string[] = [];
  const decorations: string[] = [];
  const lines: string[] = [];

  grid.forEach((row, y) => {
    const top = originY + y * cellHeight;
    const baseline = (top + cellHeight * 0.78).toFixed(2);
    let run: { start: number; text: string; key: string; attrs: string } | undefined;
    const flush = () => {
      const text = run?.text.trimEnd() ?? '';
      if (run && text !== '') texts.push(`<text x="${x(run.start)}" y="${baseline}"${run.attrs}>${escapeXml(text)}</text>`);
      run = undefined;
    };
    row.forEach((cell, column) => {
      if (cell.text === '') return; // the second half of a wide character
      const isCursor = options.cursor?.x === column && options.cursor.y === y;
      const { fg, bg } = resolveColours(cell.style, palette, isCursor);
      const span = cell.width * cellWidth;
      if (bg !== undefined) backgrounds.push(`<rect x="${x(column)}" y="${top}" width="${(span + 0.5).toFixed(2)}" height="${cellHeight}" fill="${bg}"/>`);
      if (cell.style.underline) decorations.push(`<rect x="${x(column)}" y="${(top + cellHeight - 2).toFixed(2)}" width="${span.toFixed(2)}" height="1" fill="${fg}"/>`);
      if (cell.style.strike) decorations.push(`<rect x="${x(column)}" y="${(top + cellHeight / 2).toFixed(2)}" width="${span.toFixed(2)}" height="1" fill="${fg}"/>`);
      const attrs = `${fg === palette.foreground ? '' : ` fill="${fg}"`}${cell.style.bold ? ' font-weight="bold"' : ''}${cell.style.italic ? ' font-style="italic"' : ''}`;
      if (/^[\x20-\x7e]$/.test(cell.text)) {
        if (!run || run.key !== attrs) {
          flush();
          run = { start: column, text: '', key: attrs, attrs };
        }
        run.text += cell.text;
        return;
      }
      flush();
      const box = boxDrawing(cell.text, originX + column * cellWidth, top, cellWidth, cellHeight);
      if (box !== undefined) {
        lines.push(`<path d="${box}" stroke="${fg}"/>`);
        return;
      }
      // A glyph from a fallback font has its own advance: centre it in its cells.
      const centre = (originX + column * cellWidth + span / 2).toFixed(2);
      texts.push(`<text x="${centre}" y="${baseline}" text-anchor="middle"${attrs}>${escapeXml(cell.text)}</text>`);
    });
    flush();
  });

  const chrome =
    options.title === undefined
      ? ''
      : [
          ...['#ff5f57', '#febc2e', '#28c840'].map((colour, i) => `<circle cx="${padding + 6 + i * 20}" cy="${titleHeight / 2 + 2}" r="6" fill="${colour}"/>`),
          `<text x="${(width / 2).toFixed(2)}" y="${titleHeight / 2 + 6}" text-anchor="middle" fill="#8b919c" font-family="${FONT_FAMILY}" font-size="${fontSize - 1}">${escapeXml(options.title)}</text>`,
        ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" rx="8" fill="${palette.background}"/>`,
    ...chrome,
    ...backgrounds,
    `<g font-family="${FONT_FAMILY}" font-size="${fontSize}" fill="${palette.foreground}" xml:space="preserve">`,
    ...texts,
    '</g>',
    ...decorations,
    `<g fill="none" stroke-width="1.2" stroke-linecap="square">`,
    ...lines,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}
