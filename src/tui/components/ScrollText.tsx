import { Box, Text, type Key } from 'ink';
import type { ReactNode } from 'react';
import { sanitizeTerminalText } from '../markdown/ansi.js';

export interface ScrollTextProps {
  title: string;
  /** Every line; `scroll` is the index of the first one shown. */
  lines: readonly string[];
  scroll: number;
  rows: number;
  width: number;
  color: boolean;
  /** `diff`: + green, - red, @@ cyan; `conflict`: conflict markers yellow, file headers bold. */
  style?: 'diff' | 'conflict' | 'plain';
  footer?: ReactNode;
}

/** A bordered, scrolled window on a long text (a diff, a conflict report). Keys stay with the
 * caller; see `scrollBy` for the arithmetic. Lines are cut at the width, never wrapped. */
export function ScrollText({ title, lines, scroll, rows, width, color, style = 'plain', footer }: ScrollTextProps) {
  const shown = lines.slice(scroll, scroll + rows);
  const below = Math.max(0, lines.length - scroll - rows);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color ? 'cyan' : undefined} paddingX={1} width={width}>
      <Text bold wrap="truncate-end">
        {title}{' '}
        <Text dimColor>
          {lines.length === 0 ? 'empty' : `${scroll + 1}-${scroll + shown.length} of ${lines.length}`}
        </Text>
      </Text>
      {shown.map((line, index) => (
        <Text key={scroll + index} wrap="truncate-end" color={color ? lineColor(line, style) : undefined} bold={isHeader(line, style)}>
          {clean(line)}
        </Text>
      ))}
      {footer}
      <Text dimColor wrap="truncate-end">
        esc back · ↑↓ scroll · pgup/pgdn page{scroll > 0 ? ` · ${scroll} above` : ''}{below > 0 ? ` · ${below} below` : ''}
      </Text>
    </Box>
  );
}

/** The next scroll position: moved by `delta` lines, kept within the text. */
export function scrollBy(scroll: number, delta: number, total: number, rows: number): number {
  return Math.max(0, Math.min(Math.max(0, total - rows), scroll + delta));
}

/** The scroll position after a key the footer promises (↑↓ a line, PgUp/PgDn or space a page);
 * undefined for any other key. */
export function scrollByKey(key: Key, input: string, scroll: number, total: number, rows: number): number | undefined {
  const delta = key.upArrow ? -1 : key.downArrow ? 1 : key.pageUp ? -rows : key.pageDown || input === ' ' ? rows : 0;
  return delta === 0 ? undefined : scrollBy(scroll, delta, total, rows);
}

function lineColor(line: string, style: ScrollTextProps['style']): string | undefined {
  if (style === 'diff') {
    if (line.startsWith('+++') || line.startsWith('---')) return undefined;
    if (line.startsWith('+')) return 'green';
    if (line.startsWith('-')) return 'red';
    if (line.startsWith('@@')) return 'cyan';
  }
  if (style === 'conflict' && /^(<<<<<<<|=======|>>>>>>>|\|\|\|\|\|\|\|)/.test(line)) return 'yellow';
  return undefined;
}

function isHeader(line: string, style: ScrollTextProps['style']): boolean {
  if (style === 'diff') return line.startsWith('diff --git ');
  return style === 'conflict' && line.startsWith('--- ');
}

/** Text from git on one safe line (empty lines keep their row). */
function clean(line: string): string {
  const text = sanitizeTerminalText(line).replace(/\t/g, '    ').replace(/\n/g, ' ');
  return text === '' ? ' ' : text;
}
