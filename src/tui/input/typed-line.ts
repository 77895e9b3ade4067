/** The keys of Ink's `Key` a one-line field reads, and `paste` (see use-line-input.ts). */
export interface LineKey {
  return?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  /** `input` is the whole text of one bracketed paste, not a key. */
  paste?: boolean;
}

/**
 * One key (or one paste) applied to a one-line field's text (an archive reason, a search, a picker
 * filter, the "tell seek" answer, a server's form, a rule, an API key). `useLineInput` hands over
 * a read's keys one by one and a paste as one text, so nothing here guesses:
 * - a paste is added with its line breaks (and tabs) as spaces and never submits;
 * - Enter submits; Backspace (and Delete: a one-line field has its cursor at the end) drops the
 *   last character; Ctrl+U clears, Ctrl+W deletes the word before the end; other Ctrl/Alt keys
 *   change nothing;
 * - typed text is added without control characters.
 */
export function editLine(text: string, input: string, key: LineKey): { text: string; submit: boolean } {
  if (key.paste) return { text: text + pastedLine(input), submit: false };
  if (key.return && !key.meta) return { text, submit: true };
  if (key.backspace || key.delete) return { text: dropLast(text), submit: false };
  if (key.ctrl) return { text: input === 'u' ? '' : input === 'w' ? dropWord(text) : text, submit: false };
  if (key.meta || !input) return { text, submit: false };
  return { text: text + withoutControls(input), submit: false };
}

/** Pasted text as one line: each line break (CRLF, CR or LF) and tab a space, no other controls. */
export function pastedLine(text: string): string {
  return withoutControls(text.replace(/\r\n|\r|\n|\t/g, ' '));
}

function withoutControls(text: string): string {
  return text.replace(/\u001b\[[\d;:?<>]*[ -/]*[@-~]|[\u0000-\u001f\u007f-\u009f]/g, '');
}

function dropLast(text: string): string {
  return [...text].slice(0, -1).join('');
}

/** Ctrl+W as shells do it: the word before the end and the spaces after it. */
function dropWord(text: string): string {
  return text.replace(/\S*\s*$/, '');
}
