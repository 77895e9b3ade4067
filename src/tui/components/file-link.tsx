import { Box, Text } from 'ink';
import { homedir } from 'node:os';
import path from 'node:path';
import stringWidth from 'string-width';
import { lineToString, sanitizeTerminalText, type Segment } from '../markdown/ansi.js';
import { fileUrl } from '../markdown/file-links.js';

/**
 * A file path as the terminal UI shows it: under the home directory as `~/…` (shorter, and a
 * shell takes it as it is), else whole; an OSC 8 `file://` link where links are on (see
 * `setHyperlinks`); and never broken by seek: a path wider than the terminal is written on one
 * line for the terminal to soft-wrap, so copying it (or `tmux capture-pane -J`) gives it whole.
 */

/** `file` under `home` as `~/…`, else as it is (control characters removed, on one line). */
export function shownPath(file: string, home: string = homedir()): string {
  const relative = home ? path.relative(home, file) : '';
  const inHome = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  const text = inHome ? `~/${relative.split(path.sep).join('/')}` : file;
  return sanitizeTerminalText(text).replace(/[\t\n]/g, ' ');
}

export { fileUrl };

/** The path as a segment: its shown text, linked to the file. */
export function pathSegment(file: string, home?: string): Segment {
  return { text: shownPath(file, home), style: { link: fileUrl(file) } };
}

/** Rows the path's line takes in a terminal `width` columns wide that soft-wraps it. */
export function pathRows(file: string, width: number): number {
  return Math.max(1, Math.ceil(stringWidth(shownPath(file)) / Math.max(1, width)));
}

/** The path on a line of its own, laid out as wide as it is so Ink never breaks it. */
export function PathLine({ file, width, color }: { file: string; width: number; color: boolean }) {
  const segment = pathSegment(file);
  return (
    <Box width={Math.max(width, stringWidth(segment.text))} flexShrink={0}>
      <Text>{lineToString([segment], color)}</Text>
    </Box>
  );
}
