import { htmlToMarkdownOffThread, type OffThreadOptions } from './convert-off-thread.js';
import { htmlToMarkdown, type MarkdownPage } from './html-markdown.js';
import { withoutControls } from './hostile-html.js';

/** What web_fetch makes of a response body: Markdown from HTML, JSON and text as they are. */
export interface PageText {
  /** How the text was made, for the model: "text/html, as Markdown". */
  form: string;
  title?: string;
  text: string;
}

export class UnreadableContentError extends Error {
  override readonly name = 'UnreadableContentError';
}

function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

const CHARSET = /charset\s*=\s*["']?([\w.:-]+)/i;

/** The header's charset, else (HTML) a `<meta charset>` near the top, else UTF-8. */
function charset(contentType: string, body: Buffer, html: boolean): string {
  const declared = CHARSET.exec(contentType)?.[1];
  if (declared) return declared;
  const meta = html ? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 4096).toString('latin1'))?.[1] : undefined;
  return meta ?? 'utf-8';
}

function decode(body: Buffer, contentType: string, html = false): string {
  try {
    return new TextDecoder(charset(contentType, body, html)).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

const TEXT_TYPES = /^(text\/|application\/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|javascript|ecmascript|x-yaml|yaml|toml|x-sh|sql|graphql|ld\+json)$)/;

/** Sniffs a body served without a type (or as octet-stream): HTML, JSON or text, else binary. */
function sniff(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048);
  if (head.includes(0)) return undefined;
  const text = head.toString('utf8').trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) return 'text/html';
  if (text.startsWith('{') || text.startsWith('[')) return 'application/json';
  return 'text/plain';
}

/** Up to this many characters of HTML, a page converts on the main thread: there it blocks about
 * as long as a worker takes to start (~0.4-0.5 s each on a loaded 2-core machine), and a 32 KiB
 * page already blocks twice that (bench/web-convert.ts, docs/web.md). */
export const IN_PROCESS_MAX_CHARS = 16 * 1024;

/** A small page in-process, a larger one in a worker (convert-off-thread.ts). */
export function convertHtml(html: string, url: string, options: OffThreadOptions = {}): Promise<MarkdownPage> {
  return html.length <= IN_PROCESS_MAX_CHARS ? htmlToMarkdown(html, url) : htmlToMarkdownOffThread(html, url, options);
}

export async function pageText(body: Buffer, contentType: string, url: string, options: OffThreadOptions = {}): Promise<PageText> {
  let type = mediaType(contentType);
  if (type === '' || type === 'application/octet-stream') type = sniff(body) ?? type;
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    const page = await convertHtml(decode(body, contentType, true), url, options);
    const form = page.plain ? `${type}, as plain text (nested too deeply for Markdown)` : `${type}, as Markdown`;
    return { form, ...(page.title ? { title: page.title } : {}), text: page.markdown };
  }
  if (TEXT_TYPES.test(type)) return { form: type, text: withoutControls(decode(body, contentType)) };
  throw new UnreadableContentError(`${url} is ${type || 'of an unknown type'} (${body.length} bytes), not text: web_fetch reads HTML, JSON and text.`);
}
