/**
 * One-line text fields (an archive reason, a search, a picker filter, the "tell seek" answer, a
 * server's form, a rule, an API key) get keys from Ink's useInput, which hands over a whole read at
 * once. Keys typed faster than the process reads them (tmux, a busy CPU) share one read:
 * - text and Enter (`"some reason\r"`): the Enter must submit, not become part of the text;
 * - Backspaces and text (`"\x7f\x7f7"`): each Backspace deletes one character, then `7` is typed
 *   (dropping the controls as noise turned "42", Backspace twice, "7" into "427");
 * - a chunk with line breaks inside and no editing keys is a paste: its breaks become spaces.
 */
export function typedLine(input: string): { text: string; submit: boolean } {
  const cleaned = withoutPasteMarkers(input);
  const submit = cleaned.length > 1 && cleaned.endsWith('\r') && !/[\r\n]/.test(cleaned.slice(0, -1));
  const body = submit ? cleaned.slice(0, -1) : cleaned;
  return { text: body.replace(/\r?\n|\r/g, ' ').replace(/[\u0000-\u001f\u007f]/g, ''), submit };
}

/** The keys of Ink's `Key` a one-line field reads. */
export interface LineKey {
  return?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
}

/**
 * One read applied to a one-line field's text; `submit`: the read ended the line with Enter (keys
 * after that Enter in the same read are dropped: see `burstKeys` to hand them on).
 * Ctrl+U clears, Ctrl+W deletes the word before the end; other Ctrl/Alt keys change nothing.
 */
export function editLine(text: string, input: string, key: LineKey): { text: string; submit: boolean } {
  if (key.return && !key.meta) return { text, submit: true };
  if (key.backspace || key.delete) return { text: dropLast(text), submit: false };
  if (key.ctrl) return { text: input === 'u' ? '' : input === 'w' ? dropWord(text) : text, submit: false };
  if (key.meta || !input) return { text, submit: false };
  const burst = burstKeys(input);
  if (burst) {
    let edited = text;
    for (const one of burst) {
      const result = editLine(edited, one.input, one.key);
      if (result.submit) return result;
      edited = result.text;
    }
    return { text: edited, submit: false };
  }
  const typed = typedLine(input);
  return { text: text + typed.text, submit: typed.submit };
}

/**
 * A read holding editing keys (Backspace, Ctrl+H/U/W) or only Enters is keys typed in a burst,
 * never a paste: its keys one by one, as Ink reports a key read alone (runs of text as one typed
 * input). Undefined for any other read (one key, typed text, a paste).
 */
export function burstKeys(input: string): Array<{ input: string; key: LineKey }> | undefined {
  const cleaned = withoutPasteMarkers(input);
  if (cleaned.length < 2 || cleaned.includes('\u001b')) return undefined;
  if (!/[\u007f\b\u0015\u0017]/.test(cleaned) && !/^\r+$/.test(cleaned)) return undefined;
  const keys: Array<{ input: string; key: LineKey }> = [];
  let run = '';
  for (const character of cleaned) {
    if (!/[\u0000-\u001f\u007f-\u009f]/.test(character)) {
      run += character;
      continue;
    }
    if (run) keys.push({ input: run, key: {} });
    run = '';
    const key = CONTROL_KEYS[character];
    if (key) keys.push(key);
  }
  if (run) keys.push({ input: run, key: {} });
  return keys;
}

const CONTROL_KEYS: Record<string, { input: string; key: LineKey }> = {
  '\r': { input: '\r', key: { return: true } },
  '\u007f': { input: '', key: { delete: true } },
  '\b': { input: '', key: { backspace: true } },
  '\u0015': { input: 'u', key: { ctrl: true } },
  '\u0017': { input: 'w', key: { ctrl: true } },
};

function withoutPasteMarkers(input: string): string {
  return input.replace(/\u001b?\[20[01]~/g, '');
}

function dropLast(text: string): string {
  return [...text].slice(0, -1).join('');
}

/** Ctrl+W as shells do it: the word before the end and the spaces after it. */
function dropWord(text: string): string {
  return text.replace(/\S*\s*$/, '');
}
