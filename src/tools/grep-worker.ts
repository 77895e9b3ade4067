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
import type { Worker } from 'node:worker_threads';
import { workerThreadsModule } from '../util/builtins.js';
import { monotonicMs } from '../util/clock.js';

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

/** The worker's program: answer each batch of file texts with their `searchText` results, in
 * order, compiling each pattern once (a warm worker serves one search after another). */
const workerSource = (): string => `
const { parentPort } = require('node:worker_threads');
const searchText = (${searchText.toString()});
let compiled = { key: undefined, regex: undefined };
parentPort.on('message', ({ source, flags, contextLines, texts }) => {
  const key = flags + '/' + source;
  if (compiled.key !== key) compiled = { key, regex: new RegExp(source, flags) };
  parentPort.postMessage(texts.map((text) => searchText(text, compiled.regex, contextLines)));
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
  /** Total matching time this search may use, summed over all batches (worker start-up excluded). */
  budgetMs: number;
  /** Aborting stops the worker; the pending batch rejects with the signal's reason. */
  signal: AbortSignal;
}

/**
 * One search's use of a worker, taken by the first batch. `match` sends file texts and resolves
 * with their results; it rejects with a PatternTimeoutError once the batches together took longer
 * than the budget, with the abort reason when the signal fires, or with the worker's own error;
 * the worker is then terminated. `close` gives a healthy worker back to the pool, or waits until a
 * stopped one's thread is gone; call it when the search is over, whatever happened.
 */
export class RegexWorker {
  private worker: Worker | undefined;
  private usedMs = 0;
  private stopped: Promise<void> = Promise.resolve();

  constructor(private readonly options: RegexWorkerOptions) {}

  match(texts: string[]): Promise<GrepLine[][]> {
    const { signal, budgetMs, regex, contextLines } = this.options;
    if (signal.aborted) return Promise.reject(signal.reason);
    const worker = (this.worker ??= takeWorker());
    return new Promise((resolve, reject) => {
      let startedAt: number | undefined;
      let timer: NodeJS.Timeout | undefined;
      // The clock runs only while the worker can match: start-up time (long on a busy machine)
      // is not the pattern's fault.
      const startClock = (): void => {
        startedAt = monotonicMs();
        timer = setTimeout(() => fail(new PatternTimeoutError(budgetMs)), Math.max(0, budgetMs - this.usedMs));
      };
      const settle = (): void => {
        clearTimeout(timer);
        if (startedAt !== undefined) this.usedMs += monotonicMs() - startedAt;
        worker.off('online', startClock).off('message', onMessage).off('error', fail).off('exit', onExit);
        signal.removeEventListener('abort', onAbort);
      };
      const onMessage = (results: GrepLine[][]): void => {
        settle();
        resolve(results);
      };
      const fail = (error: unknown): void => {
        settle();
        this.stop();
        reject(error);
      };
      const onExit = (code: number): void => fail(new Error(`the regex worker stopped (exit code ${code})`));
      const onAbort = (): void => fail(signal.reason);
      worker.on('message', onMessage).on('error', fail).on('exit', onExit);
      signal.addEventListener('abort', onAbort, { once: true });
      if (liveWorkers.has(worker)) startClock();
      else worker.once('online', startClock);
      worker.postMessage({ source: regex.source, flags: regex.flags, contextLines, texts });
    });
  }

  /** Ends this search's use of the worker. */
  close(): Promise<void> {
    if (this.worker) releaseWorker(this.worker);
    this.worker = undefined;
    return this.stopped;
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    workersInUse.delete(worker);
    this.stopped = worker.terminate().then(() => {
      liveWorkers.delete(worker);
    });
  }
}
