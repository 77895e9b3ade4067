import stringWidth from 'string-width';
import { wrapSegments } from '../markdown/width.js';

/**
 * How the live (redrawn) part of the screen shares the terminal's rows. Contract: the parts given
 * here never add up to the terminal's height. Ink redraws its live area in place only while that
 * area is shorter than the screen: rows that scrolled off the top cannot be erased, and left to
 * itself Ink then clears the whole terminal, scrollback included (seek hides the height from Ink
 * so it never does, see use-terminal-rows.ts; a live area too tall would still leave stale rows in
 * the scrollback). Finished conversation items are printed once above the live area (Ink's
 * <Static>) and are not counted here.
 */

/** Rows never used: Ink writes a newline after the live area (a live area of `rows - 1` rows is
 * the tallest Ink redraws in place). */
export const SPARE_ROWS = 1;
/** Live conversation rows still shown while a question (an approval, a plan review, a picker)
 * takes the rest: the call being asked about stays in view. */
export const LIVE_ROWS_BESIDE_DIALOG = 3;
/** Beside a panel (/memory, /permissions…) the live items fold to one row saying how many there are. */
export const LIVE_ROWS_BESIDE_PANEL = 1;
/** The todo list never takes more than this share of the rows. */
const TODO_SHARE = 0.25;
/** Rows of the todo list beside a question: its title (with the hidden counts) and the current item. */
const TODO_ROWS_BESIDE_QUESTION = 2;
/** Rows kept for the input editor while an answer streams (its text and the completion menu). */
const EDITOR_RESERVE = 10;

export interface LiveLayoutInput {
  /** The terminal's height. */
  rows: number;
  /** Rows of the parts that are always drawn in full (status bar, working line, queue, hints). */
  fixedRows: number;
  /** Rows the live conversation items would take unclipped. */
  liveRows: number;
  /** Rows the todo list would take unclipped (0 when there is none). */
  todoRows: number;
  /** What takes the keyboard: a question or picker, a panel, or (false) the input editor. */
  dialog: false | 'question' | 'panel';
}

export interface LiveLayout {
  /** Rows for the live conversation items, marker included (0 when there are none). */
  live: number;
  /** Rows for the todo list, its "more" line included. */
  todo: number;
  /** Rows the question, panel, picker or editor may take, all of it. */
  bottom: number;
}

/**
 * Shares out the rows: the bottom part (what the user answers or types into) comes first, then
 * the todo list, then the live conversation, which is clipped to its newest rows. The sum of
 * `live`, `todo`, `bottom` and `fixedRows` is at most `rows - SPARE_ROWS` (when even the fixed
 * parts do not fit, everything else gets its minimum of one row).
 */
export function liveLayout(input: LiveLayoutInput): LiveLayout {
  const space = Math.max(3, input.rows - SPARE_ROWS - input.fixedRows);
  // A panel is a screen of its own: the todo list waits behind it. Beside a question it keeps
  // its title and the current item, leaving the rest to what is asked.
  const todoMax = input.dialog === 'panel' ? 0 : input.dialog === 'question' ? TODO_ROWS_BESIDE_QUESTION : Math.floor(space * TODO_SHARE);
  const todo = Math.min(input.todoRows, todoMax);
  const afterTodo = space - todo;
  const beside = input.dialog === 'panel' ? LIVE_ROWS_BESIDE_PANEL : LIVE_ROWS_BESIDE_DIALOG;
  const keepForBottom = input.dialog ? afterTodo - Math.min(input.liveRows, beside) : Math.min(EDITOR_RESERVE, Math.ceil(afterTodo / 2));
  const live = Math.max(0, Math.min(input.liveRows, afterTodo - Math.max(1, keepForBottom)));
  return { live, todo, bottom: Math.max(1, afterTodo - live) };
}

/** Rows a line of plain text takes once Ink word-wraps it at `width` columns, counted high: the
 * rows of our own greedy word wrap, or the plain division plus one, whichever is more. */
export function textRows(text: string, width: number): number {
  const columns = Math.max(1, width);
  const rows = Math.max(1, Math.ceil(stringWidth(text) / columns));
  if (rows === 1) return 1;
  return Math.max(rows + 1, wrapSegments([{ text }], columns).length);
}

/** The input editor's share of `rows`: completion-menu entries first (up to `menuMax`), then
 * text rows; the editor adds at most three rows of its own (↑/↓ markers, the menu's "more"). */
export function editorRows(rows: number, menuMax: number): { textRows: number; menuRows: number } {
  const menuRows = Math.min(menuMax, Math.max(1, rows - 5));
  return { menuRows, textRows: Math.max(1, rows - 3 - menuRows) };
}

/** Rows for a panel's list or text: `preferred` when the panel's share allows it, fewer (but at
 * least `min`) when `maxRows` less the panel's other rows (`chrome`, counted generously) is less. */
export function fitRows(maxRows: number | undefined, chrome: number, preferred: number, min = 3): number {
  if (maxRows === undefined) return preferred;
  return Math.max(min, Math.min(preferred, maxRows - chrome));
}

/** What the App draws below the conversation, as `screenLayout` counts it. */
export interface ScreenParts {
  rows: number;
  width: number;
  /** Rows of the live conversation items, unclipped. */
  liveRows: number;
  todoRows: number;
  /** The working line shows; with the message of a retry when the provider is retried. */
  working: boolean;
  retryMessage?: string;
  /** "press ctrl+c again to exit" shows. */
  exitHint: boolean;
  /** Messages waiting to be sent, one row each (wrapped). */
  queued: readonly string[];
  dialog: LiveLayoutInput['dialog'];
  /** Completion-menu entries the editor shows at most. */
  menuRows: number;
}

/** The App's screen shared out (see `liveLayout`), with the input editor's split of its rows. */
export function screenLayout(parts: ScreenParts): LiveLayout & { editor: ReturnType<typeof editorRows> } {
  const working = !parts.working ? 0 : parts.retryMessage === undefined ? 1 : textRows(`⠋ working 999s · esc to cancel  ${parts.retryMessage} — retrying (99/99)`, parts.width);
  const fixedRows =
    1 + // the status bar
    working +
    (parts.exitHint ? 1 : 0) +
    parts.queued.reduce((sum, text) => sum + textRows(`› ${text} (queued)`, parts.width), 0);
  const layout = liveLayout({ rows: parts.rows, fixedRows, liveRows: parts.liveRows, todoRows: parts.todoRows, dialog: parts.dialog });
  return { ...layout, editor: editorRows(layout.bottom, parts.menuRows) };
}
