/**
 * HTML to Markdown for web_fetch: Mozilla's Readability (Firefox's reader view) picks the page's
 * main content out of a DOM built by linkedom, and turndown writes it as Markdown. Scripts,
 * styles and forms never reach the text. The three libraries load at the first page converted.
 * A very large page skips Readability (it is quadratic on big documents) and converts whole.
 */

/** Above this many characters of HTML, the page is converted whole, without Readability. */
export const READABILITY_MAX_CHARS = 1_000_000;

const DROPPED: readonly string[] = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'form', 'svg', 'canvas'];

export interface MarkdownPage {
  title?: string;
  markdown: string;
}

type Turndown = import('turndown');

let turndownService: Promise<Turndown> | undefined;

function converter(): Promise<Turndown> {
  turndownService ??= import('turndown').then(({ default: TurndownService }) => {
    const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    service.remove((node) => DROPPED.includes(node.nodeName.toLowerCase()));
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
  const service = await converter();
  const article = html.length <= READABILITY_MAX_CHARS ? await readable(html, url).catch(() => undefined) : undefined;
  const title = article?.title ?? titleOf(html);
  const markdown = service.turndown(article?.content ?? html).trim();
  return { ...(title ? { title } : {}), markdown };
}
