import { diffArrays } from 'diff';
import type { LineIndex, OldLines, WindowMatch } from './line-match.js';
import { indentOf } from './normalize.js';
import { columns, gcd, spaceUnitOf, TAB_COLUMNS } from './reindent.js';

/** One line of the match: old_string's indentation of it and the file's. */
interface Anchor {
  old: string;
  file: string;
}

/**
 * The replacement for a match whose indentation is no shift of the whole block (old_string sent
 * flattened, with levels mixed, or with one inner line misindented), found unique with leading
 * whitespace ignored. The file is the authority on indentation, line by line:
 * - lines new_string keeps from old_string are the file's lines, untouched;
 * - a line new_string changes takes the file's indentation of the old line it replaces, moved by
 *   the difference new_string makes to that line's indentation (scaled to the file's step);
 * - a line new_string adds is placed relative to the kept line before it in the same way; when
 *   new_string gives no information (it indents the line like both neighbours), it takes the
 *   deeper of the two neighbours' file indentation (a line added after `{` or before `}` belongs
 *   inside the block).
 * Lines are compared as old_string has them, so a change of indentation alone counts as a change.
 */
export function composeLineByLine(index: LineIndex, match: WindowMatch, old: OldLines, newString: string): string {
  const newLines = newString.split('\n');
  const tailNewline = newLines.length > 1 && newLines[newLines.length - 1] === '';
  if (tailNewline) newLines.pop();
  const fileLine = (offset: number): string => index.line(match.firstLine + offset);
  const anchorAt = (offset: number): Anchor => ({ old: indentOf(old.lines[offset]!), file: indentOf(fileLine(offset)) });
  const style = styleOf(index, match, old, newLines);

  // The changes as hunks: old lines kept, or a run of removed old lines and added new lines.
  type Hunk = { kind: 'keep'; offset: number } | { kind: 'change'; removed: number[]; added: string[] };
  const hunks: Hunk[] = [];
  let oldAt = 0;
  for (const change of diffArrays(old.lines, newLines)) {
    const last = hunks[hunks.length - 1];
    if (!change.added && !change.removed) {
      for (let n = 0; n < change.value.length; n += 1) hunks.push({ kind: 'keep', offset: oldAt++ });
      continue;
    }
    const hunk = last?.kind === 'change' ? last : { kind: 'change' as const, removed: [], added: [] };
    if (hunk !== last) hunks.push(hunk);
    if (change.removed) for (let n = 0; n < change.value.length; n += 1) hunk.removed.push(oldAt++);
    else hunk.added.push(...change.value);
  }

  /** The nearest kept, non-blank line before (step -1) or after (step 1) hunk `at`. */
  const keptNear = (at: number, step: 1 | -1): Anchor | undefined => {
    for (let n = at + step; n >= 0 && n < hunks.length; n += step) {
      const hunk = hunks[n]!;
      if (hunk.kind === 'keep' && old.lines[hunk.offset]!.trim() !== '') return anchorAt(hunk.offset);
    }
    return undefined;
  };

  const output: string[] = [];
  hunks.forEach((hunk, at) => {
    if (hunk.kind === 'keep') {
      output.push(matchedText(index, match, hunk.offset));
      return;
    }
    const replaced = hunk.removed.filter((offset) => old.lines[offset]!.trim() !== '');
    hunk.added.forEach((line, n) => {
      if (output.length === 0 && !match.firstWhole) {
        output.push(line); // continues a file line mid-way: its own spacing stays
        return;
      }
      if (line.trim() === '') {
        output.push('');
        return;
      }
      const indent = indentOf(line);
      let anchor: Anchor | undefined;
      if (replaced.length > 0) anchor = anchorAt(replaced[Math.min(n, replaced.length - 1)]!);
      else {
        const before = keptNear(at, -1);
        const after = keptNear(at, 1);
        const flat = (before === undefined || before.old === indent) && (after === undefined || after.old === indent);
        if (flat && before && after) anchor = columns(after.file) > columns(before.file) ? { old: indent, file: after.file } : before;
        else anchor = before ?? after;
      }
      if (!anchor) {
        output.push(line);
        return;
      }
      const width = columns(anchor.file) + (columns(indent) - columns(anchor.old)) * style.ratio;
      output.push(style.render(width) + line.slice(indent.length));
    });
  });
  return output.join('\n') + (tailNewline ? '\n' : '');
}

/** How to write an indentation in the file's style, and file columns per column of the model's indentation. */
function styleOf(index: LineIndex, match: WindowMatch, old: OldLines, newLines: string[]): { ratio: number; render: (width: number) => string } {
  const fileLines: string[] = [];
  for (let line = Math.max(0, match.firstLine - 50); line < Math.min(index.count, match.firstLine + match.lineCount + 50); line += 1) fileLines.push(index.line(line));
  const tabs = fileLines.some((line) => line.startsWith('\t'));
  const fileStep = tabs ? TAB_COLUMNS : spaceUnitOf(fileLines);
  let modelStep = 0;
  for (const line of [...old.lines, ...newLines]) if (line.trim() !== '') modelStep = gcd(modelStep, columns(indentOf(line)));
  // A step of 1 (one odd indentation) says nothing about the model's unit: then columns map 1:1.
  const ratio = modelStep >= 2 ? fileStep / modelStep : 1;
  return {
    ratio,
    render: (width) => {
      const clamped = Math.max(0, Math.round(width));
      return tabs ? '\t'.repeat(Math.floor(clamped / TAB_COLUMNS)) + ' '.repeat(clamped % TAB_COLUMNS) : ' '.repeat(clamped);
    },
  };
}

/** The file's text for old line `offset` of the match, cut to the matched part of the line. */
function matchedText(index: LineIndex, match: WindowMatch, offset: number): string {
  const line = match.firstLine + offset;
  const lineStart = index.start(line);
  const from = offset === 0 ? Math.max(match.start, lineStart) : lineStart;
  const to = offset === match.lineCount - 1 ? Math.min(match.end, index.end(line)) : index.end(line);
  return index.text.slice(from, to);
}
