import { useLatestInput } from './use-latest-input.js';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { AskAnswer } from '../../policy/tool-gate.js';

/** How long a first Ctrl+C on an empty prompt stays armed (and its hint shown). */
export const EXIT_ARM_MS = 2000;

export interface ExitArming {
  /** "press ctrl+c again to exit" shows. */
  hint: boolean;
  /** A first Ctrl+C arms (and shows the hint); a second within EXIT_ARM_MS calls `exit`. */
  armOrExit: () => void;
  disarm: () => void;
  /** Armed now (read at once, not from the last render). */
  armed: () => boolean;
}

/** The two-press Ctrl+C exit: armed by the first press, disarmed by any other key or after EXIT_ARM_MS. */
export function useExitArming(exit: () => void): ExitArming {
  // When Ctrl+C was first pressed (0: not armed); a ref, because two presses may arrive in one
  // read and be handled before React re-renders.
  const armedAt = useRef(0);
  const [hint, setHint] = useState(false);
  const disarm = useCallback(() => {
    armedAt.current = 0;
    setHint(false);
  }, []);
  const armOrExit = useCallback(() => {
    if (armedAt.current !== 0 && Date.now() - armedAt.current < EXIT_ARM_MS) return exit();
    armedAt.current = Date.now();
    setHint(true);
  }, [exit]);
  useEffect(() => {
    if (!hint) return;
    const timer = setTimeout(disarm, EXIT_ARM_MS);
    return () => clearTimeout(timer);
  }, [hint, disarm]);
  const armed = useCallback(() => armedAt.current !== 0, []);
  return { hint, armOrExit, disarm, armed };
}

export interface GlobalKeys {
  /** The open permission question: Ctrl+C denies it, closes it at once and cancels the turn. */
  permission: { resolve: (answer: AskAnswer) => void } | undefined;
  closePermission: () => void;
  /** A question (permission or plan review) owns the keyboard: Shift+Tab and Ctrl+T wait. */
  questionOpen: boolean;
  /** The input editor is shown: it owns Ctrl+C (it clears a draft first). */
  editorShown: boolean;
  pickerOpen: boolean;
  closePicker: () => void;
  /** Cancels the running turn or busy task; false when nothing runs. */
  cancelRun: () => boolean;
  exitArming: ExitArming;
  /** Shift+Tab. */
  cycleMode: () => void;
  /** Ctrl+T: opens the latest tool row's whole output, or closes it. */
  toggleToolOutput: () => void;
  /** Ctrl+O: the transcript in detail or not. */
  toggleDetail: () => void;
}

/** The App's keys that work whatever has the keyboard: Ctrl+C, Shift+Tab, Ctrl+T, Ctrl+O, and Esc
 * for an open picker. */
export function useGlobalKeys(keys: GlobalKeys): void {
  useLatestInput((input, key) => {
    if (key.ctrl && input === 'c') {
      if (keys.permission) {
        // Denied, and the box goes at once: the next key belongs to the input again. The turn is
        // cancelled after the gate took the "no" (so the row says declined, not "not answered").
        keys.permission.resolve({ decline: 'stop' });
        keys.closePermission();
        setImmediate(keys.cancelRun);
        return;
      }
      if (keys.editorShown) return;
      if (keys.cancelRun()) return;
      return keys.exitArming.armOrExit();
    }
    // Any other key disarms (a read holding Ctrl+C, \x03, is a burst the editor handles).
    if (keys.exitArming.armed() && !input.includes('\u0003')) keys.exitArming.disarm();
    if (key.shift && key.tab && !keys.questionOpen) return keys.cycleMode();
    if (key.ctrl && input === 't' && !keys.questionOpen) return keys.toggleToolOutput();
    if (key.ctrl && input === 'o') return keys.toggleDetail();
    if (key.escape && keys.pickerOpen) keys.closePicker();
  });
}

/** How long a first Esc on an empty, idle prompt waits for the second that opens /rewind. */
export const DOUBLE_ESCAPE_MS = 1000;

export interface DoubleEscape {
  /** "press esc again to rewind" shows. */
  hint: boolean;
  /**
   * An Esc the editor handed on, after the App's interrupt gave `outcome` (false: nothing ran);
   * `empty`: the prompt is empty. Counts only when idle: nothing ran, or the run's loop has ended
   * and it is only saving the session. A first press arms, a second within DOUBLE_ESCAPE_MS calls
   * `open`. Returns `outcome`, for the editor.
   */
  press: (empty: boolean, outcome: boolean | string) => boolean | string;
}

/** Esc Esc on an empty prompt while idle. `run` is the App's current run (its AbortController). */
export function useDoubleEscape(session: { subscribe: (listener: (event: { type: string }) => void) => () => void }, run: RefObject<AbortController | undefined>, open: () => void): DoubleEscape {
  // Refs, as for Ctrl+C: two presses may arrive before React re-renders.
  const armedAt = useRef(0);
  const endedRun = useRef<AbortController | undefined>(undefined);
  const [hint, setHint] = useState(false);
  useEffect(() => session.subscribe((event) => void (event.type === 'loop_end' && (endedRun.current = run.current))), [session, run]);
  const press = useCallback(
    (empty: boolean, outcome: boolean | string) => {
      const idle = outcome === false || (run.current !== undefined && run.current === endedRun.current);
      if (!idle) return outcome;
      const again = empty && armedAt.current !== 0 && Date.now() - armedAt.current < DOUBLE_ESCAPE_MS;
      armedAt.current = empty && !again ? Date.now() : 0;
      setHint(empty && !again);
      if (again) open();
      return outcome;
    },
    [open, run],
  );
  useEffect(() => {
    if (!hint) return;
    const timer = setTimeout(() => {
      armedAt.current = 0;
      setHint(false);
    }, DOUBLE_ESCAPE_MS);
    return () => clearTimeout(timer);
  }, [hint]);
  return { hint, press };
}
