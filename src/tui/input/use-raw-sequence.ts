import { useStdin } from 'ink';
import { useEffect, useRef } from 'react';

/**
 * The raw sequence behind the key `useInput` is about to report. Ink hides it, and it is the
 * only way to tell the Backspace key (DEL) from the Delete key (ESC[3~), a paste marker from
 * typed text, or a read of several keys from one. Ink emits every parsed sequence on its internal
 * input emitter and `useInput` listens there too; this listener is registered first (call this
 * hook before `useLatestInput`: effects run in declaration order and it never re-subscribes), so
 * it always runs just before the `useInput` handler. Without the emitter the ref stays empty.
 */
export function useRawSequence(): { current: string | undefined } {
  const { internal_eventEmitter: emitter } = useStdin();
  const raw = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!emitter) return;
    const record = (sequence: unknown): void => {
      raw.current = typeof sequence === 'string' ? sequence : undefined;
    };
    emitter.on('input', record);
    return () => {
      emitter.off('input', record);
    };
  }, [emitter]);
  return raw;
}
