import type { ToolDisplay } from '../../../agent/types.js';
import { sanitizeTerminalText, type Line, type Style } from '../../markdown/ansi.js';
import { lineWidth, textWidth, truncateLine } from '../../markdown/width.js';
import type { ConversationItem } from '../../types.js';
import { diffLines } from './diff-lines.js';
import { capLines, count, DETAIL_MAX_LINES, firstLine, formatDuration, outputLines, textLines } from './text-blocks.js';

/** The lines of a tool row: header, live output, result hint, detail body. Pure, so they are
 * tested without Ink. */

export type ToolItem = Extract<ConversationItem, { kind: 'tool' }>;

const DIM: Style = { dim: true };
const GREEN: Style = { fg: 'green' };
const RED: Style = { fg: 'red' };
const YELLOW: Style = { fg: 'yellow' };

const GLYPHS: Record<ToolItem['status'], { text: string; style: Style }> = {
  running: { text: '⋯', style: { fg: 'cyan' } },
  done: { text: '✓', style: GREEN },
  error: { text: '✗', style: RED },
  denied: { text: '⊘', style: YELLOW },
};

/** Indent of everything under the header: lines up with the tool name. */
export const BODY_INDENT = '  ';
export const HINT_PREFIX = '└ ';
/** Lines of a running command's output shown under its row. */
const LIVE_OUTPUT_LINES = 3;

/** `✓ bash npm test  1.2s`: glyph, name, key argument cut to fit, duration once finished. */
export function headerLine(item: ToolItem, width: number): Line {
  const glyph = GLYPHS[item.status];
  const head: Line = [glyph, { text: ' ' }, { text: item.name, style: { bold: true } }];
  if (item.agent !== undefined && item.agent !== '') head.push({ text: ` (${item.agent})`, style: DIM });
  const tail: Line =
    item.status !== 'running' && item.durationMs !== undefined
      ? [{ text: '  ' }, { text: formatDuration(item.durationMs), style: DIM }]
      : [];
  const summary = firstLine(item.summary);
  const room = width - lineWidth(head) - lineWidth(tail) - 1;
  const line: Line = [...head];
  if (summary !== '' && room >= 2) line.push({ text: ' ' }, ...truncateLine([{ text: summary }], room));
  return truncateLine([...line, ...tail], width);
}

/** The last lines of a running command's live output, dim, under the row. */
export function liveOutputLines(item: ToolItem, width: number): Line[] {
  if (item.status !== 'running' || item.partial === undefined) return [];
  const lines = textLines(item.partial).filter((line) => line.trim() !== '');
  return lines
    .slice(-LIVE_OUTPUT_LINES)
    .map((line) => truncateLine([{ text: BODY_INDENT }, { text: line, style: DIM }], width));
}

function exitHint(exitCode: number | null): Line {
  return [{ text: exitCode === null ? 'terminated' : `exit ${exitCode}`, style: RED }];
}

/** One line about a text: itself when it is one line, else its line count. */
function textHint(text: string): Line | null {
  const lines = textLines(text);
  if (lines.length === 0) return null;
  return lines.length === 1 ? [{ text: firstLine(text), style: DIM }] : [{ text: count(lines.length, 'line'), style: DIM }];
}

/** `+12 −3` (a real minus sign, like the diff stat of most tools). */
function diffCounts(display: Extract<ToolDisplay, { kind: 'diff' }>): Line {
  return [
    { text: `+${display.added}`, style: GREEN },
    { text: ' ' },
    { text: `−${display.removed}`, style: RED },
  ];
}

function displayHint(display: ToolDisplay, output: string | undefined): Line | null {
  switch (display.kind) {
    case 'diff':
      return diffCounts(display);
    case 'command':
      if (display.exitCode !== null && display.exitCode !== 0) return exitHint(display.exitCode);
      if (display.exitCode === null) return textHint(output ?? display.output); // a background job
      return display.output.trim() === '' || display.output === '(no output)'
        ? [{ text: 'no output', style: DIM }]
        : [{ text: count(textLines(display.output).length, 'line') + ' of output', style: DIM }];
    case 'file':
      return [{ text: count(display.lines, 'line') + (display.truncated ? ' (partial)' : ''), style: DIM }];
    case 'list':
      return [{ text: count(display.items.length, 'item') + (display.truncated ? ' (more not shown)' : ''), style: DIM }];
    case 'todos': {
      const done = display.items.filter((todo) => todo.status === 'completed').length;
      return [{ text: display.items.length === 0 ? 'cleared' : `${done}/${display.items.length} done`, style: DIM }];
    }
    case 'text':
      return textHint(display.text);
  }
}

/** The one-line result under a finished row: `+12 −3`, `exit 1`, `214 lines`, an error's first line. */
export function resultHint(item: ToolItem): Line | null {
  if (item.status === 'running') return null;
  if (item.status === 'denied') return [{ text: firstLine(item.output ?? '') || 'denied', style: YELLOW }];
  if (item.status === 'error') {
    if (item.display?.kind === 'command') return exitHint(item.display.exitCode);
    const message = firstLine(item.output ?? '') || (item.display?.kind === 'text' ? firstLine(item.display.text) : '');
    return [{ text: message || 'failed', style: RED }];
  }
  if (item.display !== undefined) return displayHint(item.display, item.output);
  return item.output === undefined ? null : textHint(item.output);
}

const TODO_GLYPHS = {
  completed: { text: '☑', style: { fg: 'green', dim: true } },
  in_progress: { text: '◐', style: { fg: 'cyan', bold: true } },
  pending: { text: '☐', style: undefined },
} as const satisfies Record<string, { text: string; style: Style | undefined }>;

/** The full result for detail mode (Ctrl+O), at `width` columns, at most ~200 lines. */
export function detailBody(item: ToolItem, width: number): Line[] {
  const display = item.display;
  const output = item.output ?? '';
  if (display === undefined) return outputLines(output, width, item.status === 'error' ? RED : undefined);
  switch (display.kind) {
    case 'diff':
      return [diffCounts(display), ...diffLines(display.diff, { width, maxLines: DETAIL_MAX_LINES })];
    case 'command': {
      const body = outputLines(display.output, width);
      const failed = display.exitCode !== 0;
      return failed ? [...body, exitHint(display.exitCode)] : body;
    }
    case 'file':
      return [[{ text: count(display.lines, 'line') + (display.truncated ? ' (partial)' : ''), style: DIM }], ...outputLines(output, width)];
    case 'list': {
      const items = display.items.map((entry) => truncateLine([{ text: sanitizeTerminalText(entry) }], width));
      const more: Line[] = display.truncated ? [[{ text: '… more not shown', style: DIM }]] : [];
      return [...capLines(items, DETAIL_MAX_LINES), ...more];
    }
    case 'todos':
      return display.items.map((todo) => {
        const glyph = TODO_GLYPHS[todo.status];
        const text = { text: sanitizeTerminalText(todo.content), style: todo.status === 'completed' ? DIM : undefined };
        return truncateLine([glyph, { text: ' ' }, text], width);
      });
    case 'text':
      return outputLines(display.text, width);
  }
}

/** Width left for a body indented by BODY_INDENT. */
export function bodyWidth(width: number): number {
  return Math.max(1, width - textWidth(BODY_INDENT));
}

