import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** Rows assumed when the terminal does not say (a pipe, a test stream without `rows`). */
export const DEFAULT_ROWS = 24;

/** Where a stream from `withUnlimitedRows` keeps the terminal's real height. */
const REAL_ROWS = Symbol('seek.realRows');

/**
 * The terminal's output stream as Ink is given it: the same stream, except that its height reads
 * as unlimited. Ink clears the whole terminal, scrollback included, whenever its live area was as
 * tall as the screen, and a terminal made shorter makes the last frame "as tall" after the fact;
 * with no height to compare against, Ink never does. The App keeps its live area shorter than the
 * real height itself (state/live-layout.ts), reading it with `terminalRows`.
 */
export function withUnlimitedRows(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'rows') return Number.MAX_SAFE_INTEGER;
      if (property === REAL_ROWS) return target.rows;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The real height of the terminal behind `stream` (see `withUnlimitedRows`); DEFAULT_ROWS when
 * unknown, and never below 10 so budgets keep their shape. */
export function terminalRows(stream: NodeJS.WriteStream): number {
  const rows = (stream as NodeJS.WriteStream & { [REAL_ROWS]?: number })[REAL_ROWS] ?? stream.rows;
  return Math.max(10, rows || DEFAULT_ROWS);
}

/** The terminal's height, following resizes. */
export function useTerminalRows(): number {
  const { stdout } = useStdout();
  const [rows, setRows] = useState(() => terminalRows(stdout));
  useEffect(() => {
    const onResize = () => setRows(terminalRows(stdout));
    // Before Ink's own resize handler, which redraws at once: the live area is sized for the new
    // height as early as possible.
    stdout.prependListener('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return rows;
}
