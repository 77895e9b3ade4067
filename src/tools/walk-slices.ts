import { monotonicMs } from '../util/clock.js';

/** How long synchronous file-system work may hold the event loop before it yields a turn. */
export const SLICE_MS = 8;

/**
 * Lets a walker do its file-system calls synchronously (a sync `readdirSync`/`statSync` costs
 * a few microseconds; its promise form a round trip through libuv's thread pool, which over
 * 100,000 files was most of a search's time) without freezing the event loop: `pause()` resolves
 * at once while the current slice lasts and after a `setImmediate` turn once it has run
 * `SLICE_MS`, so Ctrl+C, redraws and other tools still get their turn every few milliseconds.
 */
export class TimeSlices {
  private sliceEnd: number;

  constructor(private readonly sliceMs = SLICE_MS) {
    this.sliceEnd = monotonicMs() + sliceMs;
  }

  /** Whether the current slice is spent. */
  get due(): boolean {
    return monotonicMs() >= this.sliceEnd;
  }

  async pause(): Promise<void> {
    if (!this.due) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceEnd = monotonicMs() + this.sliceMs;
  }
}
