/**
 * A large page's HTML to Markdown in a worker thread. The DOM libraries (linkedom, Readability,
 * turndown) run synchronously: on the main thread a 12 MiB page held the event loop for ~16 s, so
 * the terminal UI froze, Esc did nothing, other tool calls stalled and the fetch's deadline could
 * not fire. In a worker the main thread stays free, and the worker is stopped (`terminate()`
 * interrupts it mid-conversion) when the call is aborted or its deadline passes. The worker's
 * heap is capped (WORKER_HEAP_MB): a page that needs more, crashes the converter or is hostile
 * in another way ends as a ConversionError, a tool error, never a crash of seek.
 *
 * The worker's program is src/web/convert-worker.ts: dist/cli/web-worker.cjs in the build
 * (scripts/build.mjs), the TypeScript source through tsx when seek runs from src/ (tests).
 */
import type { Worker } from 'node:worker_threads';
import { workerThreadsModule } from '../util/builtins.js';
import type { MarkdownPage } from './html-markdown.js';

/** Old-generation heap of the worker, in MiB. A generated 12 MiB article page (the download
 * limit) fails with a 512 MiB cap and converts with 1024 (docs/web.md): 1536 leaves room for
 * denser pages. A page that needs more ends as a ConversionError saying so. */
export const WORKER_HEAP_MB = 1536;

/** Ends a conversion: too large, a crash of the converter, or its worker could not start. */
export class ConversionError extends Error {
  override readonly name = 'ConversionError';
}

/** The conversion was stopped by the call's signal or its deadline. */
export class ConversionStoppedError extends Error {
  override readonly name = 'ConversionStoppedError';
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

export interface OffThreadOptions {
  signal?: AbortSignal;
  /** Milliseconds the conversion may take; stopped (ConversionStoppedError, timedOut) after. */
  deadlineMs?: number;
  /** Tests: the worker's program, run as source text (`eval`) instead of the real one. */
  workerSource?: string;
  /** Tests: the heap cap in MiB instead of WORKER_HEAP_MB. */
  heapMb?: number;
  /** Tests: called with the worker once it is started. */
  onStart?: (worker: Worker) => void;
}

const runningFromSource = (): boolean => import.meta.url.endsWith('.ts');

/** The real worker: the built file next to the CLI script, or the source through tsx. */
function startWorker(html: string, url: string, options: OffThreadOptions): Worker {
  const { Worker } = workerThreadsModule();
  const resourceLimits = { maxOldGenerationSizeMb: options.heapMb ?? WORKER_HEAP_MB };
  const init = { workerData: { html, url }, resourceLimits, stdout: true, stderr: true };
  if (options.workerSource !== undefined) return new Worker(options.workerSource, { ...init, eval: true });
  if (!runningFromSource()) return new Worker(new URL('./web-worker.cjs', import.meta.url), init);
  const source = [
    `const load = require('node:module').createRequire(${JSON.stringify(import.meta.url)});`,
    "load('tsx/cjs/api').register();",
    "load('./convert-worker.ts');",
  ].join('\n');
  return new Worker(source, { ...init, eval: true });
}

function mib(chars: number): string {
  return `${(chars / (1024 * 1024)).toFixed(1)} MiB`;
}

/** What a worker's error event means for the model. */
function failure(error: unknown, html: string, heapMb: number): ConversionError {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new ConversionError(`the page (${mib(html.length)} of HTML) needs more than the converter's ${heapMb} MiB of memory to become Markdown`);
  }
  return new ConversionError(`the HTML to Markdown converter failed on this page (${mib(html.length)}): ${(error as Error | undefined)?.message ?? String(error)}`);
}

/** Converts `html` in a worker thread; see the file comment. */
export function htmlToMarkdownOffThread(html: string, url: string, options: OffThreadOptions = {}): Promise<MarkdownPage> {
  const heapMb = options.heapMb ?? WORKER_HEAP_MB;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new ConversionStoppedError('the conversion was cancelled', false));
    let worker: Worker;
    try {
      worker = startWorker(html, url, options);
    } catch (error) {
      return reject(new ConversionError(`the HTML to Markdown converter could not start: ${(error as Error).message}`));
    }
    options.onStart?.(worker);
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = (): void => finish(() => reject(new ConversionStoppedError('the conversion was cancelled', false)));
    const timer = options.deadlineMs === undefined ? undefined : setTimeout(() => finish(() => reject(new ConversionStoppedError(`the conversion to Markdown did not finish in time`, true))), Math.max(0, options.deadlineMs));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (answer: { page?: MarkdownPage; error?: string } | null) => {
      if (answer?.page) finish(() => resolve(answer.page!));
      else if (answer?.error !== undefined) finish(() => reject(new ConversionError(`the HTML to Markdown converter failed on this page: ${answer.error}`)));
    });
    worker.on('error', (error) => finish(() => reject(failure(error, html, heapMb))));
    worker.on('exit', (code) => finish(() => reject(new ConversionError(`the HTML to Markdown converter stopped (exit code ${code}) before it answered`))));
  });
}
