import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** Rows assumed when the terminal does not say (a pipe, a test stream without `rows`). */
export const DEFAULT_ROWS = 24;

/** The terminal's height, following resizes. Never below 10 so budgets keep their shape. */
export function useTerminalRows(): number {
  const { stdout } = useStdout();
  const [rows, setRows] = useState(() => Math.max(10, stdout.rows || DEFAULT_ROWS));
  useEffect(() => {
    const onResize = () => setRows(Math.max(10, stdout.rows || DEFAULT_ROWS));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return rows;
}
