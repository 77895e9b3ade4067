/**
 * Styled text for the terminal UI: a line is a list of segments, each with a style. Layout code
 * (wrapping, truncation, tables, gutters) works on segments, never on ANSI strings; SGR codes are
 * produced only at the end, by `lineToString`, and only when colour is on.
 *
 * Why not chalk or Ink colour props: the UI decides colour once (`ItemViewOptions.color`, off for
 * NO_COLOR) and every string must agree with that decision, whatever chalk detects about the
 * stream. With colour off no escape code is emitted at all, and the layout is identical.
 */

export type ColorName = 'black' | 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'white' | 'gray';

export interface Style {
  fg?: ColorName;
  bg?: ColorName;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
  /** A hyperlink target: the text is an OSC 8 link where the terminal UI turned links on. */
  link?: string;
}

export interface Segment {
  text: string;
  style?: Style;
}

/** One terminal row. Contract: no segment contains a newline. */
export type Line = Segment[];

const FOREGROUND: Record<ColorName, number> = {
  black: 30,
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  white: 37,
  gray: 90,
};

const RESET = '\u001b[0m';

/** The SGR sequence that turns `style` on; '' for no style. Basic 16 colours only, so every
 * terminal shows them and themes keep control of the exact shades. */
export function sgrOpen(style: Style | undefined): string {
  if (style === undefined) return '';
  const codes: number[] = [];
  if (style.bold === true) codes.push(1);
  if (style.dim === true) codes.push(2);
  if (style.italic === true) codes.push(3);
  if (style.underline === true) codes.push(4);
  if (style.strikethrough === true) codes.push(9);
  if (style.fg !== undefined) codes.push(FOREGROUND[style.fg]);
  if (style.bg !== undefined) codes.push(FOREGROUND[style.bg] + 10);
  return codes.length === 0 ? '' : `\u001b[${codes.join(';')}m`;
}

let hyperlinks = false;

/**
 * Whether text with a `link` style is written as an OSC 8 hyperlink (off unless the terminal UI
 * turns it on; see terminal-env.ts). The visible text is unchanged either way: a terminal without
 * OSC 8 shows the same characters, and copying them gives the whole URL.
 */
export function setHyperlinks(enabled: boolean): void {
  hyperlinks = enabled;
}

/** Whether links are written as OSC 8 hyperlinks (see `setHyperlinks`). */
export function hyperlinksOn(): boolean {
  return hyperlinks;
}

/** `text` in `style`, self-contained (it ends with a reset), or plain when colour is off. */
export function paint(text: string, style: Style | undefined, color: boolean): string {
  if (!color || text === '') return text;
  const open = sgrOpen(style);
  const painted = open === '' ? text : `${open}${text}${RESET}`;
  return hyperlinks && style?.link !== undefined ? `\u001b]8;;${style.link}\u001b\\${painted}\u001b]8;;\u001b\\` : painted;
}

/** A line as a string. Each styled segment resets after itself, so a line never leaks its style
 * into the next one (Ink lays out line by line). */
export function lineToString(line: Line, color: boolean): string {
  let out = '';
  for (const segment of line) out += paint(segment.text, segment.style, color);
  return out;
}

export function linesToString(lines: readonly Line[], color: boolean): string {
  return lines.map((line) => lineToString(line, color)).join('\n');
}

/** `base` with `extra` on top (extra wins). */
export function mergeStyle(base: Style | undefined, extra: Style): Style {
  return base === undefined ? extra : { ...base, ...extra };
}

/** The line with `extra` added to every segment's style (e.g. italic for a block quote). */
export function restyleLine(line: Line, extra: Style): Line {
  return line.map((segment) => ({ text: segment.text, style: mergeStyle(segment.style, extra) }));
}

// CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), and other two-character escapes.
const ESCAPE_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g;
// C0 controls except tab and newline, DEL, and C1 controls.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text from outside (model output, command output) made safe to lay out: escape sequences and
 * control characters removed (they would move the cursor or restyle the screen and break every
 * width computation), CRLF and lone CR turned into newlines. Tabs and newlines stay.
 */
export function sanitizeTerminalText(text: string): string {
  // Fast path: most text has nothing to remove.
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) return text;
  return text.replace(/\r\n?/g, '\n').replace(ESCAPE_SEQUENCE, '').replace(CONTROL_CHARACTER, '');
}

/** Removes SGR and other escape sequences (for measuring or comparing rendered strings). */
export function stripAnsi(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '');
}
