/**
 * web_fetch's HTML to Markdown, on the main thread (before) and as web_fetch does it now (after:
 * pages over IN_PROCESS_MAX_CHARS in a worker thread, src/web/convert-off-thread.ts), on generated
 * pages of 100 KiB, 1 MiB and 12 MiB (`npm run bench:web`; builds dist/ first: the worker is the
 * built dist/cli/web-worker.cjs). For each: the main thread's event-loop delay while converting
 * (perf_hooks.monitorEventLoopDelay, max and p99) and the wall time, and the after/before ratio
 * from the same run (the heartbeat gap, the longest gap between ticks of a 5 ms interval,
 * cross-checks the histogram); then the worker's start-up (a tiny page through a worker) and pages
 * of 16-256 KiB in-process and through a worker, which decide IN_PROCESS_MAX_CHARS. Checks both paths give the
 * same Markdown. Libraries are warmed on both sides first (a conversion of a small page).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { htmlToMarkdown, type MarkdownPage } from '../src/web/html-markdown.js';
import { htmlToMarkdownOffThread } from '../src/web/convert-off-thread.js';
import { convertHtml, IN_PROCESS_MAX_CHARS } from '../src/web/page-text.js';
import { generatedArticleHtml } from '../test/support/generated-html.js';

const WORKER = fileURLToPath(new URL('../dist/cli/web-worker.cjs', import.meta.url));
const workerSource = `require(${JSON.stringify(WORKER)});`;
const URL_ = 'https://example.com/guide';

interface Measure {
  ms: number;
  maxDelayMs: number;
  p99DelayMs: number;
  /** The longest gap between two ticks of a 5 ms interval: a cross-check of maxDelayMs. */
  maxGapMs: number;
  page: MarkdownPage;
}

async function measure(convert: () => Promise<MarkdownPage>): Promise<Measure> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let last = performance.now();
  let maxGapMs = 0;
  const heartbeat = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
  }, 5);
  // A few ticks first: the histogram records a delay only after its first tick, so a block that
  // began at enable() would go unseen (maxGapMs catches it either way).
  await new Promise((resolve) => setTimeout(resolve, 30));
  const started = performance.now();
  const page = await convert();
  const ms = performance.now() - started;
  // One more turn, so a delay that ended with the conversion is recorded.
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(heartbeat);
  histogram.disable();
  return { ms, maxDelayMs: histogram.max / 1e6, p99DelayMs: histogram.percentile(99) / 1e6, maxGapMs, page };
}

const fmt = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

async function main(): Promise<void> {
  const offThread = (html: string): Promise<MarkdownPage> => htmlToMarkdownOffThread(html, URL_, { workerSource });
  const small = generatedArticleHtml(4 * 1024);
  await htmlToMarkdown(small, URL_);
  await offThread(small);
  console.log('page       | path    | wall      | loop delay max | p99       | heartbeat gap | after/before wall');
  for (const [label, bytes] of [['100 KiB', 100 * 1024], ['1 MiB', 1024 * 1024], ['12 MiB', 12 * 1024 * 1024]] as const) {
    const html = generatedArticleHtml(bytes);
    const before = await measure(() => htmlToMarkdown(html, URL_));
    const after = await measure(() => (html.length <= IN_PROCESS_MAX_CHARS ? convertHtml(html, URL_) : offThread(html)));
    if (before.page.markdown !== after.page.markdown) throw new Error(`${label}: the two paths gave different Markdown`);
    for (const [path, run] of [['before', before], ['after', after]] as const) {
      console.log(`${label.padEnd(10)} | ${path.padEnd(7)} | ${fmt(run.ms).padEnd(9)} | ${fmt(run.maxDelayMs).padEnd(14)} | ${fmt(run.p99DelayMs).padEnd(9)} | ${fmt(run.maxGapMs).padEnd(13)} | ${path === 'after' ? (after.ms / before.ms).toFixed(2) : ''}`);
    }
  }
  const startups: number[] = [];
  for (let run = 0; run < 5; run++) startups.push((await measure(() => offThread('<p>hi</p>'))).ms);
  startups.sort((a, b) => a - b);
  console.log(`worker start-up (a 9-byte page through a worker, 5 runs): median ${fmt(startups[2]!)}, min ${fmt(startups[0]!)}, max ${fmt(startups[4]!)}`);
  for (const kib of [16, 32, 64, 100, 256]) {
    const html = generatedArticleHtml(kib * 1024);
    const inline = await measure(() => htmlToMarkdown(html, URL_));
    const forced = await measure(() => offThread(html));
    console.log(`${kib} KiB: in-process ${fmt(inline.ms)} wall, heartbeat gap ${fmt(inline.maxGapMs)}; through a worker ${fmt(forced.ms)} wall, heartbeat gap ${fmt(forced.maxGapMs)}`);
  }
}

await main();
