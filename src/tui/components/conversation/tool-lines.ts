import type { ToolDisplay } from '../../../agent/types.js';
import { sanitizeTerminalText, type Line, type Style } from '../../markdown/ansi.js';
import { lineWidth, textWidth, truncateLine } from '../../markdown/width.js';
import type { ConversationItem } from '../../types.js';
import { diffLines } from './diff-lines.js';
import { capLines, count, DETAIL_MAX_LINES, firstLine, formatDuration, outputLines, textLines } from './text-blocks.js';
import { grepCounts, runSummary } from './tool-outcome.js';
import { diffFileLink, linkedSummary } from './tool-path.js';

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
/** Lines of a finished call's output shown under its outcome (the expand key shows the rest). */
export const PREVIEW_LINES = 3;
/** Lines of an applied diff kept under its row (then "… N more lines"). */
export const DIFF_PREVIEW_LINES = 8;
/** The key that shows a tool row's whole output (see App and ToolOutputPanel). */
export const EXPAND_KEY_HINT = 'ctrl+t';

/** The row's label and key argument, the tool's name said once: a summary that starts with the
 * name (`bash: npm test`, `grep x in src`, `read a.ts` for read_file) drops it, the summary's own
 * word is the label. */
export function labelOf(item: Pick<ToolItem, 'name' | 'summary'>): { label: string; rest: string } {
  const summary = firstLine(item.summary);
  const first = /^(\S+?):?(?:\s+|$)/.exec(summary);
  const short = item.name.split('_')[0];
  if (first && (first[1] === item.name || first[1] === short)) return { label: first[1]!, rest: summary.slice(first[0].length) };
  return { label: item.name, rest: summary };
}

/** `✓ bash npm test  1.2s`: glyph, name, key argument cut to fit (a path in it linked to its file
 * and kept whole where links are on: tool-path.ts), duration once finished. */
export function headerLine(item: ToolItem, width: number): Line {
  const glyph = GLYPHS[item.status];
  const { label, rest: summary } = labelOf(item);
  const head: Line = [glyph, { text: ' ' }, { text: label, style: { bold: true } }];
  if (item.agent !== undefined && item.agent !== '') head.push({ text: ` (${item.agent})`, style: DIM });
  const tail: Line =
    item.status !== 'running' && item.durationMs !== undefined
      ? [{ text: '  ' }, { text: formatDuration(item.durationMs), style: DIM }]
      : [];
  const room = width - lineWidth(head) - lineWidth(tail) - 1;
  const line: Line = [...head];
  if (summary !== '' && room >= 2) line.push({ text: ' ' }, ...(linkedSummary(summary, item.paths, room) ?? truncateLine([{ text: summary }], room)));
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

const SEP: Line = [{ text: ' · ', style: DIM }];

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

/** `exit 0 · 12 passed, 1 failed · 44 lines`: the exit code (red unless 0), the run's test or
 * build summary when its output has one, and how much it printed. */
function commandHint(display: Extract<ToolDisplay, { kind: 'command' }>): Line {
  const summary = runSummary(display.output);
  const lines = display.output === '(no output)' ? 0 : textLines(display.output).length;
  const exit: Line = display.exitCode === 0 ? [{ text: 'exit 0', style: GREEN }] : exitHint(display.exitCode);
  return [
    ...exit,
    ...(summary ? [...SEP, { text: summary.text, style: summary.failed ? RED : GREEN }] : []),
    ...SEP,
    { text: lines === 0 ? 'no output' : count(lines, 'line'), style: DIM },
  ];
}

function displayHint(item: ToolItem, display: ToolDisplay, output: string | undefined): Line | null {
  switch (display.kind) {
    case 'diff': {
      const written = item.name === 'write_file' ? /\((\d+) lines?\b/.exec(output ?? '') : null;
      return written ? [{ text: `wrote ${count(Number(written[1]), 'line')}`, style: DIM }, ...SEP, ...diffCounts(display)] : diffCounts(display);
    }
    case 'command':
      if (display.exitCode === null) return textHint(output ?? display.output); // a background job
      return commandHint(display);
    case 'file':
      return [{ text: count(display.lines, 'line') + (display.truncated ? ' (partial)' : ''), style: DIM }];
    case 'list': {
      const noun = item.name === 'glob' ? 'file' : 'item';
      return [{ text: count(display.items.length, noun) + (display.truncated ? ' (more not shown)' : ''), style: DIM }];
    }
    case 'todos': {
      const done = display.items.filter((todo) => todo.status === 'completed').length;
      return [{ text: display.items.length === 0 ? 'cleared' : `${done}/${display.items.length} done`, style: DIM }];
    }
    case 'text': {
      const matches = item.name === 'grep' ? grepCounts(display.text) : undefined;
      return matches ? [{ text: matches, style: DIM }] : textHint(display.text);
    }
  }
}

/** A "no" with the user's words (tool-gate's declinedMessage): the words, not the boilerplate. */
const DECLINED_WITH_WORDS = /^The user declined: .*? They said what to do differently:\n([^\n]*)/s;

/** The one-line outcome under a finished row: `exit 0 · 12 passed · 40 lines`, `+12 −3`,
 * `3 matches in 2 files`, `214 lines`, an error's first line. */
export function resultHint(item: ToolItem): Line | null {
  if (item.status === 'running') return null;
  if (item.status === 'denied') {
    const words = DECLINED_WITH_WORDS.exec(item.output ?? '');
    if (words) return [{ text: 'declined', style: YELLOW }, ...SEP, { text: `you said: ${words[1]}`, style: DIM }];
    return [{ text: firstLine(item.output ?? '') || 'denied', style: YELLOW }];
  }
  if (item.status === 'error') {
    if (item.display?.kind === 'command') return item.display.exitCode === null ? exitHint(null) : commandHint(item.display);
    const message = firstLine(item.output ?? '') || (item.display?.kind === 'text' ? firstLine(item.display.text) : '');
    return [{ text: message || 'failed', style: RED }];
  }
  if (item.display !== undefined) return displayHint(item, item.display, item.output);
  return item.output === undefined ? null : textHint(item.output);
}

/**
 * What a finished row shows under its outcome: the first lines of a command's output, of grep's
 * matches or of a list (then "… N more lines · ctrl+t"), or the applied diff with line numbers
 * and changed words (then "… N more lines"). `width` is the body's width.
 */
export function previewLines(item: ToolItem, width: number): Line[] {
  const display = item.display;
  if (item.status === 'running' || item.status === 'denied' || display === undefined) return [];
  const firstOf = (lines: readonly string[]): Line[] => {
    const shown = lines.slice(0, PREVIEW_LINES).map((line) => truncateLine(line === '' ? [] : [{ text: line, style: DIM }], width));
    const more = lines.length - shown.length;
    return more > 0 ? [...shown, [{ text: `… ${count(more, 'more line')} · ${EXPAND_KEY_HINT} shows all`, style: DIM }]] : shown;
  };
  switch (display.kind) {
    case 'diff':
      return item.status === 'done' ? [...diffLines(display.diff, { width, maxLines: DIFF_PREVIEW_LINES, lineNumbers: true, words: true, hideFileHeaders: true }), ...diagnosticLines(display, item.output, width)] : [];
    case 'command':
      return display.exitCode === null || display.output === '(no output)' ? [] : firstOf(textLines(display.output));
    case 'text':
      return item.name === 'grep' && display.text !== 'No matches' ? firstOf(textLines(display.text)) : [];
    case 'list':
      return firstOf(display.items.map((entry) => sanitizeTerminalText(entry)));
    default:
      return [];
  }
}

/** Under an edit's diff, the language server's verdict (src/lsp): `✗ 2 errors`, then the first
 * of them as the model read them. Nothing when the file has none. */
function diagnosticLines(display: Extract<ToolDisplay, { kind: 'diff' }>, output: string | undefined, width: number): Line[] {
  const found = display.diagnostics;
  if (!found || found.errors + found.warnings === 0) return [];
  const parts = [found.errors > 0 ? count(found.errors, 'error') : '', found.warnings > 0 ? count(found.warnings, 'warning') : ''].filter(Boolean);
  const listed = textLines(output ?? '').filter((line) => /^ {2}\S+:\d+:\d+ (error|warning):/.test(line)).slice(0, PREVIEW_LINES);
  return [
    [{ text: `✗ ${parts.join(', ')}`, style: found.errors > 0 ? RED : YELLOW }],
    ...listed.map((line) => truncateLine([{ text: sanitizeTerminalText(line), style: DIM }], width)),
  ];
}

const TODO_GLYPHS = {
  completed: { text: '☑', style: { fg: 'green', dim: true } },
  in_progress: { text: '◐', style: { fg: 'cyan', bold: true } },
  pending: { text: '☐', style: undefined },
} as const satisfies Record<string, { text: string; style: Style | undefined }>;

/** The full result for detail mode (Ctrl+O), at `width` columns, at most ~200 lines. */
export function detailBody(item: ToolItem, width: number, whole = false): Line[] {
  const display = item.display;
  const output = item.output ?? '';
  const max = whole ? undefined : DETAIL_MAX_LINES;
  if (display === undefined) return outputLines(output, width, item.status === 'error' ? RED : undefined, max, whole);
  switch (display.kind) {
    case 'diff':
      return [diffCounts(display), ...diffLines(display.diff, { width, ...(whole ? { wrap: true } : { maxLines: DETAIL_MAX_LINES }), lineNumbers: true, words: true, ...diffFileLink(item) })];
    case 'command': {
      const body = outputLines(display.output, width, undefined, max, whole);
      const failed = display.exitCode !== 0;
      return failed ? [...body, exitHint(display.exitCode)] : body;
    }
    case 'file':
      return [[{ text: count(display.lines, 'line') + (display.truncated ? ' (partial)' : ''), style: DIM }], ...outputLines(output, width, undefined, max, whole)];
    case 'list': {
      const items = display.items.map((entry) => truncateLine([{ text: sanitizeTerminalText(entry) }], width));
      const more: Line[] = display.truncated ? [[{ text: '… more not shown', style: DIM }]] : [];
      return [...capLines(items, max), ...more];
    }
    case 'todos':
      return display.items.map((todo) => {
        const glyph = TODO_GLYPHS[todo.status];
        const text = { text: sanitizeTerminalText(todo.content), style: todo.status === 'completed' ? DIM : undefined };
        return truncateLine([glyph, { text: ' ' }, text], width);
      });
    case 'text':
      return outputLines(display.text, width, undefined, max, whole);
  }
}

/** Width left for a body indented by BODY_INDENT. */
export function bodyWidth(width: number): number {
  return Math.max(1, width - textWidth(BODY_INDENT));
}

