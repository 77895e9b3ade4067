import type { Key } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { keysOfRead, NO_KEY } from './line-keys.js';
import { PasteCollector } from './paste.js';
import { useLatestInput } from './use-latest-input.js';
import { useRawSequence } from './use-raw-sequence.js';

/** Ink's `Key`, and whether `input` is a whole paste rather than a key. */
export type LineInputKey = Key & { paste: boolean };

const START = '\u001b[200~';
const END = '\u001b[201~';

/**
 * Keys for the terminal UI's one-line fields and the panels that hold them (a picker's filter, a
 * server's form, the setup key, memory's reason and search, a rule's text, "tell seek"): the
 * handler gets every key one by one and every paste as one text, never a guess between them.
 * - The terminal UI turns bracketed paste on (paste.ts), so a paste comes as ESC[200~, its text,
 *   ESC[201~, which Ink's parser cuts into three events (a long paste's text maybe into more).
 *   Between the markers everything is pasted text, gathered and handed over once, at the end
 *   marker, with `key.paste`: `editLine` makes its line breaks spaces; it never submits. An end
 *   marker that never comes closes the paste after 2 s (PasteCollector).
 * - Any other read is keys: a read holding several (typed faster than the process reads them) is
 *   handed over key by key, as if each had been read alone (`keysOfRead`): `"\rann@example.com\r"`
 *   is Enter, fifteen characters, Enter.
 * The handler is the latest render's (useLatestInput); keys of one read all reach the same one,
 * so a handler keeps what a key changes in refs that the next key of the read can see.
 */
export function useLineInput(handler: (input: string, key: LineInputKey) => void, options?: { isActive?: boolean }): void {
  const latest = useRef(handler);
  latest.current = handler;
  const [paste] = useState(() => new PasteCollector((text) => latest.current(text, { ...NO_KEY, paste: true })));
  useEffect(() => () => paste.dispose(), [paste]);
  const rawSequence = useRawSequence(); // before useLatestInput: its listener must run first
  useLatestInput((input, key) => {
    const raw = rawSequence.current;
    rawSequence.current = undefined;
    if (key.eventType === 'release') return;
    if (isMarker(raw, input, START)) return paste.beginBracketed();
    if (isMarker(raw, input, END)) return paste.finish();
    if (paste.active) {
      const text = raw ?? (key.return ? '\r' : key.tab ? '\t' : input);
      if (!text.startsWith('\u001b')) paste.push(text); // cursor keys and stray sequences carry no text
      return;
    }
    for (const one of keysOfRead(input, key, raw)) latest.current(one.input, { ...one.key, paste: false });
  }, options);
}

function isMarker(raw: string | undefined, input: string, marker: string): boolean {
  return raw !== undefined ? raw === marker : input === marker.slice(1);
}
