import { useCallback, useRef, useState } from 'react';
import type { Scrollback } from './use-scrollback.js';

/**
 * A view's state (an open picker or panel) whose view is drawn on the alternate screen while it
 * is set: opening it leaves the main screen and its scrollback as they are, closing it comes back
 * to them untouched (as the Ctrl+O transcript does); a value `fullScreen` declines is drawn in the
 * live area of the main screen instead. The setter takes the next value or an updater of the
 * current one (kept in a ref: the screen switch is decided in the same call).
 */
type Next<T> = T | undefined | ((current: T | undefined) => T | undefined);

const EVERY = () => true;

export function useAlternateView<T>(
  scrollback: Pick<Scrollback, 'hold'>,
  holder: string,
  /** Which values are drawn there (all when absent); the others stay on the main screen. */
  fullScreen: (value: T) => boolean = EVERY,
): [T | undefined, (next: Next<T>) => void] {
  const [value, setValue] = useState<T>();
  const current = useRef<T | undefined>(undefined);
  const { hold } = scrollback;
  const set = useCallback(
    (next: Next<T>) => {
      const value = typeof next === 'function' ? (next as (current: T | undefined) => T | undefined)(current.current) : next;
      current.current = value;
      hold(holder, value !== undefined && fullScreen(value));
      setValue(value);
    },
    [hold, holder, fullScreen],
  );
  return [value, set];
}
