/**
 * The worker wrapper for large pages' HTML to Markdown (src/web/convert-off-thread.ts): the real
 * worker (from source, through tsx) converts like the main thread does; a worker that crashes,
 * throws or runs out of its heap ends as a ConversionError that says so; an abort or the deadline
 * ends the call with ConversionStoppedError and terminates the worker (its exit is observed).
 */
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ConversionError, ConversionStoppedError, htmlToMarkdownOffThread } from '../../../src/web/convert-off-thread.js';
import { htmlToMarkdown } from '../../../src/web/html-markdown.js';
import { convertHtml, IN_PROCESS_MAX_CHARS } from '../../../src/web/page-text.js';
import { generatedArticleHtml } from '../../support/generated-html.js';

const URL_ = 'https://example.com/guide';
/** A worker that spins forever once it has said it is running: only terminate() ends it. */
const SPIN = "require('node:worker_threads').parentPort.postMessage('running'); for (;;) {}";

/** Resolves with the worker once it is started, and the promise of its exit code. */
function watch(): { started: Promise<{ worker: Worker; exited: Promise<number> }>; onStart: (worker: Worker) => void } {
  let onStart!: (worker: Worker) => void;
  const started = new Promise<{ worker: Worker; exited: Promise<number> }>((resolve) => {
    onStart = (worker) => resolve({ worker, exited: new Promise((done) => worker.once('exit', done)) });
  });
  return { started, onStart };
}

describe('htmlToMarkdownOffThread', () => {
  it('converts in the real worker exactly as on the main thread', { timeout: 120_000 }, async () => {
    const html = generatedArticleHtml(40 * 1024);
    const [inWorker, inline] = await Promise.all([htmlToMarkdownOffThread(html, URL_), htmlToMarkdown(html, URL_)]);
    expect(inWorker.markdown).toContain('## Section 0');
    expect(inWorker).toEqual(inline);
  });

  it('reports a worker that exits without answering as a ConversionError', async () => {
    const failed = htmlToMarkdownOffThread('<p>x</p>', URL_, { workerSource: 'process.exit(3)' });
    await expect(failed).rejects.toBeInstanceOf(ConversionError);
    await expect(failed).rejects.toThrow(/converter stopped \(exit code 3\) before it answered/);
  });

  it('reports a converter that throws, with its message', async () => {
    const failed = htmlToMarkdownOffThread('<p>x</p>', URL_, { workerSource: "throw new Error('the DOM broke')" });
    await expect(failed).rejects.toBeInstanceOf(ConversionError);
    await expect(failed).rejects.toThrow(/converter failed on this page .*the DOM broke/);
  });

  it('reports a page that needs more than the heap cap, and seek lives on', { timeout: 120_000 }, async () => {
    const hog = 'const kept = []; for (;;) kept.push(new Array(100000).fill({ a: kept.length }));';
    const failed = htmlToMarkdownOffThread('<p>x</p>', URL_, { workerSource: hog, heapMb: 32 });
    await expect(failed).rejects.toThrow(/needs more than the converter's 32 MiB of memory/);
    // This thread is unharmed: the next conversion works.
    expect((await htmlToMarkdown('<h1>Still here</h1>', URL_)).markdown).toContain('Still here');
  });

  it('terminates the worker when the signal aborts mid-conversion', async () => {
    const controller = new AbortController();
    const { started, onStart } = watch();
    const running = htmlToMarkdownOffThread('<p>x</p>', URL_, { workerSource: SPIN, signal: controller.signal, onStart });
    const { worker, exited } = await started;
    await new Promise((resolve) => worker.once('message', resolve)); // it is spinning now
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'ConversionStoppedError', timedOut: false, message: 'the conversion was cancelled' });
    expect(await exited).toBe(1); // terminate()'s exit code
  });

  it('terminates the worker at the deadline', async () => {
    const { started, onStart } = watch();
    const running = htmlToMarkdownOffThread('<p>x</p>', URL_, { workerSource: SPIN, deadlineMs: 300, onStart });
    const { exited } = await started;
    const error = await running.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConversionStoppedError);
    expect((error as ConversionStoppedError).timedOut).toBe(true);
    expect(await exited).toBe(1);
  });

  it('does not start a worker for an already aborted call', async () => {
    let startedOne = false;
    const running = htmlToMarkdownOffThread('<p>x</p>', URL_, { signal: AbortSignal.abort(), onStart: () => (startedOne = true) });
    await expect(running).rejects.toBeInstanceOf(ConversionStoppedError);
    expect(startedOne).toBe(false);
  });
});

describe('convertHtml', () => {
  it('keeps a small page on the main thread and sends a larger one to a worker', async () => {
    const small = generatedArticleHtml(8 * 1024);
    const large = generatedArticleHtml(IN_PROCESS_MAX_CHARS + 1024);
    // A worker source that answers a fixed page shows which path ran.
    const fixed = "require('node:worker_threads').parentPort.postMessage({ page: { markdown: 'FROM-WORKER' } })";
    expect((await convertHtml(small, URL_, { workerSource: fixed })).markdown).toContain('## Section 0');
    expect((await convertHtml(large, URL_, { workerSource: fixed })).markdown).toBe('FROM-WORKER');
  });
});
