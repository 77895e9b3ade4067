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
 */
import type { DOMElement } from 'ink';
import { createContext } from 'react';
import { LiveFrame } from './live-frame.js';

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

  constructor(private readonly out: NodeJS.WriteStream) {
    const write = (chunk: unknown, ...rest: unknown[]): boolean => {
      const columns = out.columns || 80;
      let data = chunk;
      let back = '';
      if (typeof chunk === 'string' && !this.disposed && this.switching && !LiveFrame.controlOnly(chunk)) {
        data = this.switchScreen(chunk, columns);
      } else if (typeof chunk === 'string' && !this.disposed && this.frame.mustRecount(chunk, columns)) {
        // The cursor is where it was parked, but the rows under it were reflowed: the erase is
        // counted again for the new width (this replaces the unpark and Ink's own erase).
        data = this.frame.eraseReflowed(chunk, columns, this.parked);
      } else {
        back = this.parked && !this.disposed ? this.unparkSequence() : '';
        data = back && typeof chunk === 'string' ? back + chunk : chunk;
      }
      this.parked = undefined;
      if (back && data === chunk) out.write(back);
      const result = (out.write as (...args: unknown[]) => boolean)(data, ...rest);
      if (typeof chunk === 'string') this.frame.observe(chunk, columns);
      this.queueSettle();
      return result;
    };
    this.stream = new Proxy(out, {
      get(target, property) {
        if (property === 'write') return write;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
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
    if (this.disposed || this.switching || this.frame.reflowed(this.out.columns || 80)) return;
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
    const columns = this.out.columns || 80;
    return { up, column: Math.min(columns - 1, Math.max(0, origin.left + target.column)) };
  }

  private unparkSequence(): string {
    const up = this.parked?.up ?? 0;
    return `${HIDE_CURSOR}${up > 0 ? `${ESC}${up}B` : ''}\r`;
  }
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
