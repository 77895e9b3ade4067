/**
 * Waiting for a free child slot (callers that queue instead of failing with too_many_subagents).
 * Waiters are woken in arrival order whenever a child ends; each re-checks the limit itself, since
 * a caller that does not wait may have taken the slot in between.
 */
export class SlotQueue {
  private readonly waiters: Array<() => void> = [];

  /** Resolves once `free()` holds, or when `signal` aborts (the caller then sees it aborted). */
  async wait(free: () => boolean, signal: AbortSignal): Promise<void> {
    while (!free() && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          const index = this.waiters.indexOf(wake);
          if (index >= 0) this.waiters.splice(index, 1);
          resolve();
        };
        this.waiters.push(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
  }

  /** A slot was freed: wake the longest waiter. */
  released(): void {
    this.waiters.shift()?.();
  }
}
