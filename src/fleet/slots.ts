import { abortOrDelay } from '../util/abort.js';

/**
 * At most `limit` holders at once (`seek run --queue --max-jobs`): the rest wait in line, in
 * order. A waiter whose signal aborts leaves the line at once, its listener removed (the signal is
 * the run's, and outlives the wait), and a release always wakes a live waiter, never a spent one.
 */
export class Slots {
  private active = 0;
  private readonly line: Array<() => void> = [];

  constructor(private readonly limit: number = Number.POSITIVE_INFINITY) {}

  /** A release function once a place is free; undefined when `signal` aborted first. */
  async acquire(signal: AbortSignal): Promise<(() => void) | undefined> {
    while (this.active >= this.limit) {
      if (signal.aborted) return undefined;
      const wait = abortOrDelay(signal);
      this.line.push(wait.cancel);
      await wait.done;
      const mine = this.line.indexOf(wait.cancel);
      if (mine >= 0) this.line.splice(mine, 1);
    }
    if (signal.aborted) return undefined;
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.line.shift()?.();
    };
  }
}
