/**
 * The input editor's text buffer as an immutable value: the text plus a cursor. Every operation is
 * a pure function returning a new state (or the same object when nothing changes), so the key
 * handling can be tested without a terminal.
 *
 * Invariants: `cursor` is a UTF-16 offset into `value` that always sits on a grapheme-cluster
 * boundary, so a CJK character, an emoji (even a ZWJ family or a flag) or a letter with combining
 * marks is a single cursor step and is deleted whole. `value` holds '\n' for line breaks and no
 * other control characters except '\t'.
 */
import { columnAt, layoutRows, offsetAtColumn, rowIndexAt } from './text-layout.js';
import { graphemes, nextBoundary, previousBoundary, snapToBoundary } from './text-width.js';

export interface EditorState {
  readonly value: string;
  readonly cursor: number;
  /**
   * The column a run of Up/Down presses aims for, so moving through a short line and on to a
   * long one returns to the original column. Cleared by every other operation.
   */
  readonly goalColumn?: number;
}

export const EMPTY_EDITOR_STATE: EditorState = { value: '', cursor: 0 };

/** A state holding `value` with the cursor at `cursor` (default: the end), snapped to a boundary. */
export function editorStateFrom(value: string, cursor: number = value.length): EditorState {
  const clean = normalizeText(value);
  return { value: clean, cursor: snapToBoundary(clean, cursor) };
}

// ESC-introduced sequences (CSI, OSC, two-byte) a paste may carry, and other control characters.
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-_])?/g;
const OTHER_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text as the buffer stores it: CRLF and CR become '\n', escape sequences and controls other
 * than '\n' and '\t' are dropped (terminals send CR for pasted line breaks). */
export function normalizeText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ESCAPE_SEQUENCE, '').replace(OTHER_CONTROLS, '');
}

function replaceRange(state: EditorState, start: number, end: number, text: string): EditorState {
  if (start === end && text === '') return state.goalColumn === undefined ? state : withCursor(state, state.cursor);
  const value = state.value.slice(0, start) + text + state.value.slice(end);
  return { value, cursor: start + text.length };
}

function withCursor(state: EditorState, cursor: number): EditorState {
  if (cursor === state.cursor && state.goalColumn === undefined) return state;
  return { value: state.value, cursor };
}

// ---- Editing --------------------------------------------------------------------------------------

/** Inserts `text` (normalized, see `normalizeText`) at the cursor and moves past it. */
export function insertText(state: EditorState, text: string): EditorState {
  const clean = normalizeText(text);
  if (clean === '') return state;
  return replaceRange(state, state.cursor, state.cursor, clean);
}

export function insertNewline(state: EditorState): EditorState {
  return replaceRange(state, state.cursor, state.cursor, '\n');
}

/** Deletes the grapheme before the cursor (Backspace). */
export function deleteBackward(state: EditorState): EditorState {
  return replaceRange(state, previousBoundary(state.value, state.cursor), state.cursor, '');
}

/** Deletes the grapheme under the cursor (Delete, Ctrl+D). */
export function deleteForward(state: EditorState): EditorState {
  return replaceRange(state, state.cursor, nextBoundary(state.value, state.cursor), '');
}

/** Deletes back to the start of the previous word (Ctrl+W, Alt+Backspace); see `wordStartBefore`. */
export function deleteWordBackward(state: EditorState): EditorState {
  return replaceRange(state, wordStartBefore(state.value, state.cursor), state.cursor, '');
}

/** Deletes forward to the end of the next word (Alt+D). */
export function deleteWordForward(state: EditorState): EditorState {
  return replaceRange(state, state.cursor, wordEndAfter(state.value, state.cursor), '');
}

/** Deletes to the end of the logical line (Ctrl+K); at the end of a line, joins the next line. */
export function killToLineEnd(state: EditorState): EditorState {
  const end = lineEndOf(state.value, state.cursor);
  if (end === state.cursor && end < state.value.length) return replaceRange(state, end, end + 1, '');
  return replaceRange(state, state.cursor, end, '');
}

/** Deletes to the start of the logical line (Ctrl+U); at the start of a line, joins the previous. */
export function killToLineStart(state: EditorState): EditorState {
  const start = lineStartOf(state.value, state.cursor);
  if (start === state.cursor && start > 0) return replaceRange(state, start - 1, start, '');
  return replaceRange(state, start, state.cursor, '');
}

export function clear(state: EditorState): EditorState {
  return state.value === '' && state.cursor === 0 ? state : EMPTY_EDITOR_STATE;
}

// ---- Horizontal movement --------------------------------------------------------------------------

export function moveLeft(state: EditorState): EditorState {
  return withCursor(state, previousBoundary(state.value, state.cursor));
}

export function moveRight(state: EditorState): EditorState {
  return withCursor(state, nextBoundary(state.value, state.cursor));
}

/** To the start of the logical line (Home, Ctrl+A). */
export function moveLineStart(state: EditorState): EditorState {
  return withCursor(state, lineStartOf(state.value, state.cursor));
}

/** To the end of the logical line (End, Ctrl+E). */
export function moveLineEnd(state: EditorState): EditorState {
  return withCursor(state, lineEndOf(state.value, state.cursor));
}

export function moveBufferStart(state: EditorState): EditorState {
  return withCursor(state, 0);
}

export function moveBufferEnd(state: EditorState): EditorState {
  return withCursor(state, state.value.length);
}

export function moveWordLeft(state: EditorState): EditorState {
  return withCursor(state, wordStartBefore(state.value, state.cursor));
}

export function moveWordRight(state: EditorState): EditorState {
  return withCursor(state, wordEndAfter(state.value, state.cursor));
}

// ---- Vertical movement (visual rows) --------------------------------------------------------------

/** Whether the cursor is on the first visual row when the text is wrapped to `width` cells. */
export function isOnFirstRow(state: EditorState, width: number = Number.POSITIVE_INFINITY): boolean {
  return rowIndexAt(layoutRows(state.value, width), state.cursor) === 0;
}

/** Whether the cursor is on the last visual row when the text is wrapped to `width` cells. */
export function isOnLastRow(state: EditorState, width: number = Number.POSITIVE_INFINITY): boolean {
  const rows = layoutRows(state.value, width);
  return rowIndexAt(rows, state.cursor) === rows.length - 1;
}

/** Up one visual row, keeping the goal column. On the first row nothing changes (the caller may
 * walk the history instead). */
export function moveUp(state: EditorState, width: number = Number.POSITIVE_INFINITY): EditorState {
  return moveVertically(state, width, -1);
}

/** Down one visual row, keeping the goal column. On the last row nothing changes. */
export function moveDown(state: EditorState, width: number = Number.POSITIVE_INFINITY): EditorState {
  return moveVertically(state, width, 1);
}

function moveVertically(state: EditorState, width: number, direction: -1 | 1): EditorState {
  const rows = layoutRows(state.value, width);
  const current = rowIndexAt(rows, state.cursor);
  const target = rows[current + direction];
  if (!target) return state;
  const goalColumn = state.goalColumn ?? columnAt(state.value, rows[current]!, state.cursor);
  return { value: state.value, cursor: offsetAtColumn(state.value, target, goalColumn), goalColumn };
}

// ---- Lines and words --------------------------------------------------------------------------------

export function lineStartOf(value: string, offset: number): number {
  return offset === 0 ? 0 : value.lastIndexOf('\n', offset - 1) + 1;
}

export function lineEndOf(value: string, offset: number): number {
  const newline = value.indexOf('\n', offset);
  return newline === -1 ? value.length : newline;
}

type CharClass = 'space' | 'word' | 'punctuation';

function classOf(grapheme: string): CharClass {
  if (/^\s+$/u.test(grapheme)) return 'space';
  if (/^[\p{L}\p{N}_]/u.test(grapheme)) return 'word';
  return 'punctuation';
}

/**
 * Where a backward word motion lands: skip whitespace (line breaks included), then a run of one
 * class: word characters (letters, digits, '_', any script) or punctuation. So in `src/tui`
 * successive presses stop at `tui`, `/`, `src`, as in VS Code.
 */
export function wordStartBefore(value: string, offset: number): number {
  const before = graphemes(value.slice(0, offset));
  let index = before.length;
  let position = offset;
  while (index > 0 && classOf(before[index - 1]!) === 'space') position -= before[--index]!.length;
  const runClass = index > 0 ? classOf(before[index - 1]!) : 'space';
  while (index > 0 && classOf(before[index - 1]!) === runClass) position -= before[--index]!.length;
  return position;
}

/** Where a forward word motion lands: skip whitespace, then to the end of a run of one class. */
export function wordEndAfter(value: string, offset: number): number {
  const after = graphemes(value.slice(offset));
  let index = 0;
  let position = offset;
  while (index < after.length && classOf(after[index]!) === 'space') position += after[index++]!.length;
  const runClass = index < after.length ? classOf(after[index]!) : 'space';
  while (index < after.length && classOf(after[index]!) === runClass) position += after[index++]!.length;
  return position;
}
