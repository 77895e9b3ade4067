/**
 * A value built on first use, then kept: `const schema = lazy(() => z.object({...}))` defers the
 * construction out of module initialisation (the start path) to the first call of `schema()`.
 * The builder runs at most once per successful build; one that throws is tried again next call.
 */
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}

/** The same for a value built asynchronously: the promise is kept, so concurrent first calls share
 * one build; a build that rejects is forgotten, and the next call tries again. */
export function lazyAsync<T>(build: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= build().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
}
