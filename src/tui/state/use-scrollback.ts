import { useCallback, useContext, useMemo, useRef, useState } from 'react';
import { TerminalCursorContext } from '../terminal-cursor.js';
import type { ConversationItem } from '../types.js';

export interface Scrollback {
  /** What <Static> prints: append-only, so every item reaches the scrollback once and nothing
   * printed is ever printed again, cleared or rewritten. Frozen while a full-screen view is open
   * (items finished meanwhile are printed when it closes, on the main screen). */
  printed: readonly ConversationItem[];
  /** Everything printed so far, with the current conversation's finished items: the transcript. */
  all: readonly ConversationItem[];
  /**
   * A new conversation (/clear, /resume, a rewound one) goes on below what is printed: `marker`
   * says what happened, then `items` (a resumed session's history) are printed after it. The
   * caller resets the conversation itself in the same handler.
   */
  startAfter: (marker: ConversationItem, items: readonly ConversationItem[]) => void;
  /** The full-screen transcript (Ctrl+O) is open: it is drawn on the alternate screen. */
  fullScreen: boolean;
  setFullScreen: (open: boolean) => void;
  /**
   * A view (`holder`: a picker, a panel) opens or closes on the alternate screen. The terminal is
   * there while any view holds it, and the main screen and its scrollback are left exactly as
   * they were. Call in the same handler as the state change that renders the view.
   */
  hold: (holder: string, open: boolean) => void;
}

/** The scrollback as seek prints it (see `Scrollback`); `committed` is the current conversation's. */
export function useScrollback(committed: readonly ConversationItem[]): Scrollback {
  const cursor = useContext(TerminalCursorContext);
  const [earlier, setEarlier] = useState<readonly ConversationItem[]>([]);
  const [fullScreen, setFullScreenState] = useState(false);
  const holders = useRef(new Set<string>());
  const [alternate, setAlternate] = useState(false);
  const committedRef = useRef(committed);
  committedRef.current = committed;
  const all = useMemo(() => (earlier.length === 0 ? committed : [...earlier, ...committed]), [earlier, committed]);
  const frozen = useRef<readonly ConversationItem[] | undefined>(undefined);
  if (alternate) frozen.current ??= all;
  else frozen.current = undefined;

  const startAfter = useCallback((marker: ConversationItem, items: readonly ConversationItem[]) => {
    const done = committedRef.current;
    setEarlier((before) => [...before, ...done, marker, ...items]);
  }, []);
  const hold = useCallback(
    (holder: string, open: boolean) => {
      const views = holders.current;
      const before = views.size > 0;
      if (open) views.add(holder);
      else views.delete(holder);
      // The switch happens at Ink's next frame, which is the one this state change renders.
      if (views.size > 0 && !before) cursor?.enterAlternateScreen();
      if (views.size === 0 && before) cursor?.leaveAlternateScreen();
      setAlternate(views.size > 0);
    },
    [cursor],
  );
  const setFullScreen = useCallback(
    (open: boolean) => {
      hold('transcript', open);
      setFullScreenState(open);
    },
    [hold],
  );
  return { printed: frozen.current ?? all, all, startAfter, fullScreen, setFullScreen, hold };
}
