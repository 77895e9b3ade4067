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
