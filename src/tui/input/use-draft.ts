import { useCallback, useRef, useState } from 'react';
import { hasPlaceholder } from './paste.js';

/**
 * The input's text across the times the editor is not shown. A picker, a panel or a question
 * takes the editor's place, and the editor is mounted afresh when it closes: it starts with the
 * text it had when it went (a draft the user cleared stays cleared), not with the draft a command
 * once put there. A text holding a paste placeholder is not carried over (the paste lived in the
 * editor that took it; the placeholder alone would be sent literally).
 */
export interface Draft {
  /** The editor's key: a new draft from a command mounts a new editor with it. */
  key: number;
  /** The text a newly mounted editor starts with. */
  initialText: string | undefined;
  /** Give to the editor's onChange. */
  onChange: (text: string) => void;
  /** Puts a command's text into the input (the prompt of a rewound turn). */
  put: (text: string) => void;
  /** The input was sent: nothing to carry over. */
  clear: () => void;
}

export function useDraft(): Draft {
  const [key, setKey] = useState(0);
  const latest = useRef<string | undefined>(undefined);
  const put = useCallback((text: string) => {
    latest.current = text;
    setKey((old) => old + 1);
  }, []);
  const clear = useCallback(() => {
    latest.current = undefined;
  }, []);
  const onChange = useCallback((text: string) => {
    latest.current = text;
  }, []);
  const text = latest.current;
  return { key, initialText: text && !hasPlaceholder(text) ? text : undefined, onChange, put, clear };
}
