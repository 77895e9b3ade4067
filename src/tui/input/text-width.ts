/**
 * Grapheme segmentation and terminal cell widths for the input editor.
 *
 * The editor moves its cursor by grapheme cluster (an emoji with skin tone, a flag, a letter with a
 * combining accent are each one step) and wraps by terminal cells. Widths come from string-width,
 * the package Ink itself lays out with, so rows we wrap are never re-wrapped by Ink.
 */
import stringWidth from 'string-width';

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Cells a tab occupies. Terminals expand tabs to tab stops, which a wrapped, prefixed input box
 * cannot predict; the editor renders a tab as this many spaces instead (the text keeps the tab). */
export const TAB_WIDTH = 4;

/** The grapheme clusters of `text`, in order. */
export function graphemes(text: string): string[] {
  return Array.from(graphemeSegmenter.segment(text), (part) => part.segment);
}

/** The grapheme boundary before `offset` (0 when at the start). `offset` must be a boundary. */
export function previousBoundary(text: string, offset: number): number {
  if (offset <= 0) return 0;
  const containing = graphemeSegmenter.segment(text).containing(offset - 1);
  return containing ? containing.index : offset - 1;
}

/** The grapheme boundary after `offset` (`text.length` when at the end). */
export function nextBoundary(text: string, offset: number): number {
  if (offset >= text.length) return text.length;
  const containing = graphemeSegmenter.segment(text).containing(offset);
  return containing ? containing.index + containing.segment.length : offset + 1;
}

/** The nearest grapheme boundary at or before `offset`, clamped into the text. */
export function snapToBoundary(text: string, offset: number): number {
  if (offset <= 0) return 0;
  if (offset >= text.length) return text.length;
  const containing = graphemeSegmenter.segment(text).containing(offset);
  return containing ? containing.index : offset;
}

/** Cells one grapheme cluster occupies in a terminal (0, 1 or 2; a tab counts `TAB_WIDTH`). */
export function graphemeWidth(grapheme: string): number {
  if (grapheme === '\t') return TAB_WIDTH;
  const code = grapheme.codePointAt(0) ?? 0;
  if (grapheme.length === 1 && code >= 0x20 && code < 0x7f) return 1;
  return stringWidth(grapheme);
}

/** Cells `text` occupies on one row (no newlines expected). */
export function textWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const grapheme of graphemes(text)) width += graphemeWidth(grapheme);
  return width;
}
