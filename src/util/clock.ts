/**
 * Milliseconds on a monotonic clock, for durations and idle timers. `performance.now()` would do
 * the same, but the first touch of the `performance` global loads perf_hooks and eight internal
 * modules, about 1 ms of every start (bench/say-hello); process.hrtime needs nothing loaded.
 */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1000 + nanoseconds / 1e6;
}
