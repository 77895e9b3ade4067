/**
 * The built-in grep's regex matching, off the main thread. A pattern the model writes can take
 * exponential time (`(a+)+$` on a long line of a's ending in b): run on the main thread it would
 * freeze the event loop, so Ctrl+C, redraws and every other tool would wait for it. In a
 * worker_threads Worker it does not, and it is stopped (`terminate()` interrupts even a regex in
 * the middle of a match) when its time budget is spent or the tool call's AbortSignal fires.
 *
 * The worker runs from source text (`eval`) made of `searchText` itself, so the worker matches
 * exactly like the tests of `searchText` say, and it works the same from src/ under vitest and
 * from the one esbuild bundle in dist/ (a worker file would need its own build entry and, under
 * vitest, a TypeScript loader). For that `searchText` must stay self-contained: no imports, no
 * module-level names, only its parameters and JavaScript globals.
 */
import type * as Fs from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { workerThreadsModule } from '../util/builtins.js';

/** One line of a file in a result: a match or context around one. */
export interface GrepLine {
  lineNumber: number;
  text: string;
  isMatch: boolean;
}

/** Matching lines of `text` with `contextLines` of context around each, overlapping windows merged.
 * Runs inside the worker: keep it self-contained (see the file comment). */
export function searchText(text: string, regex: RegExp, contextLines: number): GrepLine[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const matchIndexes: number[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (regex.test(line.endsWith('\r') ? line.slice(0, -1) : line)) matchIndexes.push(index);
  }
  const result: GrepLine[] = [];
  let emittedUpTo = -1; // highest line index already in `result`
  const matchSet = new Set(matchIndexes);
  for (const matchIndex of matchIndexes) {
    const from = Math.max(emittedUpTo + 1, matchIndex - contextLines);
    const to = Math.min(lines.length - 1, matchIndex + contextLines);
    for (let index = from; index <= to; index += 1) {
      const raw = lines[index]!;
      result.push({ lineNumber: index + 1, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, isMatch: matchSet.has(index) });
    }
    emittedUpTo = Math.max(emittedUpTo, to);
  }
  return result;
}

/**
 * The text of a file worth searching, read synchronously in the worker: undefined for a
 * directory, a file over `maxBytes`, a binary one (a NUL byte in its first 8 KiB, like git and
 * ripgrep) or one that vanished or cannot be read (skipped like rg does). Runs inside the worker:
 * keep it self-contained (see the file comment).
 */
export function readSearchableSync(fs: Pick<typeof Fs, 'statSync' | 'readFileSync'>, absPath: string, maxBytes: number): string | undefined {
  try {
    const info = fs.statSync(absPath);
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const bytes = fs.readFileSync(absPath);
    return bytes.subarray(0, 8192).includes(0) ? undefined : bytes.toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * A whole-file test that passes every file `searchText` finds a line in: the pattern with the `m`
 * flag (so ^ and $ still mean a line's ends) run once over the file, instead of once per line.
 * Only a lookaround could see past a line's end and tell the two apart, so a pattern with one
 * gets no prefilter. Runs inside the worker: keep it self-contained.
 */
export function wholeFilePrefilter(source: string, flags: string): RegExp | undefined {
  return /\(\?<?[=!]/.test(source) ? undefined : new RegExp(source, flags.replace(/[gmy]/g, '') + 'm');
}

/** The worker's program: for each batch of paths, read each file and answer its `searchText`
 * lines (files without a match left out), with the time spent matching, compiling each pattern
 * once (a warm worker serves one search after another). */
const workerSource = (): string => `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const searchText = (${searchText.toString()});
const readSearchableSync = (${readSearchableSync.toString()});
const wholeFilePrefilter = (${wholeFilePrefilter.toString()});
let compiled = { key: undefined, regex: undefined, prefilter: undefined };
parentPort.on('message', ({ source, flags, contextLines, paths, maxBytes }) => {
  const key = flags + '/' + source;
  if (compiled.key !== key) compiled = { key, regex: new RegExp(source, flags), prefilter: wholeFilePrefilter(source, flags) };
  const found = [];
  let matchMs = 0;
  for (let index = 0; index < paths.length; index += 1) {
    const text = readSearchableSync(fs, paths[index], maxBytes);
    if (text === undefined) continue;
    const started = performance.now();
    if (!compiled.prefilter || compiled.prefilter.test(text)) {
      const lines = searchText(text, compiled.regex, contextLines);
      if (lines.length > 0) found.push({ index, lines });
    }
    matchMs += performance.now() - started;
  }
  parentPort.postMessage({ found, matchMs });
});
`;

/**
 * Workers are kept warm between searches: starting one takes 20-70 ms, longer than a typical
 * search. A search takes an idle worker (or starts one) and gives it back when it ends normally;
 * a worker stopped for a timeout, an abort or an error is terminated instead. Idle workers are
 * unref'd, so they never keep the process alive.
 */
const MAX_IDLE_WORKERS = 1;
const idleWorkers: Worker[] = [];
/** Online and not yet exited. */
const liveWorkers = new Set<Worker>();
/** Taken by a search. */
const workersInUse = new Set<Worker>();

function takeWorker(): Worker {
  const worker = idleWorkers.pop() ?? spawnWorker();
  worker.ref();
  workersInUse.add(worker);
  return worker;
}

function releaseWorker(worker: Worker): void {
  workersInUse.delete(worker);
  if (idleWorkers.length >= MAX_IDLE_WORKERS) {
    void worker.terminate();
    return;
  }
  worker.unref();
  idleWorkers.push(worker);
}

function spawnWorker(): Worker {
  const worker = new (workerThreadsModule().Worker)(workerSource(), { eval: true });
  worker.once('online', () => liveWorkers.add(worker));
  // A search listens while it waits for a batch; otherwise an error must not become an uncaught
  // 'error' event. A worker that exits leaves the pool.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    liveWorkers.delete(worker);
    workersInUse.delete(worker);
    const idle = idleWorkers.indexOf(worker);
    if (idle !== -1) idleWorkers.splice(idle, 1);
  });
  return worker;
}

/** Regex worker threads now: `matching` (taken by a search and running), `idle` (kept warm) and
 * `live` (all running threads). Tests use it to see a search under way and nothing left over. */
export function regexWorkerStats(): { matching: number; idle: number; live: number } {
  const matching = [...workersInUse].filter((worker) => liveWorkers.has(worker)).length;
  return { matching, idle: idleWorkers.length, live: liveWorkers.size };
}

/** The search spent its whole time budget matching; the worker was stopped. */
export class PatternTimeoutError extends Error {
  override readonly name = 'PatternTimeoutError';
  constructor(readonly budgetMs: number) {
    super(
      `The pattern took longer than ${formatSeconds(budgetMs)} to match and was stopped; simplify it ` +
        '(nested or overlapping quantifiers such as (a+)+ or (.*)* can take exponential time), or search fewer files with path or glob.',
    );
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

export interface RegexWorkerOptions {
  regex: RegExp;
  contextLines: number;
  /** Files larger than this are skipped. */
  maxFileBytes: number;
  /** Total matching time this search may use, summed over all batches (worker start-up and
   * file reading excluded). */
  budgetMs: number;
  /** Aborting stops the worker; pending batches reject with the signal's reason. */
  signal: AbortSignal;
}

/** A file of a batch with at least one match: its index in the batch and its lines. */
export interface BatchHit {
  index: number;
  lines: GrepLine[];
}

interface Pending {
  resolve: (hits: BatchHit[]) => void;
  reject: (error: unknown) => void;
}

/**
 * One search's use of a worker, taken by the first batch. `match` sends file paths (the worker
 * reads them) and resolves with the files that matched; batches queue in the worker, so the next
 * can be sent while one is matched. It rejects with a PatternTimeoutError once matching took
 * longer than the budget in all, with the abort reason when the signal fires, or with the
 * worker's own error; the worker is then terminated. The watchdog runs for the batch at the head
 * of the queue, for the budget not yet used. `close` gives a healthy worker back to the pool, or
 * waits until a stopped one's thread is gone; call it when the search is over, whatever happened.
 */
export class RegexWorker {
  private worker: Worker | undefined;
  private usedMs = 0;
  private stopped: Promise<void> = Promise.resolve();
  private readonly queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;

  constructor(private readonly options: RegexWorkerOptions) {}

  match(paths: string[]): Promise<BatchHit[]> {
    const { signal, regex, contextLines, maxFileBytes } = this.options;
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const worker = this.worker ?? this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      if (this.queue.length === 1 && liveWorkers.has(worker)) this.startClock();
      worker.postMessage({ source: regex.source, flags: regex.flags, contextLines, maxBytes: maxFileBytes, paths });
    });
  }

  /** Ends this search's use of the worker. */
  close(): Promise<void> {
    const worker = this.worker;
    if (worker) {
      this.detach(worker);
      releaseWorker(worker);
    }
    return this.stopped;
  }

  private start(): Worker {
    const worker = takeWorker();
    this.worker = worker;
    worker.on('message', this.onMessage).on('error', this.fail).on('exit', this.onExit).once('online', this.onOnline);
    this.options.signal.addEventListener('abort', this.onAbort, { once: true });
    return worker;
  }

  private detach(worker: Worker): void {
    clearTimeout(this.timer);
    worker.off('message', this.onMessage).off('error', this.fail).off('exit', this.onExit).off('online', this.onOnline);
    this.options.signal.removeEventListener('abort', this.onAbort);
    this.worker = undefined;
  }

  /** The clock runs only while the worker can match: start-up time (long on a busy machine) is
   * not the pattern's fault. */
  private startClock(): void {
    clearTimeout(this.timer);
    const budgetMs = this.options.budgetMs;
    this.timer = setTimeout(() => this.fail(new PatternTimeoutError(budgetMs)), Math.max(0, budgetMs - this.usedMs));
  }

  private readonly onOnline = (): void => {
    if (this.queue.length > 0) this.startClock();
  };

  private readonly onMessage = ({ found, matchMs }: { found: BatchHit[]; matchMs: number }): void => {
    this.usedMs += matchMs;
    const head = this.queue.shift();
    if (this.queue.length > 0) this.startClock();
    else clearTimeout(this.timer);
    head?.resolve(found);
  };

  private readonly fail = (error: unknown): void => {
    this.failure ??= error;
    const worker = this.worker;
    if (worker) {
      this.detach(worker);
      workersInUse.delete(worker);
      this.stopped = worker.terminate().then(() => {
        liveWorkers.delete(worker);
      });
    }
    for (const pending of this.queue.splice(0)) pending.reject(error);
  };

  private readonly onExit = (code: number): void => this.fail(new Error(`the regex worker stopped (exit code ${code})`));
  private readonly onAbort = (): void => this.fail(this.options.signal.reason);
}
