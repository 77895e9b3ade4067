/**
 * A fake web on 127.0.0.1 for web_fetch and web_search tests: pages (HTML, JSON, a 10 MB page,
 * redirects) and two search backends answering with the real services' JSON shapes (SearXNG's
 * /search?format=json, Brave's /res/v1/web/search). Every request is recorded.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebHit {
  path: string;
  host: string;
  headers: IncomingMessage['headers'];
}

export const PAGE_HTML = `<!doctype html><html><head><title>Install guide</title>
<script>window.tracker = "SCRIPT_SECRET_TEXT";</script><style>.x{color:red}</style></head>
<body><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
<main><article><h1>Installing seek</h1>
<p>Read the <a href="/docs/intro">introduction</a> before you start. ${'Installing takes a minute on most machines, and the steps below work the same everywhere. '.repeat(8)}</p>
<h2>Steps</h2><ol><li>Install Node 20.</li><li>Run the installer.</li></ol>
<script>document.write("SCRIPT_SECRET_TEXT_2")</script>
<pre><code>npm install -g seek-agent</code></pre></article></main>
<footer>Footer text</footer></body></html>`;

export const DATA_JSON = JSON.stringify({ name: 'seek', versions: ['0.1.0', '0.2.0'], nested: { ok: true } });

/** About 10 MB of HTML: numbered sections, the last one marked. */
export function bigHtml(): string {
  const sections = Array.from({ length: 40_000 }, (_, n) => `<h2>Section ${n}</h2><p>${'lorem ipsum dolor sit amet '.repeat(8)}</p>`);
  return `<!doctype html><html><head><title>Big</title></head><body>${sections.join('\n')}<p>THE-LAST-LINE</p></body></html>`;
}

export const SEARXNG_ANSWER = {
  query: 'seek agent',
  number_of_results: 0,
  results: [
    {
      url: 'https://example.org/seek',
      title: 'seek: a terminal coding agent',
      content: 'seek is a terminal coding agent with subagents.',
      engine: 'duckduckgo',
      parsed_url: ['https', 'example.org', '/seek', '', '', ''],
      template: 'default.html',
      engines: ['duckduckgo', 'brave'],
      positions: [1, 2],
      score: 3.5,
      category: 'general',
    },
    { url: 'https://example.net/docs', title: 'seek docs', content: 'Install &amp; configure.', engine: 'bing', engines: ['bing'], positions: [3], score: 1, category: 'general' },
  ],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: ['seek agent github'],
  unresponsive_engines: [],
};

export const BRAVE_ANSWER = {
  type: 'search',
  query: { original: 'seek agent', show_strict_warning: false, is_navigational: false, spellcheck_off: true, country: 'us', more_results_available: true },
  mixed: { type: 'mixed', main: [{ type: 'web', index: 0, all: false }], top: [], side: [] },
  web: {
    type: 'search',
    results: [
      {
        title: 'seek on GitHub',
        url: 'https://github.com/example/seek',
        is_source_local: false,
        is_source_both: false,
        description: 'The <strong>seek</strong> coding <strong>agent</strong>, in TypeScript.',
        profile: { name: 'GitHub', url: 'https://github.com/example/seek', long_name: 'github.com', img: 'https://imgs.search.brave.com/x' },
        language: 'en',
        family_friendly: true,
        type: 'search_result',
        subtype: 'generic',
        meta_url: { scheme: 'https', netloc: 'github.com', hostname: 'github.com', favicon: 'https://imgs.search.brave.com/y', path: '› example › seek' },
      },
    ],
    family_friendly: true,
  },
};

export const BRAVE_KEY = 'brave-test-key';
export const TAVILY_KEY = 'tvly-test-key';
export const EXA_KEY = 'exa-test-key';

export const TAVILY_ANSWER = {
  query: 'seek agent',
  follow_up_questions: null,
  answer: null,
  images: [],
  results: [{ title: 'seek (Tavily)', url: 'https://example.com/tavily', content: 'A terminal coding agent.', score: 0.93, raw_content: null }],
  response_time: 0.84,
};

export const EXA_ANSWER = {
  requestId: 'b5947044c4b78efa9552a7c89b306d95',
  resolvedSearchType: 'neural',
  results: [
    {
      id: 'https://example.com/exa',
      title: 'seek (Exa)',
      url: 'https://example.com/exa',
      publishedDate: '2026-01-01T00:00:00.000Z',
      author: null,
      score: 0.41,
      text: 'seek is a terminal coding agent written in TypeScript, with subagents and worktrees.',
    },
  ],
  costDollars: { total: 0.005 },
};

/** Bodies of POST requests, by path. */
export const posted: Array<{ path: string; body: string }> = [];

export interface FakeWeb {
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly base: string;
  readonly hits: WebHit[];
  close(): Promise<void>;
}

type Send = (status: number, type: string, body: string) => void;

/** Tavily (Bearer key) and Exa (x-api-key) both POST /search. */
function postedSearch(req: IncomingMessage, send: Send): void {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    posted.push({ path: req.url ?? '', body });
    if (req.headers.authorization === `Bearer ${TAVILY_KEY}`) return send(200, 'application/json', JSON.stringify(TAVILY_ANSWER));
    if (req.headers['x-api-key'] === EXA_KEY) return send(200, 'application/json', JSON.stringify(EXA_ANSWER));
    send(401, 'application/json', JSON.stringify({ error: 'Unauthorized' }));
  });
}

export async function startFakeWeb(): Promise<FakeWeb> {
  const hits: WebHit[] = [];
  let big: Buffer | undefined;
  let port = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push({ path: url.pathname + url.search, host: req.headers.host ?? '', headers: req.headers });
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...headers });
      res.end(body);
    };
    switch (url.pathname) {
      case '/page.html':
        return send(200, 'text/html; charset=utf-8', PAGE_HTML);
      case '/data.json':
        return send(200, 'application/json', DATA_JSON);
      case '/big.html':
        big ??= Buffer.from(bigHtml());
        return send(200, 'text/html', big);
      case '/redirect-same':
        return send(302, 'text/plain', '', { location: '/page.html' });
      case '/redirect-other':
        return send(302, 'text/plain', '', { location: `http://localhost:${port}/page.html` });
      case '/search':
        if (req.method === 'POST') return postedSearch(req, send);
        if (url.searchParams.get('format') !== 'json') return send(403, 'text/html', 'Forbidden');
        return send(200, 'application/json', JSON.stringify({ ...SEARXNG_ANSWER, query: url.searchParams.get('q') }));
      case '/res/v1/web/search':
        if (req.headers['x-subscription-token'] !== BRAVE_KEY) return send(422, 'application/json', JSON.stringify({ type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', status: 422 } }));
        return send(200, 'application/json', JSON.stringify(BRAVE_ANSWER));
      default:
        return send(404, 'text/plain', 'not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
