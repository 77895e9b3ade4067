import type { Key } from 'ink';

/** Ink's `Key` with every flag off. */
export const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/** One key as a handler receives it. */
export interface ReadKey {
  input: string;
  key: Key;
}

/**
 * The keys of one read, as Ink's `useInput` reports each key read alone. Ink's parser cuts a read
 * at escape sequences but hands over a run without ESC as one event: keys typed faster than the
 * process reads them (tmux, a busy CPU) arrive together, `"\r" + "ann@example.com" + "\r"` or
 * `"\x7f\x7f7\r"`. Such a run is split into its characters: `\r` is Enter, DEL and Ctrl+H are
 * Backspace, Tab is Tab, Ctrl+letter is that letter with `ctrl`; printable characters are typed
 * one each. A read of one character, or an escape sequence, is Ink's report unchanged.
 * `raw`: the sequence Ink parsed (see use-raw-sequence.ts); undefined when it could not be
 * observed, then rebuilt from what Ink reported.
 */
export function keysOfRead(input: string, key: Key, raw: string | undefined): ReadKey[] {
  const sequence = raw ?? rebuiltSequence(input, key);
  if (sequence.startsWith('\u001b') || [...sequence].length <= 1) return [{ input, key }];
  return [...sequence].map(keyOfCharacter);
}

/** What Ink reports for one character read alone (parse-keypress.js and use-input.js, 6.8). */
export function keyOfCharacter(character: string): ReadKey {
  switch (character) {
    case '\r':
      return { input: '', key: { ...NO_KEY, return: true } };
    case '\t':
      return { input: '', key: { ...NO_KEY, tab: true } };
    case '\u007f':
      return { input: '', key: { ...NO_KEY, delete: true } };
    case '\b':
      return { input: '', key: { ...NO_KEY, backspace: true } };
    case '\n':
      return { input: '', key: NO_KEY }; // Ink names LF "enter" and reports no flag for it
    default:
      break;
  }
  const code = character.codePointAt(0) ?? 0;
  if (code >= 1 && code <= 26) return { input: String.fromCharCode(code + 96), key: { ...NO_KEY, ctrl: true } };
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return { input: '', key: NO_KEY };
  return { input: character, key: { ...NO_KEY, shift: /^[A-Z]$/.test(character) } };
}

/** The sequence behind Ink's report, when the raw one is unknown: a run of text as it came. */
function rebuiltSequence(input: string, key: Key): string {
  if (key.return) return '\r';
  if (key.tab) return '\t';
  if (key.escape || key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return '\u001b';
  if (key.backspace || key.delete || key.ctrl) return '';
  return input;
}
