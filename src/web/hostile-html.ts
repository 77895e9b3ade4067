/**
 * Defences for HTML and text from the web, before and after the conversion to Markdown
 * (html-markdown.ts):
 *  - nesting: the DOM libraries (linkedom, Readability, turndown) recurse per level of nesting, so
 *    a page of thousands of nested elements overflows the stack or runs for minutes on the
 *    event loop (the whole of seek stalls). Past MAX_NESTING the page is read as plain text by a
 *    linear pass instead;
 *  - control characters: terminal escape sequences (ESC, C1 controls), the bell, backspace, lone
 *    carriage returns and bidirectional overrides in a page's text would reach the terminal (and
 *    the model) as they are; they are removed.
 */

/** Deeper than this, a page skips the DOM libraries: read as plain text. */
export const MAX_NESTING = 400;

/** Elements without a closing tag, or whose closing tag is often left out (closed implicitly). */
const UNCOUNTED = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup', 'thead', 'tbody', 'tfoot', 'colgroup', 'rb', 'rt', 'rp',
]);

const TAG = /<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g;

/** The deepest nesting of elements, roughly (a linear scan of the tags, not a parse). */
export function nestingDepth(html: string, stopAt = MAX_NESTING + 1): number {
  let depth = 0;
  let deepest = 0;
  for (const match of html.matchAll(TAG)) {
    if (UNCOUNTED.has(match[2]!.toLowerCase()) || match[3] === '/') continue;
    if (match[1] === '/') depth = Math.max(0, depth - 1);
    else if (++depth > deepest) {
      deepest = depth;
      if (deepest >= stopAt) break;
    }
  }
  return deepest;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const BLOCKS = /<\/?(p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|header|footer|pre|blockquote|dt|dd)\b[^>]*>/gi;

/** A page's text without the DOM libraries: scripts and styles dropped, block ends as line breaks. */
export function plainTextOfHtml(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(head|script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(BLOCKS, '\n')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// C0 controls but tab and line feed, DEL, C1 controls, and the bidirectional embeddings,
// overrides and isolates (U+202A-202E, U+2066-2069): what can move a terminal's cursor, change
// its state or reorder what a reader sees.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Text safe to show: CR LF and lone CR become LF, the characters above are removed. */
export function withoutControls(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(UNSAFE, '');
}
