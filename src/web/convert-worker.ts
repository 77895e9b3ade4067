/**
 * The worker thread's program for a large page's HTML to Markdown (convert-off-thread.ts starts
 * it): one page per worker, given as workerData, answered with one message, then the thread ends.
 * Built into dist/cli/web-worker.cjs (scripts/build.mjs); run from source through tsx under tests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { htmlToMarkdown } from './html-markdown.js';

const { html, url } = workerData as { html: string; url: string };

htmlToMarkdown(html, url).then(
  (page) => parentPort?.postMessage({ page }),
  (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
