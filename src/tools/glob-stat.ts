import { statSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { workerThreadsModule } from '../util/builtins.js';

/**
 * Modification times for glob's matches. The first 2,000 are read inline (`statSync`, a few
 * microseconds each); past that, batches go to a worker thread that reads them while the walk
 * goes on, so over 44,000 matches the stats no longer add to the walk's time on the main thread
 * (measured: docs/performance.md). A worker that fails to start or dies leaves its batches to
 * `statSync` inline: the result is the same, only slower.
 */
export class MtimeReader {
  private readonly batches: Promise<void>[] = [];
  private pending: { paths: string[]; targets: { mtimeMs: number }[] } | null = null;
  private inline = 0;

  constructor(
    private readonly inlineLimit = INLINE_STATS,
    private readonly batchSize = BATCH_PATHS,
  ) {}

  /** Sets `into.mtimeMs` to `absPath`'s modification time (0 when unreadable), now or by `done()`. */
  read(absPath: string, into: { mtimeMs: number }): void {
    if (this.inline < this.inlineLimit) {
      this.inline += 1;
      into.mtimeMs = mtimeOf(absPath);
      return;
    }
    const batch = (this.pending ??= { paths: [], targets: [] });
    batch.paths.push(absPath);
    batch.targets.push(into);
    if (batch.paths.length >= this.batchSize) this.flush();
  }

  /** Resolves once every time asked for is set. */
  async done(): Promise<void> {
    this.flush();
    await Promise.all(this.batches);
    releaseWorker();
  }

  private flush(): void {
    const batch = this.pending;
    if (!batch) return;
    this.pending = null;
    const apply = (mtimes: Float64Array): void => batch.targets.forEach((target, index) => (target.mtimeMs = mtimes[index]!));
    this.batches.push(statInWorker(batch.paths).then(apply, () => apply(Float64Array.from(batch.paths, mtimeOf))));
  }
}

/** Stats read inline before batches go to the worker (a worker costs 20-70 ms to start). */
const INLINE_STATS = 2_000;
const BATCH_PATHS = 1_024;

/** Modification time, 0 for a file that cannot be read (a dangling link): it sorts last. */
export function mtimeOf(absPath: string): number {
  try {
    return statSync(absPath, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  } catch {
    return 0;
  }
}

let workerSource = `
const { parentPort } = require('node:worker_threads');
const { statSync } = require('node:fs');
parentPort.on('message', ({ id, paths }) => {
  const mtimes = new Float64Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    try { const stats = statSync(paths[i], { throwIfNoEntry: false }); mtimes[i] = stats ? stats.mtimeMs : 0; } catch { mtimes[i] = 0; }
  }
  parentPort.postMessage({ id, mtimes }, [mtimes.buffer]);
});
`;

const REAL_SOURCE = workerSource;
let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve: (mtimes: Float64Array) => void; reject: (error: unknown) => void }>();

/** The stat worker, started on first use and kept (unref'd while idle) for the next glob. */
function statWorker(): Worker {
  if (worker) return worker;
  const started = new (workerThreadsModule().Worker)(workerSource, { eval: true });
  started.on('message', ({ id, mtimes }: { id: number; mtimes: Float64Array }) => {
    waiting.get(id)?.resolve(mtimes);
    waiting.delete(id);
    if (waiting.size === 0) started.unref();
  });
  const fail = (error: unknown): void => {
    if (worker === started) worker = undefined;
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  };
  started.on('error', fail);
  started.once('exit', (code) => fail(new Error(`stat worker exited (${code})`)));
  worker = started;
  return started;
}

function statInWorker(paths: string[]): Promise<Float64Array> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    try {
      const target = statWorker();
      target.ref();
      target.postMessage({ id, paths });
    } catch (error) {
      waiting.delete(id);
      reject(error);
    }
  });
}

function releaseWorker(): void {
  if (waiting.size === 0) worker?.unref();
}

/** Tests: the stat worker's source from now on (one that exits shows the inline fallback), and the
 * running worker stopped. Undefined restores the real one. */
export async function setStatWorkerSourceForTesting(source: string | undefined): Promise<void> {
  workerSource = source ?? REAL_SOURCE;
  const running = worker;
  worker = undefined;
  await running?.terminate();
}
