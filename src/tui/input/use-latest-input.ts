import { useInput, type Key } from 'ink';
import { useCallback, useRef } from 'react';

/**
 * Ink's `useInput`, always answered by the handler of the latest render. Ink attaches a render's
 * handler in an effect, which runs after that render's frame is drawn: a key read in the gap went
 * to the previous render's handler, which acted on what the screen no longer showed (Enter picked
 * the row the cursor had just left: the rewind picker restored code and conversation where the
 * screen said "show the diff first"). Here the handler is kept in a ref written during render, and
 * one stable listener, attached once, calls it. Every key handler in the terminal UI goes through
 * this hook (eslint.config.js forbids Ink's own elsewhere).
 */
export function useLatestInput(handler: (input: string, key: Key) => void, options?: { isActive?: boolean }): void {
  const latest = useRef(handler);
  latest.current = handler;
  const stable = useCallback((input: string, key: Key) => latest.current(input, key), []);
  useInput(stable, options);
}
