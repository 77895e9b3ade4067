/**
 * Pasted text: telling a paste from typing, gathering a paste that arrives in several chunks, and
 * standing a large paste in for a short placeholder token that is expanded again on submit.
 *
 * Ink 6.8 has no bracketed-paste support (no `usePaste`; its parser does not treat ESC[200~ and
 * ESC[201~ specially). What it does guarantee is that text without escape characters arriving in
 * one stdin chunk reaches `useInput` as one multi-character `input`. Typing produces one character
 * per chunk, so a multi-character chunk is taken for a paste. A long paste may still be split
 * over several chunks (a pty hands over a few KB per read), so a paste stays open until no input
 * has arrived for `PASTE_SETTLE_MS`, and everything arriving meanwhile (including a chunk that is
 * a lone CR) is part of it. If the application turns bracketed paste on
 * (`ENABLE_BRACKETED_PASTE`), the markers reach `useInput` as `[200~` / `[201~` and delimit the
 * paste exactly.
 */

/** Written to the terminal to make it wrap pastes in ESC[200~ … ESC[201~ (and to stop that). */
export const ENABLE_BRACKETED_PASTE = '\u001b[?2004h';
export const DISABLE_BRACKETED_PASTE = '\u001b[?2004l';

/** Quiet time after which an unbracketed paste is considered complete. */
export const PASTE_SETTLE_MS = 30;
/** A bracketed paste whose end marker never comes is closed after this long. */
const BRACKETED_PASTE_TIMEOUT_MS = 2_000;

/** A paste of more than this many lines, or more than `PLACEHOLDER_MIN_CHARS` characters, is shown
 * as a placeholder token instead of its text. */
export const PLACEHOLDER_MIN_LINES = 10;
export const PLACEHOLDER_MIN_CHARS = 2_000;

export function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines += 1;
  return text.endsWith('\n') ? lines - 1 : lines;
}

export function needsPlaceholder(text: string): boolean {
  return text.length > PLACEHOLDER_MIN_CHARS || countLines(text) > PLACEHOLDER_MIN_LINES;
}

/** `[pasted text #1: 120 lines]`, or `[pasted text #2: 4312 chars]` for a few very long lines. */
export function placeholderToken(id: number, text: string): string {
  const lines = countLines(text);
  const size = lines > PLACEHOLDER_MIN_LINES ? `${lines} lines` : `${text.length} chars`;
  return `[pasted text #${id}: ${size}]`;
}

const TOKEN_PATTERN = /\[pasted text #(\d+): [^\]\n]*\]/g;

/** The text holds a placeholder token (its paste lives only in the editor that took it). */
export function hasPlaceholder(value: string): boolean {
  return /\[pasted text #\d+: [^\]\n]*\]/.test(value);
}

/** The text with each placeholder as the transcript shows a paste: `[pasted text: 120 lines]`. */
export function shownPlaceholders(value: string): string {
  return value.replace(TOKEN_PATTERN, (token) => token.replace(/ #\d+:/, ':'));
}

/**
 * `value` with every intact placeholder token replaced by the text it stands for. A token the
 * user has edited (or one typed by hand) no longer matches its paste and is sent as typed.
 */
export function expandPlaceholders(value: string, pastes: ReadonlyMap<number, string>): string {
  return value.replace(TOKEN_PATTERN, (token, id: string) => {
    const text = pastes.get(Number(id));
    return text !== undefined && placeholderToken(Number(id), text) === token ? text : token;
  });
}

/** The start of the intact placeholder token that ends exactly at `offset`, if any: Backspace
 * there deletes the whole token rather than breaking it. */
export function placeholderEndingAt(value: string, offset: number, pastes: ReadonlyMap<number, string>): number | null {
  if (value[offset - 1] !== ']') return null;
  const start = value.lastIndexOf('[pasted text #', offset);
  if (start === -1) return null;
  const token = value.slice(start, offset);
  const match = /^\[pasted text #(\d+): /.exec(token);
  const text = match ? pastes.get(Number(match[1])) : undefined;
  return text !== undefined && placeholderToken(Number(match![1]), text) === token ? start : null;
}

/**
 * Collects the chunks of one paste and hands the whole text to `onComplete` once it is over:
 * at the end marker for a bracketed paste, else after `settleMs` without input.
 */
export class PasteCollector {
  private chunks: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private isBracketed = false;
  private open = false;

  constructor(
    private readonly onComplete: (text: string) => void,
    private readonly settleMs: number = PASTE_SETTLE_MS,
  ) {}

  /** Whether the open paste is delimited by the terminal's bracketed-paste markers. */
  get bracketed(): boolean {
    return this.isBracketed;
  }

  /** Whether a paste is being collected: all input belongs to it until it completes. */
  get active(): boolean {
    return this.open;
  }

  /** Starts an unbracketed paste with `text`, or adds `text` to the open paste. */
  push(text: string): void {
    this.open = true;
    this.chunks.push(text);
    this.arm(this.isBracketed ? BRACKETED_PASTE_TIMEOUT_MS : this.settleMs);
  }

  /** ESC[200~ arrived. */
  beginBracketed(): void {
    this.open = true;
    this.isBracketed = true;
    this.arm(BRACKETED_PASTE_TIMEOUT_MS);
  }

  /** ESC[201~ arrived (or anything that must end the paste now). */
  finish(): void {
    if (!this.open) return;
    this.clearTimer();
    const text = this.chunks.join('');
    this.chunks = [];
    this.open = false;
    this.isBracketed = false;
    this.onComplete(text);
  }

  dispose(): void {
    this.clearTimer();
    this.chunks = [];
    this.open = false;
  }

  private arm(delayMs: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => this.finish(), delayMs);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
