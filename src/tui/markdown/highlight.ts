import hljs from 'highlight.js/lib/common';
import type { Line, Segment, Style } from './ansi.js';

/**
 * Syntax highlighting for fenced code blocks: highlight.js tokenises (the ~35 common languages,
 * which load in a fraction of the time of all 190), and its scopes map onto a small ANSI palette.
 * Unknown languages and failures give plain lines: highlighting is decoration, never an error.
 */

const COMMENT: Style = { fg: 'gray', italic: true };
const KEYWORD: Style = { fg: 'magenta' };
const STRING: Style = { fg: 'green' };
const NUMBER: Style = { fg: 'yellow' };
const TITLE: Style = { fg: 'blue' };
const TYPE: Style = { fg: 'cyan' };
const META: Style = { fg: 'gray' };

/** hljs scope (first class without the `hljs-` prefix) → style. Scopes not listed stay plain. */
const PALETTE: ReadonlyMap<string, Style> = new Map(Object.entries({
  comment: COMMENT,
  quote: COMMENT,
  doctag: COMMENT,
  keyword: KEYWORD,
  'selector-tag': KEYWORD,
  literal: KEYWORD,
  section: { fg: 'blue', bold: true },
  name: KEYWORD,
  string: STRING,
  regexp: STRING,
  symbol: STRING,
  char: STRING,
  'template-tag': STRING,
  number: NUMBER,
  'variable.constant': NUMBER,
  bullet: NUMBER,
  title: TITLE,
  'title.function': TITLE,
  'title.class': TYPE,
  'title.class.inherited': TYPE,
  type: TYPE,
  built_in: TYPE,
  'selector-class': TYPE,
  'selector-id': TYPE,
  attr: { fg: 'yellow' },
  attribute: { fg: 'yellow' },
  property: { fg: 'cyan' },
  meta: META,
  'meta keyword': META,
  'template-variable': { fg: 'red' },
  variable: { fg: 'red' },
  addition: { fg: 'green' },
  deletion: { fg: 'red' },
  emphasis: { italic: true },
  strong: { bold: true },
  link: { underline: true },
} satisfies Record<string, Style>));

/** True when highlight.js knows `language` (a name or alias such as `ts`, `sh`, `py`). */
export function isKnownLanguage(language: string): boolean {
  return language !== '' && hljs.getLanguage(language) !== undefined;
}

function plainLines(code: string): Line[] {
  return code.split('\n').map((text) => (text === '' ? [] : [{ text }]));
}

const ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['#x27', "'"],
  ['#39', "'"],
]);

function decodeEntities(html: string): string {
  if (!html.includes('&')) return html;
  return html.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_whole, name: string) => ENTITIES.get(name) ?? '');
}

function styleForClass(classAttribute: string): Style | undefined {
  // `hljs-title function_` → `title.function`; `hljs-meta hljs-keyword` → the first scope wins.
  const [first = '', ...rest] = classAttribute.split(' ');
  const scope = first.replace(/^hljs-/, '');
  const sub = rest.find((part) => part.endsWith('_'))?.replace(/_+$/, '');
  return (sub !== undefined ? PALETTE.get(`${scope}.${sub}`) : undefined) ?? PALETTE.get(scope);
}

/** Turns highlight.js HTML (nested `<span class>`s and escaped text) into styled lines. A span
 * may cover several lines (block comments), so the style stack carries across newlines. */
function htmlToLines(html: string): Line[] {
  const lines: Line[] = [[]];
  const stack: (Style | undefined)[] = [];
  const currentStyle = (): Style | undefined => {
    for (let index = stack.length - 1; index >= 0; index -= 1) if (stack[index] !== undefined) return stack[index];
    return undefined;
  };
  for (const match of html.matchAll(/<span class="([^"]*)">|<\/span>|([^<]+)/g)) {
    if (match[1] !== undefined) stack.push(styleForClass(match[1]));
    else if (match[2] === undefined) stack.pop();
    else {
      const style = currentStyle();
      decodeEntities(match[2])
        .split('\n')
        .forEach((text, index) => {
          if (index > 0) lines.push([]);
          const segment: Segment = { text, style };
          if (text !== '') lines[lines.length - 1]?.push(segment);
        });
    }
  }
  return lines;
}

/** Highlighted blocks kept across renders: highlighting does not depend on the width, so a
 * resize (which re-renders every message) reuses them. Least recently used goes first. */
const HIGHLIGHT_CACHE_SIZE = 256;
const highlightCache = new Map<string, Line[]>();

/** `code` as lines of styled segments, highlighted when the language is known. One line per
 * source line, always (the caller adds gutters and cuts long lines). Callers must not mutate
 * the result (it is shared through the cache). */
export function highlightCode(code: string, language: string | undefined): Line[] {
  if (language === undefined || !isKnownLanguage(language)) return plainLines(code);
  const key = `${language}\u0000${code}`;
  const cached = highlightCache.get(key);
  if (cached !== undefined) {
    highlightCache.delete(key);
    highlightCache.set(key, cached);
    return cached;
  }
  let lines: Line[];
  try {
    lines = htmlToLines(hljs.highlight(code, { language, ignoreIllegals: true }).value);
  } catch {
    lines = plainLines(code);
  }
  highlightCache.set(key, lines);
  if (highlightCache.size > HIGHLIGHT_CACHE_SIZE) {
    const oldest = highlightCache.keys().next().value;
    if (oldest !== undefined) highlightCache.delete(oldest);
  }
  return lines;
}
