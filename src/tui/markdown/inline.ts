import type { MarkedToken, Token } from 'marked';
import { mergeStyle, type Segment, type Style } from './ansi.js';
import { fileLinkTarget, linkCodeSpan, linkPlainText } from './file-links.js';

/** Inline Markdown (emphasis, code spans, links…) as styled segments, ready for wrapping. */

export const CODE_SPAN: Style = { fg: 'cyan' };
const LINK: Style = { fg: 'blue', underline: true };
const URL: Style = { dim: true };

const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', ' '],
  ['copy', '©'],
  ['reg', '®'],
  ['mdash', '—'],
  ['ndash', '–'],
  ['hellip', '…'],
  ['rarr', '→'],
  ['larr', '←'],
]);

/** Decodes the HTML entities Markdown text may contain (`&amp;`, `&#39;`, `&#x2192;`); unknown
 * names stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) && code >= 0x20
        ? String.fromCodePoint(code)
        : whole;
    }
    return NAMED_ENTITIES.get(name.toLowerCase()) ?? whole;
  });
}

/** Soft line breaks and runs of whitespace inside a paragraph show as one space (CommonMark). */
function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** Targets a terminal can open: web and mail addresses, without spaces or control characters
 * (which would end the OSC 8 sequence early). */
const LINKABLE = /^(?:https?:\/\/|mailto:)[^\s\u0000-\u001f\u007f-\u009f]+$/i;

/** `style` with `href` as its hyperlink when a terminal can open it (a web or mail address, or a
 * file of the session's directory where file links are on: file-links.ts). */
function linked(style: Style, href: string): Style {
  if (LINKABLE.test(href)) return { ...style, link: href };
  const file = fileLinkTarget(href);
  return file === undefined ? style : { ...style, link: file };
}

function isSameUrl(text: string, href: string): boolean {
  return text === href || `mailto:${text}` === href || `http://${text}` === href || `https://${text}` === href;
}

/**
 * Styled segments for inline tokens. `base` is the surrounding style (a heading's bold colour);
 * inner styles add to it. Hard breaks come out as a `\n` segment for the wrapper.
 */
export function inlineSegments(tokens: readonly Token[] | undefined, base?: Style): Segment[] {
  const out: Segment[] = [];
  for (const token of tokens ?? []) appendInline(out, token, base);
  return out;
}

function appendInline(out: Segment[], token: Token, base: Style | undefined): void {
  const known = token as MarkedToken;
  switch (known.type) {
    case 'text':
      if (known.tokens !== undefined && known.tokens.length > 0) out.push(...inlineSegments(known.tokens, base));
      else out.push(...linkPlainText(collapseWhitespace(decodeEntities(known.text)), base));
      return;
    case 'strong':
      out.push(...inlineSegments(known.tokens, mergeStyle(base, { bold: true })));
      return;
    case 'em':
      out.push(...inlineSegments(known.tokens, mergeStyle(base, { italic: true })));
      return;
    case 'del':
      out.push(...inlineSegments(known.tokens, mergeStyle(base, { strikethrough: true })));
      return;
    case 'codespan':
      out.push(...linkCodeSpan(collapseWhitespace(known.text), mergeStyle(base, CODE_SPAN)));
      return;
    case 'br':
      out.push({ text: '\n', style: base });
      return;
    case 'escape':
      out.push({ text: known.text, style: base });
      return;
    case 'html':
      // Inline HTML is shown as written: in model output it is usually text like `Vec<T>`.
      out.push({ text: collapseWhitespace(known.raw), style: base });
      return;
    case 'link': {
      const label = inlineSegments(known.tokens, linked(mergeStyle(base, LINK), known.href));
      const labelText = label.map((segment) => segment.text).join('');
      if (isSameUrl(labelText, known.href) || known.href === '') {
        out.push(...label);
        return;
      }
      out.push(...label, { text: ' ' }, { text: `(${known.href})`, style: linked(mergeStyle(base, URL), known.href) });
      return;
    }
    case 'image':
      out.push({ text: `[image: ${known.text}]`, style: mergeStyle(base, { italic: true }) });
      if (known.href !== '') out.push({ text: ' ' }, { text: `(${known.href})`, style: mergeStyle(base, URL) });
      return;
    case 'checkbox':
      return; // the list renders task markers itself
    default: {
      // Extension or block token in an inline position: show its text rather than dropping it.
      const generic = token as { tokens?: Token[]; text?: unknown; raw: string };
      if (generic.tokens !== undefined) out.push(...inlineSegments(generic.tokens, base));
      else out.push({ text: collapseWhitespace(typeof generic.text === 'string' ? generic.text : generic.raw), style: base });
    }
  }
}
