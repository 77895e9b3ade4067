import stringWidth from 'string-width';
import { stripVTControlCharacters } from 'node:util';

/**
 * What Ink last drew in the live area, as the terminal holds it, so that a terminal made narrower
 * loses nothing.
 *
 * Ink erases its previous frame by counting the lines it wrote (`eraseLines(n)`: n rows up from
 * where the cursor rests). A terminal that reflows on resize (tmux, iTerm2, kitty, VTE, Windows
 * Terminal) splits every line wider than the new width over several rows, so after a narrowing
 * that count is too small: the top of the old frame stays on screen (a second prompt row), and
 * the following frames are drawn over the wrong rows. This module watches Ink's writes, keeps the
 * last frame's lines and the width they were drawn at, and, for the first write after the width
 * shrank, replaces Ink's erase with one that counts the rows the frame takes now: the cursor goes
 * to the frame's first row and everything below it is cleared. Rows above the frame (the
 * scrollback, what <Static> printed) are never touched.
 */

const ESC = '\u001b[';
/** `ansiEscapes.eraseLines(n)` as Ink writes it: n erased rows going up, then column 1. */
const ERASE_LINES = /^(?:\u001b\[2K(?:\u001b\[1A)?)+\u001b\[G/;
/** Writes that draw nothing: synchronized-output brackets and cursor show/hide. */
const CONTROL_ONLY = /^(?:\u001b\[\?(?:2026|25)[hl])+$/;

export interface CursorInFrame {
  /** Rows above the row just below the frame (where Ink leaves the cursor), as drawn. */
  readonly up: number;
  readonly column: number;
}

export class LiveFrame {
  /** The frame's lines; the last one is the (empty) row the cursor rests on after it. */
  private lines: string[] = [''];
  private columns = 0;
  /** The widest line of the frame, in cells. */
  private widest = 0;

  /** Whether a write draws nothing (synchronized-output brackets, cursor show/hide). */
  static controlOnly(chunk: string): boolean {
    return CONTROL_ONLY.test(chunk);
  }

  /** The chunk without the erase Ink put in front of it. */
  static withoutErase(chunk: string): string {
    return chunk.replace(ERASE_LINES, '');
  }

  /** Records a chunk Ink wrote at `columns` columns (call after writing it). */
  observe(chunk: string, columns: number): void {
    if (CONTROL_ONLY.test(chunk)) return;
    const erase = ERASE_LINES.exec(chunk);
    // An erase starts a new frame (possibly empty: Ink's clear). A plain write after a clear is
    // the static output or the new frame; the last one is the frame.
    const text = erase ? chunk.slice(erase[0].length) : chunk;
    this.lines = text.split('\n');
    this.columns = columns;
    this.widest = Math.max(0, ...this.lines.map(cellsOf));
  }

  /**
   * True when the frame's rows are not its lines: the terminal is narrower than when the frame
   * was drawn (its rows were reflowed), or a line was wider than the terminal when written (a
   * frame laid out for the old width, drawn just after a resize, wrapped as it was written).
   */
  reflowed(columns: number): boolean {
    if (this.columns <= 0 || columns <= 0) return false;
    return columns < this.columns || this.widest > columns;
  }

  /** Whether `chunk`, written now, must start with `eraseReflowed`: only a write that erases the
   * frame (Ink's erase in front). A plain write goes where the cursor is: after Ink's clear (the
   * static output, then the new frame), nothing is left to erase. */
  mustRecount(chunk: string, columns: number): boolean {
    return ERASE_LINES.test(chunk) && this.reflowed(columns);
  }

  /**
   * For the first write after a narrowing: the sequence that takes the cursor (at `cursor`, or
   * resting below the frame) to the frame's first row as reflowed at `columns` and clears the
   * screen from there, and the chunk with Ink's own erase (counted in unreflowed lines) removed.
   */
  eraseReflowed(chunk: string, columns: number, cursor: CursorInFrame | undefined): string {
    const line = Math.max(0, this.lines.length - 1 - (cursor?.up ?? 0));
    let rows = Math.floor((cursor?.column ?? 0) / columns);
    for (let index = 0; index < line; index++) rows += rowsOf(this.lines[index]!, columns);
    this.columns = columns;
    this.widest = 0;
    const up = rows > 0 ? `${ESC}${rows}A` : '';
    return `${up}\r${ESC}J${chunk.replace(ERASE_LINES, '')}`;
  }
}

/** Rows a line takes in a terminal `columns` wide that wraps it. */
function rowsOf(line: string, columns: number): number {
  return Math.max(1, Math.ceil(cellsOf(line) / columns));
}

function cellsOf(line: string): number {
  return stringWidth(stripVTControlCharacters(line));
}
