/**
 * Waiting for a free child slot (callers that queue instead of failing with too_many_subagents).
 * Waiters are woken in arrival order whenever a child ends; each re-checks the limit itself, since
 * a caller that does not wait may have taken the slot in between.
 *
 * One abort listener per signal, not per waiter: a plan of 20 tasks on 4 slots queues 16 waiters
 * on the same turn's signal, and 11 listeners on one signal make Node print a leak warning.
 */
interface Waiter {
  wake: () => void;
  signal: AbortSignal;
}

export class SlotQueue {
  private readonly waiters: Waiter[] = [];
  private readonly watched = new Set<AbortSignal>();

  /** Resolves once `free()` holds, or when `signal` aborts (the caller then sees it aborted). */
  async wait(free: () => boolean, signal: AbortSignal): Promise<void> {
    while (!free() && !signal.aborted) {
      await new Promise<void>((resolve) => {
        this.waiters.push({ wake: resolve, signal });
        this.watch(signal);
      });
    }
  }

  /** A slot was freed: wake the longest waiter. */
  released(): void {
    this.waiters.shift()?.wake();
  }

  /** How many callers wait (tests). */
  get waiting(): number {
    return this.waiters.length;
  }

  private watch(signal: AbortSignal): void {
    if (this.watched.has(signal)) return;
    this.watched.add(signal);
    signal.addEventListener(
      'abort',
      () => {
        this.watched.delete(signal);
        const aborted = this.waiters.filter((waiter) => waiter.signal === signal);
        for (const waiter of aborted) this.waiters.splice(this.waiters.indexOf(waiter), 1);
        for (const waiter of aborted) waiter.wake();
      },
      { once: true },
    );
  }
}
