/**
 * HTML to Markdown for web_fetch: Mozilla's Readability (Firefox's reader view) picks the page's
 * main content out of a DOM built by linkedom, and turndown writes it as Markdown. Scripts,
 * styles and forms never reach the text. The three libraries load at the first page converted.
 * A very large page skips Readability (it is quadratic on big documents) and converts whole. A
 * page nested deeper than the libraries' recursion can take is read as plain text instead, and
 * control characters never reach the text (hostile-html.ts). Images and links whose address is a
 * `data:`, `javascript:` or `blob:` URL keep only their text: a data URL is often megabytes of
 * base64 the model cannot use.
 */
import { MAX_NESTING, nestingDepth, plainTextOfHtml, withoutControls } from './hostile-html.js';

/** Above this many characters of HTML, the page is converted whole, without Readability. */
export const READABILITY_MAX_CHARS = 1_000_000;

const DROPPED: readonly string[] = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'form', 'svg', 'canvas'];

export interface MarkdownPage {
  title?: string;
  markdown: string;
  /** Nested too deeply for the Markdown conversion: the page's plain text. */
  plain?: boolean;
}

const SCRIPT_OR_DATA_URL = /^\s*(data|javascript|vbscript|blob):/i;

type Turndown = import('turndown');

let turndownService: Promise<Turndown> | undefined;

function converter(): Promise<Turndown> {
  turndownService ??= import('turndown').then(({ default: TurndownService }) => {
    const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    service.remove((node) => DROPPED.includes(node.nodeName.toLowerCase()));
    service.addRule('inline-data-images', {
      filter: (node) => node.nodeName === 'IMG' && SCRIPT_OR_DATA_URL.test(node.getAttribute('src') ?? ''),
      replacement: (_content, node) => {
        const alt = (node as HTMLElement).getAttribute('alt')?.trim();
        return alt ? `[image: ${alt}]` : '';
      },
    });
    service.addRule('script-and-data-links', {
      filter: (node) => node.nodeName === 'A' && SCRIPT_OR_DATA_URL.test(node.getAttribute('href') ?? ''),
      replacement: (content) => content,
    });
    return service;
  });
  return turndownService;
}

/** A `<base>` so that Readability writes links as absolute URLs. */
function withBase(html: string, url: string): string {
  const base = `<base href="${url.replace(/"/g, '&quot;')}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${base}`) : `${base}${html}`;
}

async function readable(html: string, url: string): Promise<{ title?: string; content: string } | undefined> {
  const [{ parseHTML }, { Readability }] = await Promise.all([import('linkedom'), import('@mozilla/readability')]);
  const { document } = parseHTML(withBase(html, url));
  for (const tag of DROPPED) for (const node of Array.from(document.querySelectorAll(tag))) node.remove();
  const article = new Readability(document as unknown as Document).parse();
  if (!article?.content || (article.textContent ?? '').trim().length < 20) return undefined;
  return { ...(article.title ? { title: article.title } : {}), content: article.content };
}

function titleOf(html: string): string | undefined {
  const match = /<title[^>]*>([^<]*)<\/title>/i.exec(html.slice(0, 100_000));
  const title = match?.[1]?.replace(/\s+/g, ' ').trim();
  return title ? title : undefined;
}

export async function htmlToMarkdown(html: string, url: string): Promise<MarkdownPage> {
  if (nestingDepth(html) > MAX_NESTING) {
    const title = titleOf(html);
    return { ...(title ? { title: withoutControls(title) } : {}), markdown: withoutControls(plainTextOfHtml(html)), plain: true };
  }
  const service = await converter();
  const article = html.length <= READABILITY_MAX_CHARS ? await readable(html, url).catch(() => undefined) : undefined;
  const title = article?.title ?? titleOf(html);
  const markdown = withoutControls(service.turndown(article?.content ?? html).trim());
  return { ...(title ? { title: withoutControls(title) } : {}), markdown };
}
