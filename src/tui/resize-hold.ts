/**
 * Holds the writes to the terminal while its width is changing, and lets them through, in order,
 * once it has kept one width for RESIZE_QUIET_MS.
 *
 * The live area is erased by moving the cursor up by the rows the last frame takes, counted for
 * the width the terminal has when the bytes are written (live-frame.ts). A terminal that reflows
 * on resize counts rows at the width it has when it *reads* the bytes, and a second resize can
 * come in between: narrowing then widening at once (a window dragged, 120 → 40 → 120) made an
 * erase counted for 40 columns run at 120, erasing rows of the scrollback above the frame, and a
 * frame counted for 120 run at 40 left the top of the old frame (the input's row) twice. While
 * the width changes nothing is written (the terminal reflows what is on screen itself, and the
 * cursor stays where it was); once it stops, the held writes go out at the width they are
 * counted for.
 */

/** How long the terminal must keep one width before the held writes go out. tmux reflows its
 * screen at once but tells the program a new size at most every 250 ms (a burst of resizes
 * reaches it as the first one, then the last, 250 ms later), so a shorter wait would write for a
 * width the screen no longer has. */
export const RESIZE_QUIET_MS = 300;

export class ResizeHold {
  /** The writes held since the width started changing; undefined when nothing is held. */
  private held: Array<() => void> | undefined;
  /** The width the writes that went out were counted for. */
  private width: number;
  /** The width last seen while holding. */
  private changing = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** The terminal's width now (asked of the terminal, not Node's cached `columns`). */
    private readonly columns: () => number,
    /** Called after the held writes went out. */
    private readonly onRelease: () => void,
    private readonly quietMs = RESIZE_QUIET_MS,
  ) {
    this.width = columns();
  }

  /** Whether writes are held now (the width is changing). */
  get holding(): boolean {
    return this.held !== undefined;
  }

  /** Holds `write` if the width is changing (or has just changed): true when it was held. */
  defer(write: () => void): boolean {
    if (!this.held && !this.startIfChanged()) return false;
    this.held!.push(write);
    return true;
  }

  /** The terminal reported a new size (SIGWINCH): start holding, or wait longer. */
  resized(): void {
    if (this.held) {
      this.changing = this.columns();
      this.arm();
    } else this.startIfChanged();
  }

  /** Lets everything held go out now (the program ends). */
  release(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    this.width = this.columns();
    for (const write of held) write();
    this.onRelease();
  }

  private startIfChanged(): boolean {
    const now = this.columns();
    if (now === this.width) return false;
    this.held = [];
    this.changing = now;
    this.arm();
    return true;
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), this.quietMs);
  }

  private check(): void {
    const now = this.columns();
    if (now !== this.changing) {
      this.changing = now;
      this.arm();
      return;
    }
    this.release();
  }
}
