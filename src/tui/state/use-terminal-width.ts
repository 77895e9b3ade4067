import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** The terminal's width, following resizes. Never below 40 so layouts keep their shape. */
export function useTerminalWidth(): number {
  const { stdout } = useStdout();
  const [width, setWidth] = useState(() => Math.max(40, stdout.columns || 80));
  useEffect(() => {
    const onResize = () => setWidth(Math.max(40, stdout.columns || 80));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return width;
}
