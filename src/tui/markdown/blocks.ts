import type { MarkedToken, Token, Tokens } from 'marked';
import { restyleLine, type Line, type Style } from './ansi.js';
import { highlightCode } from './highlight.js';
import { inlineSegments } from './inline.js';
import { renderTable } from './table.js';
import { hardWrapLine, lineWidth, prefixLines, textWidth, truncateLine, wrapSegments } from './width.js';

/** Block-level Markdown → styled lines fitted to a width. Every function here returns lines no
 * wider than `context.width` (the caller still truncates, as a last guard). */

export interface BlockContext {
  /** Columns available to this block (already minus any indent the caller adds). */
  width: number;
  /** False under NO_COLOR: styles are dropped later anyway, and highlighting is skipped. */
  color: boolean;
  /** Nesting depth of lists, for bullet shapes. */
  listDepth: number;
  /** Code lines and words (URLs, paths) wider than `width` stay whole (MarkdownRenderOptions). */
  keepLongLines?: boolean;
}

const HEADING_STYLES: readonly Style[] = [
  { bold: true, underline: true, fg: 'magenta' },
  { bold: true, fg: 'magenta' },
  { bold: true, fg: 'cyan' },
  { bold: true },
];
const DIM: Style = { dim: true };
const BULLETS = ['•', '◦', '▪'] as const;
const QUOTE_BAR = '│ ';

/** Renders top-level or nested blocks; `gap` puts a blank line between blocks (loose content). */
export function renderBlocks(tokens: readonly Token[], context: BlockContext, gap: boolean): Line[] {
  const out: Line[] = [];
  for (const token of tokens) {
    const lines = renderBlock(token, context);
    if (lines.length === 0) continue;
    if (gap && out.length > 0) out.push([]);
    out.push(...lines);
  }
  return out;
}

/** One block as lines; [] for blocks that show nothing (blank space, link definitions). */
export function renderBlock(token: Token, context: BlockContext): Line[] {
  const known = token as MarkedToken;
  switch (known.type) {
    case 'space':
    case 'def':
      return [];
    case 'heading': {
      const style = HEADING_STYLES[Math.min(known.depth, HEADING_STYLES.length) - 1];
      return wrapSegments(inlineSegments(known.tokens, style), context.width, context.keepLongLines);
    }
    case 'paragraph':
      return wrapSegments(inlineSegments(known.tokens), context.width, context.keepLongLines);
    case 'text':
      return wrapSegments(inlineSegments(known.tokens ?? [known]), context.width, context.keepLongLines);
    case 'code':
      return renderCode(known, context);
    case 'blockquote': {
      const inner = renderBlocks(known.tokens, { ...context, width: context.width - textWidth(QUOTE_BAR) }, true);
      const bar = [{ text: QUOTE_BAR, style: DIM }];
      return prefixLines(
        inner.map((line) => restyleLine(line, { italic: true })),
        bar,
        bar,
      );
    }
    case 'list':
      return renderList(known, context);
    case 'hr':
      return [[{ text: '─'.repeat(Math.max(1, context.width)), style: DIM }]];
    case 'table':
      return renderTable(known, context.width);
    case 'html':
      return known.text
        .replace(/\n+$/, '')
        .split('\n')
        .map((text) => truncateLine([{ text, style: DIM }], context.width));
    default: {
      const generic = token as { tokens?: Token[]; text?: unknown };
      if (generic.tokens !== undefined) return renderBlocks(generic.tokens, context, false);
      return typeof generic.text === 'string' ? wrapSegments([{ text: generic.text }], context.width) : [];
    }
  }
}

/**
 * A fenced or indented code block: a dim language label, then the source lines exactly, with no
 * gutter or marker characters (highlighting tells code from prose), so copying a block from the
 * terminal gives exactly the code. A line too long for the width stays one line when
 * `keepLongLines` (the scrollback: the terminal soft-wraps it and joins it again when copied), and
 * is cut over rows at a column otherwise (the live area, redrawn). No character is dropped. An
 * unclosed fence (still streaming) renders the same way, with what has arrived so far.
 */
function renderCode(token: Tokens.Code, context: BlockContext): Line[] {
  const language = (token.lang ?? '').trim().split(/\s+/)[0] ?? '';
  const code = token.text.replace(/\t/g, '    ').replace(/\n+$/, '');
  const lines = context.color ? highlightCode(code, language || undefined) : code.split('\n').map((text) => [{ text }]);
  const width = Math.max(1, context.width);
  const out: Line[] = [];
  if (language !== '') out.push(truncateLine([{ text: language, style: { dim: true, italic: true } }], context.width));
  for (const line of lines) {
    if (context.keepLongLines || lineWidth(line) <= width) out.push(line);
    else out.push(...hardWrapLine(line, width));
  }
  return out;
}

/** Bullets by depth; numbers right-aligned to the widest in the list (` 9.` over `10.`). */
function listMarkers(list: Tokens.List, depth: number): string[] {
  if (!list.ordered) return list.items.map(() => BULLETS[depth % BULLETS.length] ?? '•');
  const start = typeof list.start === 'number' ? list.start : 1;
  const numbers = list.items.map((_item, index) => `${start + index}.`);
  const widest = Math.max(...numbers.map((number) => number.length));
  return numbers.map((number) => number.padStart(widest));
}

/**
 * A bullet or numbered list with hanging indent: wrapped lines of an item line up under its
 * text, nested lists indent further. Task items show `[x]`/`[ ]` after the marker.
 */
function renderList(list: Tokens.List, context: BlockContext): Line[] {
  const markers = listMarkers(list, context.listDepth);
  const out: Line[] = [];
  list.items.forEach((item, index) => {
    const checkbox = item.task ? ` [${item.checked === true ? 'x' : ' '}]` : '';
    const marker = `${markers[index] ?? ''}${checkbox} `;
    const indent = textWidth(marker);
    const itemContext: BlockContext = {
      ...context,
      width: Math.max(1, context.width - indent),
      listDepth: context.listDepth + 1,
    };
    const children = item.tokens.filter((token) => token.type !== 'checkbox');
    let lines = renderBlocks(children, itemContext, item.loose);
    if (lines.length === 0) lines = [[]];
    if (list.loose && index > 0) out.push([]);
    const markerStyle: Style | undefined = item.task && item.checked === true ? DIM : undefined;
    out.push(...prefixLines(lines, [{ text: marker, style: markerStyle }], [{ text: ' '.repeat(indent) }]));
  });
  return out;
}

/** Lines that still overflow `width` (extremely narrow screens) are cut, so layout never breaks. */
export function fitLines(lines: readonly Line[], width: number): Line[] {
  return lines.map((line) => (lineWidth(line) > width ? truncateLine(line, width) : line));
}
