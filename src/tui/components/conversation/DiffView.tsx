import { Text } from 'ink';
import { linesToString } from '../../markdown/ansi.js';
import { diffLines } from './diff-lines.js';

export interface DiffViewProps {
  /** A unified diff (as produced by `diff`'s createTwoFilesPatch or `git diff`). */
  diff: string;
  /** Show at most this many lines, then "… N more lines". All when absent. */
  maxLines?: number;
  /** False: plain text, no escape codes. */
  color: boolean;
  /** Cut lines at this many columns (no wrapping, so the +/- column stays aligned). When absent,
   * long lines are left to Ink, which wraps them at the container's width. */
  width?: number;
  /** Line numbers in a dim gutter. */
  lineNumbers?: boolean;
}

/** A coloured unified diff: `+` green, `-` red, `@@` cyan. Renders nothing for an empty diff.
 * Used for edit/write results and for the permission prompt's previews. */
export function DiffView({ diff, maxLines, color, width, lineNumbers }: DiffViewProps) {
  const lines = diffLines(diff, { maxLines, width, lineNumbers });
  if (lines.length === 0) return null;
  return <Text>{linesToString(lines, color)}</Text>;
}
