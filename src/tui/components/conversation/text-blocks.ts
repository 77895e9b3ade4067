import { sanitizeTerminalText, type Line, type Style } from '../../markdown/ansi.js';
import { hardWrapLine, truncateLine } from '../../markdown/width.js';

/** Small helpers shared by the conversation rows: capped blocks of output, durations. */

/** Most lines a detail view shows of one output before "… N more lines". */
export const DETAIL_MAX_LINES = 200;

const DIM: Style = { dim: true };

/** The first `max` lines and a dim "… N more lines" marker when there were more. */
export function capLines(lines: readonly Line[], max: number | undefined): Line[] {
  if (max === undefined || lines.length <= max) return [...lines];
  const hidden = lines.length - max;
  return [...lines.slice(0, max), [{ text: `… ${hidden} more ${hidden === 1 ? 'line' : 'lines'}`, style: DIM }]];
}

/** Source lines of outside text (command output, file content), made safe; tabs as 4 spaces;
 * trailing blank lines dropped. Empty text gives no lines. */
export function textLines(text: string): string[] {
  const clean = sanitizeTerminalText(text).replace(/\t/g, '    ').replace(/\s+$/, '');
  return clean === '' ? [] : clean.split('\n');
}

/** Output shown as-is, one terminal row per line (cut at `width`, never wrapped), capped; or, with
 * `whole` (Ctrl+T's view of everything), every line, long ones continued on the next rows. */
export function outputLines(text: string, width: number, style?: Style, max: number | undefined = DETAIL_MAX_LINES, whole = false): Line[] {
  if (whole) return textLines(text).flatMap((line) => (line === '' ? [[]] : hardWrapLine([{ text: line, style }], Math.max(1, width))));
  const lines = textLines(text).map((line) => truncateLine(line === '' ? [] : [{ text: line, style }], width));
  return capLines(lines, max);
}

/** The first non-empty line of a text, trimmed ('' when there is none). */
export function firstLine(text: string): string {
  return textLines(text).find((line) => line.trim() !== '')?.trim() ?? '';
}

/** `34ms`, `1.2s`, `2m 5s`. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.max(0, Math.round(milliseconds))}ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)}s`;
  const minutes = Math.floor(milliseconds / 60_000);
  const seconds = Math.round((milliseconds % 60_000) / 1000);
  return `${minutes}m ${seconds}s`;
}

/** Singular or plural: `1 line`, `3 lines`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
