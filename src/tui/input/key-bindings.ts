/**
 * Translates what Ink 6.8's `useInput` reports into editor actions. Pure, so the table can be
 * tested against the exact sequences terminals send.
 *
 * What Ink's parser (parse-keypress.js) makes of the keys that matter here:
 * - Enter sends CR: `key.return`. Shift+Enter sends the same CR in nearly every terminal, so it
 *   cannot be told apart, except under the kitty keyboard protocol (Ink's `kittyKeyboard` render
 *   option: kitty, WezTerm, foot, Ghostty, recent iTerm2), where it arrives as `key.return` with
 *   `key.shift`, or under xterm's modifyOtherKeys (ESC[27;2;13~, which Ink does not parse; we
 *   recognise it from the raw sequence).
 * - Alt/Option+Enter sends ESC CR: `key.return` with `key.meta`. Delivered by xterm, GNOME
 *   Terminal/VTE, Konsole, Alacritty, kitty, WezTerm, Windows Terminal, iTerm2 (Option as Esc+)
 *   and Terminal.app ("Use Option as Meta key"); some IDE terminals keep Alt+Enter for themselves.
 * - Ctrl+J sends LF: `input === '\n'` without `key.return`. Works in every terminal (it is plain
 *   ASCII), which makes it the dependable newline key; tmux and screen pass it through too.
 * - A backslash before the cursor + Enter is handled by the editor, not here: it needs the text.
 * - The Backspace key sends DEL (0x7f), which Ink reports as `key.delete`; the Delete key sends
 *   ESC[3~, also `key.delete`. Only the raw sequence tells them apart, so the editor passes it in
 *   (`raw`); without it every `key.delete` is taken for Backspace, the key users press far more.
 *   Ctrl+H (0x08) is `key.backspace`.
 * - Escape alone: `key.escape` (Ink waits one tick to tell it from the start of a sequence).
 * - Arrows, Home/End (ESC[H/ESC[F, ESC[1~/ESC[4~, ESCOH/ESCOF): `key.upArrow` … `key.home`.
 *   Ctrl+←/→ (ESC[1;5D) come with `key.ctrl`, Alt+←/→ (ESC[1;3D, or ESC ESC[D) with `key.meta`;
 *   macOS terminals send Option+←/→ as ESC b / ESC f, which arrive as `b`/`f` with `key.meta`.
 * - Shift+Tab (ESC[Z): `key.tab` with `key.shift`; the App uses it, so the editor ignores it.
 * - Ctrl+letter arrives as the letter with `key.ctrl` (Ctrl+A/E/K/U/W/D below). Ctrl+C is the
 *   editor's `interrupt`: it clears a draft, and only an empty prompt hands it on (cancel / exit).
 * - Keys pressed faster than the process reads them arrive as one chunk, and Ink reports a chunk
 *   without ESC as one `input`: three Backspaces are `\x7f\x7f\x7f`, typing then Ctrl+U is
 *   `abc\x15`. A chunk holding such control characters is a burst of keys, never a paste (pasted
 *   text carries no DEL or Ctrl+letter; line breaks and tabs are the only controls in it), and is
 *   replayed key by key (`keys`), so no edit is ever dropped.
 */
import type { Key } from 'ink';

export type EditorAction =
  | { type: 'insert'; text: string }
  /** A multi-character chunk: a paste (or typing that piled up while the process was busy). */
  | { type: 'paste'; text: string }
  /** Keys that arrived together in one read (see above), in order; `text` is the raw chunk. */
  | { type: 'keys'; text: string; actions: EditorAction[] }
  | { type: 'pasteStart' }
  | { type: 'pasteEnd' }
  | { type: 'enter' }
  | { type: 'newline' }
  | { type: 'tab' }
  | { type: 'escape' }
  /** Ctrl+C. */
  | { type: 'interrupt' }
  /** Ctrl+V: attach the clipboard's image (terminals paste text themselves). */
  | { type: 'pasteImage' }
  | { type: 'up' }
  | { type: 'down' }
  | {
      type:
        | 'backspace'
        | 'delete'
        | 'deleteWordBackward'
        | 'deleteWordForward'
        | 'killToLineEnd'
        | 'killToLineStart'
        | 'left'
        | 'right'
        | 'wordLeft'
        | 'wordRight'
        | 'lineStart'
        | 'lineEnd'
        | 'bufferStart'
        | 'bufferEnd';
    }
  | { type: 'ignore' };

const IGNORE: EditorAction = { type: 'ignore' };

/** Ctrl+letter bindings (readline/emacs). Ctrl+C, Ctrl+O and the rest belong to the App. */
const CTRL_BINDINGS: Readonly<Record<string, EditorAction>> = {
  a: { type: 'lineStart' },
  e: { type: 'lineEnd' },
  b: { type: 'left' },
  f: { type: 'right' },
  k: { type: 'killToLineEnd' },
  u: { type: 'killToLineStart' },
  w: { type: 'deleteWordBackward' },
  d: { type: 'delete' },
  h: { type: 'backspace' },
  j: { type: 'newline' },
  c: { type: 'interrupt' },
  v: { type: 'pasteImage' },
};

/** Alt+letter bindings (readline): word motions as macOS terminals send Option+←/→. */
const META_BINDINGS: Readonly<Record<string, EditorAction>> = {
  b: { type: 'wordLeft' },
  f: { type: 'wordRight' },
  d: { type: 'deleteWordForward' },
};

/** xterm modifyOtherKeys form of a modified Enter: ESC[27;<modifier>;13~. */
const MODIFIED_ENTER = /^\u001b\[27;\d+;13~$/;

/**
 * The action for one `useInput` call. `raw` is the sequence Ink parsed, when the editor could
 * observe it; it refines Backspace/Delete and lets unknown escape sequences be dropped instead
 * of typed.
 */
export function actionForKey(input: string, key: Key, raw?: string): EditorAction {
  if (key.eventType === 'release') return IGNORE;
  if (isPasteMarker(input, raw, '200~')) return { type: 'pasteStart' };
  if (isPasteMarker(input, raw, '201~')) return { type: 'pasteEnd' };
  if (raw !== undefined && MODIFIED_ENTER.test(raw)) return { type: 'newline' };

  if (key.return) return key.meta || key.shift ? { type: 'newline' } : { type: 'enter' };
  if (input === '\n') return { type: 'newline' };
  if (key.escape) return { type: 'escape' };
  if (key.tab) return key.shift || key.ctrl ? IGNORE : { type: 'tab' };

  const word = key.meta || key.ctrl;
  if (key.backspace) return { type: word ? 'deleteWordBackward' : 'backspace' };
  if (key.delete) {
    const forward = raw !== undefined && raw.startsWith('\u001b[3');
    if (forward) return { type: word ? 'deleteWordForward' : 'delete' };
    return { type: word ? 'deleteWordBackward' : 'backspace' };
  }
  if (key.leftArrow) return { type: word ? 'wordLeft' : 'left' };
  if (key.rightArrow) return { type: word ? 'wordRight' : 'right' };
  if (key.upArrow) return { type: 'up' };
  if (key.downArrow) return { type: 'down' };
  if (key.home) return { type: key.ctrl ? 'bufferStart' : 'lineStart' };
  if (key.end) return { type: key.ctrl ? 'bufferEnd' : 'lineEnd' };
  if (key.pageUp || key.pageDown) return IGNORE;

  if (key.ctrl) return CTRL_BINDINGS[input] ?? IGNORE;
  if (key.meta || key.super || key.hyper) return META_BINDINGS[input] ?? IGNORE;
  if (input === '') return IGNORE;
  // An escape sequence Ink did not recognise (F-keys with modifiers, mouse reports…) arrives as
  // its text minus the ESC; never type it into the buffer. (A kitty-protocol key such as
  // ESC[97u arrives as its text, `a`, and is typed normally.)
  const unrecognised = raw !== undefined ? raw.startsWith('\u001b') && input === raw.slice(1) : /^\[[\d;:<>?]*[~A-Za-z]$/.test(input);
  if (unrecognised) return IGNORE;
  if (isSingleCharacter(input)) return { type: 'insert', text: input };
  if (KEY_CONTROL.test(input)) return { type: 'keys', text: input, actions: burstActions(input) };
  return { type: 'paste', text: input };
}

/** A control character that only a key sends (not Tab, LF or CR, which pasted text holds). */
const KEY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** What each control character of a burst means, as when it arrives alone. */
function controlAction(character: string): EditorAction {
  switch (character) {
    case '\u007f':
    case '\b':
      return { type: 'backspace' };
    case '\r':
      return { type: 'enter' };
    case '\n':
      return { type: 'newline' };
    case '\t':
      return { type: 'tab' };
    default: {
      const code = character.charCodeAt(0);
      const letter = code >= 1 && code <= 26 ? String.fromCharCode(code + 96) : '';
      return CTRL_BINDINGS[letter] ?? IGNORE;
    }
  }
}

/** The keys of a burst: runs of text are typed, each control character is its key. */
export function burstActions(text: string): EditorAction[] {
  const actions: EditorAction[] = [];
  let run = '';
  for (const character of text) {
    const code = character.charCodeAt(0);
    if (code >= 0x20 && code !== 0x7f) {
      run += character;
      continue;
    }
    if (run) actions.push({ type: 'insert', text: run });
    run = '';
    actions.push(controlAction(character));
  }
  if (run) actions.push({ type: 'insert', text: run });
  return actions;
}

function isPasteMarker(input: string, raw: string | undefined, marker: string): boolean {
  return raw !== undefined ? raw === `\u001b[${marker}` : input === `[${marker}`;
}

/** One code point: a typed key. An emoji typed from a picker may be several code points; it is
 * short and line-free, so taking it for a paste inserts it all the same. */
function isSingleCharacter(input: string): boolean {
  const first = input.codePointAt(0) ?? 0;
  return input.length === (first > 0xffff ? 2 : 1) && first >= 0x20;
}
