import { diffArrays } from 'diff';
import type { LineIndex, OldLines, WindowMatch } from './line-match.js';
import { indentOf } from './normalize.js';
import type { BlockShift } from './reindent.js';

/**
 * The text that replaces a tolerant match. Lines new_string keeps from old_string (the context a
 * model repeats around its change) are taken from the file as they are, so a tolerance never
 * rewrites a line the edit does not change: its trailing spaces, look-alike characters and exact
 * indentation stay. Lines new_string adds or changes are moved by the block shift.
 */
export function composeReplacement(index: LineIndex, match: WindowMatch, old: OldLines, newString: string, shift: BlockShift): string {
  const newLines = newString.split('\n');
  const tailNewline = newLines.length > 1 && newLines[newLines.length - 1] === '';
  if (tailNewline) newLines.pop();

  const output: string[] = [];
  let oldAt = 0;
  for (const change of diffArrays(old.lines, newLines)) {
    if (change.removed) {
      oldAt += change.count ?? change.value.length;
      continue;
    }
    for (const line of change.value) {
      const position = output.length;
      if (!change.added) {
        output.push(fileText(index, match, oldAt));
        oldAt += 1;
        continue;
      }
      // A first line that continues a file line mid-way keeps its own spacing.
      const continuesLine = position === 0 && !match.firstWhole;
      output.push(continuesLine ? line : reindent(line, shift));
    }
  }
  return output.join('\n') + (tailNewline ? '\n' : '');
}

function reindent(line: string, shift: BlockShift): string {
  if (line.trim() === '') return '';
  if (shift.identity) return line;
  const indent = indentOf(line);
  return shift.apply(indent) + line.slice(indent.length);
}

/** The file's text for old line `offset` of the match, cut to the matched part of the line. */
function fileText(index: LineIndex, match: WindowMatch, offset: number): string {
  const line = match.firstLine + offset;
  const lineStart = index.start(line);
  const from = offset === 0 ? Math.max(match.start, lineStart) : lineStart;
  const to = offset === match.lineCount - 1 ? Math.min(match.end, index.end(line)) : index.end(line);
  return index.text.slice(from, to);
}
