/**
 * Abort helpers that leave nothing behind on a long-lived signal. A listener added to a session's
 * (or a run's) signal for one call must be removed when that call ends, not only when the signal
 * aborts (`{ once: true }` does only the latter): otherwise every call leaves one more listener, and
 * what it closes over, until the session ends.
 */

export interface LinkedAbort {
  /** Aborts when the parent does, or when the time limit passes. */
  signal: AbortSignal;
  /** Whether the time limit (not the parent) ended it. */
  timedOut(): boolean;
  /** Removes the listener on the parent and clears the timer; call it when the work is done. */
  dispose(): void;
}

/** A signal that follows `parent` and also aborts after `ms` (none when undefined). */
export function linkedAbort(parent: AbortSignal, ms?: number): LinkedAbort {
  const controller = new AbortController();
  let expired = false;
  const onAbort = (): void => controller.abort(parent.reason);
  const timer =
    ms === undefined
      ? undefined
      : setTimeout(() => {
          expired = true;
          controller.abort(new Error(`time limit of ${ms} ms passed`));
        }, ms);
  timer?.unref?.();
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    },
  };
}

/** Resolves when `signal` aborts or `ms` passes (none when undefined), whichever is first, or when
 * `cancel` is called; the listener and the timer go with it in every case. */
export function abortOrDelay(signal: AbortSignal, ms?: number): { done: Promise<void>; cancel(): void } {
  let cancel: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const timer = ms === undefined ? undefined : setTimeout(finish, ms);
    cancel = finish;
    if (signal.aborted) finish();
    else signal.addEventListener('abort', finish, { once: true });
  });
  return { done, cancel };
}
