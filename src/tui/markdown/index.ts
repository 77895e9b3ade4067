/** Markdown and styled-text helpers for the terminal UI. */
export { renderMarkdown, clearMarkdownCache, type MarkdownRenderOptions } from './render.js';
export { highlightCode, isKnownLanguage } from './highlight.js';
export {
  lineToString,
  linesToString,
  paint,
  sanitizeTerminalText,
  stripAnsi,
  type ColorName,
  type Line,
  type Segment,
  type Style,
} from './ansi.js';
export { textWidth, lineWidth, truncateLine, wrapSegments, prefixLines, sliceToWidth } from './width.js';
