/**
 * The terminal's own (hardware) cursor at the input editor's insertion point, so that IMEs draw
 * their composition there and screen readers and magnifiers follow the typing.
 *
 * Ink draws each frame assuming the cursor rests just below its output (column 0 of the line after
 * the last one) and keeps it hidden. This module sits between Ink and the terminal: Ink writes
 * through `stream`; before anything it writes reaches the terminal, a parked cursor is moved back
 * to where Ink left it and hidden, and once Ink is done (a microtask later) the cursor is moved up
 * to the insertion point and shown. Ink's own `useCursor` is not used: its position must be known
 * while rendering, before the layout it depends on is computed, and it is dropped by every frame
 * the editor itself does not re-render (a spinner tick), which would hide the cursor mid-turn.
 *
 * The insertion point is read from the layout when the cursor is parked: the editor registers a
 * target (its box and the cell of the insertion point inside it) while it has focus; the box's
 * offset in Ink's output is the sum of the yoga offsets up to the root, and the output's height
 * is the root's.
 *
 * Every write is counted for the width the terminal reports at that moment (`terminalColumns`),
 * and while that width is changing Ink's writes are held and the cursor left where it is, then
 * let through in order once it has stopped (resize-hold.ts).
 */
import type { DOMElement } from 'ink';
import { createContext } from 'react';
import { LiveFrame } from './live-frame.js';
import { ResizeHold } from './resize-hold.js';

export interface CursorTarget {
  /** The element the cell is relative to (its top-left corner is row 0, column 0). */
  readonly box: { readonly current: DOMElement | null };
  readonly row: number;
  readonly column: number;
}

/** Where the cursor is, counted from Ink's resting position: rows up, and the column. */
interface Parked {
  readonly up: number;
  readonly column: number;
}

const ESC = '\u001b[';
export const SHOW_CURSOR = `${ESC}?25h`;
export const HIDE_CURSOR = `${ESC}?25l`;

export class TerminalCursor {
  /** The stream to give Ink (and to anything else that writes while Ink runs). */
  readonly stream: NodeJS.WriteStream;
  private target: CursorTarget | undefined;
  private parked: Parked | undefined;
  private settleQueued = false;
  private disposed = false;
  /** Ink's last frame, to erase it right once a narrower terminal reflowed it (live-frame.ts). */
  private frame = new LiveFrame();

  /** A switch to or from the alternate screen, done at Ink's next drawing write. */
  private switching: 'enter' | 'leave' | undefined;
  /** On the alternate screen: the main screen's frame and where the cursor was on it. */
  private main: { frame: LiveFrame; parked: Parked | undefined } | undefined;

  /** Writes held while the terminal's width is changing (resize-hold.ts). */
  private readonly hold: ResizeHold;
  private readonly onResize = (): void => {
    if (!this.disposed) this.hold.resized();
  };

  constructor(private readonly out: NodeJS.WriteStream) {
    this.hold = new ResizeHold(
      () => terminalColumns(out),
      () => this.queueSettle(),
    );
    // Before Ink's own resize handler, which writes at once.
    out.prependListener('resize', this.onResize);
    const write = (chunk: unknown, ...rest: unknown[]): boolean => {
      if (!this.disposed && this.hold.defer(() => this.pass(chunk, rest))) return true;
      return this.pass(chunk, rest);
    };
    this.stream = new Proxy(out, {
      get(target, property) {
        if (property === 'write') return write;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /** Writes one of Ink's chunks, with the cursor brought back from where it was parked first. */
  private pass(chunk: unknown, rest: unknown[]): boolean {
    const out = this.out;
    const columns = terminalColumns(out);
    const text = typeof chunk === 'string' && !this.disposed ? chunk : undefined;
    let data = chunk;
    let back = '';
    if (text !== undefined && this.switching && !LiveFrame.controlOnly(text)) {
      data = this.switchScreen(text, columns);
    } else if (text !== undefined && this.frame.mustRecount(text, columns)) {
      // The cursor is where it was parked, but the rows under it were reflowed: the erase is
      // counted again for the new width (this replaces the unpark and Ink's own erase).
      data = this.frame.eraseReflowed(text, columns, this.parked);
    } else if (text !== undefined && LiveFrame.controlOnly(text) && this.frame.reflowed(columns)) {
      // Draws nothing (synchronized-output brackets): the cursor stays parked, for the erase that
      // follows to be counted from there (moving it down by rows counted before the reflow would
      // not reach the frame's bottom).
      return (out.write as (...args: unknown[]) => boolean)(chunk, ...rest);
    } else {
      back = this.parked && !this.disposed ? this.unparkSequence() : '';
      data = back && text !== undefined ? back + text : chunk;
    }
    this.parked = undefined;
    if (back && data === chunk) out.write(back);
    const result = (out.write as (...args: unknown[]) => boolean)(data, ...rest);
    if (text !== undefined) this.frame.observe(text, columns);
    this.queueSettle();
    return result;
  }

  /** The editor with focus says where its insertion point is; `undefined` hides the cursor. */
  setTarget(target: CursorTarget | undefined): void {
    this.target = target;
    this.queueSettle();
  }

  /** Clears `target` if it is still the current one (an editor losing focus or unmounting). */
  release(target: CursorTarget): void {
    if (this.target === target) this.setTarget(undefined);
  }

  /**
   * The frames Ink draws from its next one on go to the terminal's alternate screen (a full-screen
   * view): the main screen, its scrollback and the live area on it stay exactly as they are.
   * Call in the same handler as the state change that renders the view, before Ink draws it.
   */
  enterAlternateScreen(): void {
    if (this.main || this.switching === 'enter') return;
    this.switching = this.switching === 'leave' ? undefined : 'enter';
  }

  /** Back to the main screen at Ink's next frame: the frame left there is erased (counted in the
   * rows it takes now) and the new one drawn in its place. */
  leaveAlternateScreen(): void {
    if (!this.main && this.switching !== 'enter') return;
    this.switching = this.switching === 'enter' ? undefined : 'leave';
  }

  private switchScreen(chunk: string, columns: number): string {
    const to = this.switching;
    this.switching = undefined;
    if (to === 'enter') {
      // 1049h saves the cursor (where it was parked on the main screen) and clears the other one.
      this.main = { frame: this.frame, parked: this.parked };
      this.frame = new LiveFrame();
      return `${ESC}?1049h${ESC}H${ESC}2J${LiveFrame.withoutErase(chunk)}`;
    }
    const main = this.main!;
    this.main = undefined;
    this.frame = main.frame;
    return `${ESC}?1049l${main.frame.eraseReflowed(chunk, columns, main.parked)}`;
  }

  /** Puts the cursor back where Ink expects it and stops following the editor. */
  dispose(): void {
    if (this.disposed) return;
    this.hold.release();
    this.out.off('resize', this.onResize);
    if (this.main) this.out.write(`${ESC}?1049l`);
    this.main = undefined;
    if (this.parked) this.out.write(this.unparkSequence());
    this.parked = undefined;
    this.disposed = true;
  }

  private queueSettle(): void {
    if (this.settleQueued || this.disposed) return;
    this.settleQueued = true;
    queueMicrotask(() => {
      this.settleQueued = false;
      this.settle();
    });
  }

  /** Moves the cursor to the insertion point of the current layout, if it is not there already. */
  private settle(): void {
    // After a narrowing the cursor stays put until Ink's next write erases the reflowed frame.
    if (this.disposed || this.switching || this.hold.holding || this.frame.reflowed(terminalColumns(this.out))) return;
    const wanted = this.wantedPosition();
    const current = this.parked;
    if (wanted?.up === current?.up && wanted?.column === current?.column) return;
    const back = current ? this.unparkSequence() : '';
    this.parked = wanted;
    this.out.write(back + (wanted ? parkSequence(wanted) : ''));
  }

  private wantedPosition(): Parked | undefined {
    const target = this.target;
    const box = target?.box.current;
    if (!target || !box) return undefined;
    const origin = offsetInOutput(box);
    if (!origin) return undefined;
    const rows = this.out.rows || 24;
    // Ink leaves out the final newline when its output fills the screen (see Ink's onRender).
    const resting = origin.outputHeight >= rows ? origin.outputHeight - 1 : origin.outputHeight;
    const up = resting - (origin.top + target.row);
    if (up < 0 || up > rows - 1) return undefined;
    const columns = terminalColumns(this.out);
    return { up, column: Math.min(columns - 1, Math.max(0, origin.left + target.column)) };
  }

  private unparkSequence(): string {
    const up = this.parked?.up ?? 0;
    return `${HIDE_CURSOR}${up > 0 ? `${ESC}${up}B` : ''}\r`;
  }
}

/**
 * The terminal's width now, asked of the terminal itself (TIOCGWINSZ, as Node does on SIGWINCH).
 * `stream.columns` changes only when Node handles the SIGWINCH, an event-loop turn or a long
 * render later; a terminal that reflows on resize has by then already laid out the frame's rows
 * for the new width, and a park or an erase counted for the old one lands on the wrong row (the
 * input's row left twice). Falls back to `columns` for streams without a terminal handle.
 */
export function terminalColumns(stream: NodeJS.WriteStream): number {
  const handle = (stream as { _handle?: { getWindowSize?: (size: number[]) => number } })._handle;
  if (typeof handle?.getWindowSize === 'function') {
    const size: number[] = [];
    if (handle.getWindowSize(size) === 0 && (size[0] ?? 0) > 0) return size[0]!;
  }
  return stream.columns || 80;
}

function parkSequence(position: Parked): string {
  return `${position.up > 0 ? `${ESC}${position.up}A` : ''}${ESC}${position.column + 1}G${SHOW_CURSOR}`;
}

/** The element's offset inside Ink's (non-static) output and that output's height; undefined when
 * the element is not attached to a laid-out root. */
export function offsetInOutput(element: DOMElement): { top: number; left: number; outputHeight: number } | undefined {
  let top = 0;
  let left = 0;
  let node: DOMElement | undefined = element;
  while (node) {
    if (!node.yogaNode) return undefined;
    if (node.nodeName === 'ink-root') return { top, left, outputHeight: Math.round(node.yogaNode.getComputedHeight()) };
    top += node.yogaNode.getComputedTop();
    left += node.yogaNode.getComputedLeft();
    node = node.parentNode;
  }
  return undefined;
}

/** The cursor the input editor reports to; absent (tests, benchmarks) it draws an inverse cell. */
export const TerminalCursorContext = createContext<TerminalCursor | undefined>(undefined);
