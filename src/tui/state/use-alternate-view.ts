import { useCallback, useState } from 'react';
import type { Scrollback } from './use-scrollback.js';

/**
 * A view's state (an open picker or panel) whose view is drawn on the alternate screen while it
 * is set: opening it leaves the main screen and its scrollback as they are, closing it comes back
 * to them untouched (as the Ctrl+O transcript does). The setter takes the next value, not an
 * updater: the screen switch is decided in the same call.
 */
export function useAlternateView<T>(scrollback: Pick<Scrollback, 'hold'>, holder: string): [T | undefined, (next: T | undefined) => void] {
  const [value, setValue] = useState<T>();
  const { hold } = scrollback;
  const set = useCallback(
    (next: T | undefined) => {
      hold(holder, next !== undefined);
      setValue(next);
    },
    [hold, holder],
  );
  return [value, set];
}
