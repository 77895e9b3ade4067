import { describe, expect, it } from 'vitest';
import { DARK_PALETTE, applySgr, color256, parseScreen, screenToSvg, svgGeometry } from '../../../scripts/ansi-svg.js';

const ESC = '\x1b';
const P = DARK_PALETTE;

/** The <text> elements of an SVG: their x, fill (undefined = default) and content. */
function texts(svg: string): Array<{ x: number; fill?: string; bold: boolean; content: string }> {
  return [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+"([^>]*)>([^<]*)<\/text>/g)].map((m) => ({
    x: Number(m[1]),
    ...(/fill="([^"]+)"/.exec(m[2]!) ? { fill: /fill="([^"]+)"/.exec(m[2]!)![1] } : {}),
    bold: m[2]!.includes('font-weight="bold"'),
    content: m[3]!,
  }));
}

/** The background rectangles of one cell row: x and fill. */
function cellRects(svg: string, row: number): Array<{ x: number; fill: string }> {
  const { originY, cellHeight } = svgGeometry({});
  const top = originY + row * cellHeight;
  return [...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="[\d.]+" height="(\d+)" fill="([^"]+)"\/>/g)]
    .filter((m) => Number(m[2]) === top && Number(m[3]) === cellHeight)
    .map((m) => ({ x: Number(m[1]), fill: m[4]! }));
}

const { originX, cellWidth } = svgGeometry({});
const left = (column: number) => Number((originX + column * cellWidth).toFixed(2));

describe('ANSI screen to SVG', () => {
  it('reads the 16 colours, 256-colour indexes and RGB, foreground and background, and their resets', () => {
    const [row] = parseScreen(`${ESC}[31mr${ESC}[92mg${ESC}[38;5;208mo${ESC}[38;2;1;2;3mx${ESC}[48;5;236my${ESC}[39mz${ESC}[49mw`, 7, 1);
    expect(row!.map((cell) => [cell.text, cell.style.fg, cell.style.bg])).toEqual([
      ['r', P.ansi[1], undefined],
      ['g', P.ansi[10], undefined],
      ['o', '#ff8700', undefined],
      ['x', '#010203', undefined],
      ['y', '#010203', '#303030'],
      ['z', undefined, '#303030'],
      ['w', undefined, undefined],
    ]);
    expect(color256(16)).toBe('#000000');
    expect(color256(231)).toBe('#ffffff');
    expect(color256(4)).toBe(P.ansi[4]);
    expect(applySgr({}, '38:2::10:20:30').fg).toBe('#0a141e'); // colon form, empty colour space
    expect(applySgr({ fg: '#123456', bold: true }, '0')).toEqual({});
    expect(applySgr({ fg: '#123456', bold: true }, '')).toEqual({});
  });

  it('draws coloured text in its colour and a background as a rectangle under its cell', () => {
    const svg = screenToSvg(`plain ${ESC}[31;44mred${ESC}[0m`, { columns: 10, rows: 1 });
    expect(texts(svg)).toEqual([
      { x: left(0), bold: false, content: 'plain' },
      { x: left(6), fill: P.ansi[1], bold: false, content: 'red' },
    ]);
    expect(cellRects(svg, 0)).toEqual([6, 7, 8].map((column) => ({ x: left(column), fill: P.ansi[4] })));
  });

  it('bold lasts until 22 or 0, and a style carries over to the next line (tmux does not repeat it)', () => {
    const svg = screenToSvg(`${ESC}[1mbold${ESC}[22m thin ${ESC}[1;33mon\nstill${ESC}[0m off`, { columns: 20, rows: 2 });
    expect(texts(svg).map(({ content, bold, fill }) => [content.trim(), bold, fill])).toEqual([
      ['bold', true, undefined],
      ['thin', false, undefined],
      ['on', true, P.ansi[3]],
      ['still', true, P.ansi[3]],
      ['off', false, undefined],
    ]);
  });

  it('inverse swaps foreground and background, defaults included; 27 ends it', () => {
    const svg = screenToSvg(`${ESC}[7minv${ESC}[27m ok ${ESC}[7;32mg`, { columns: 10, rows: 1 });
    expect(texts(svg)).toEqual([
      { x: left(0), fill: P.background, bold: false, content: 'inv' },
      { x: left(3), bold: false, content: ' ok' },
      { x: left(7), fill: P.background, bold: false, content: 'g' },
    ]);
    expect(cellRects(svg, 0)).toEqual([
      { x: left(0), fill: P.foreground },
      { x: left(1), fill: P.foreground },
      { x: left(2), fill: P.foreground },
      { x: left(7), fill: P.ansi[2] },
    ]);
  });

  it('gives a wide character two cells, so what follows stays on its column', () => {
    const [row] = parseScreen('中文x', 6, 1);
    expect(row!.map((cell) => [cell.text, cell.width])).toEqual([
      ['中', 2],
      ['', 1],
      ['文', 2],
      ['', 1],
      ['x', 1],
      [' ', 1],
    ]);
    const svg = screenToSvg('中文x', { columns: 6, rows: 1 });
    const drawn = texts(svg);
    expect(drawn.find((t) => t.content === 'x')!.x).toBe(left(4));
    // A wide glyph is centred over its two cells.
    expect(svg).toContain(`<text x="${(originX + cellWidth).toFixed(2)}" y=`);
    // Cut in half by the right edge, it becomes a blank.
    expect(parseScreen('ab中', 3, 1)[0]!.map((cell) => cell.text)).toEqual(['a', 'b', ' ']);
  });

  it('escapes < & > and quotes in text and title', () => {
    const svg = screenToSvg('if (a < b && c > d) "q"', { columns: 30, rows: 1, title: '<seek & co>' });
    expect(svg).toContain('if (a &lt; b &amp;&amp; c &gt; d) &quot;q&quot;');
    expect(svg).toContain('&lt;seek &amp; co&gt;');
    expect(svg).not.toMatch(/<(?!\/?(svg|rect|text|g|path|circle)\b)/); // every tag is one of ours
  });

  it('draws the cursor cell as a block, and box-drawing characters as lines, not glyphs', () => {
    const svg = screenToSvg('╭─╮\n│>│', { columns: 3, rows: 2, cursor: { x: 1, y: 1 } });
    expect(cellRects(svg, 1)).toEqual([{ x: left(1), fill: P.cursor }]);
    expect(texts(svg)).toEqual([{ x: left(1), fill: P.background, bold: false, content: '&gt;' }]);
    expect(svg.match(/<path d="/g)).toHaveLength(5);
  });

  it('ignores sequences other than SGR and pads short lines to the screen', () => {
    const grid = parseScreen(`${ESC}]8;;https://x${ESC}\\link${ESC}]8;;${ESC}\\${ESC}[2K!`, 8, 2);
    expect(grid.map((row) => row.map((cell) => cell.text).join(''))).toEqual(['link!   ', '        ']);
  });
});
