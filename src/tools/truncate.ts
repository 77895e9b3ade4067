/**
 * Output caps shared by every tool, so the model always sees the same markers:
 * - command output keeps its head and tail around `[… N chars omitted …]`;
 * - listings stop at a line/char budget and report how much was left out;
 * - single over-long lines are cut with `… [+N chars]`.
 */

/** Model-facing cap for command output (bash). */
export const COMMAND_OUTPUT_MAX_CHARS = 30_000;

/**
 * Keeps the first and last `maxChars / 2` characters of a stream of text, counting what falls in
 * between. Memory stays bounded however much is pushed, so it can sit behind a noisy process.
 */
export class HeadTailBuffer {
  private head = '';
  private tailChunks: string[] = [];
  private tailLength = 0;
  private total = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(maxChars: number = COMMAND_OUTPUT_MAX_CHARS) {
    this.headMax = Math.ceil(maxChars / 2);
    this.tailMax = Math.floor(maxChars / 2);
  }

  push(text: string): void {
    if (text === '') return;
    this.total += text.length;
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
      if (text === '') return;
    }
    this.tailChunks.push(text);
    this.tailLength += text.length;
    // Drop whole chunks from the front while the rest still covers the tail window.
    while (this.tailChunks.length > 1 && this.tailLength - this.tailChunks[0]!.length >= this.tailMax) {
      this.tailLength -= this.tailChunks.shift()!.length;
    }
  }

  /** Characters left out of `toString()`. */
  get omittedChars(): number {
    return Math.max(0, this.total - this.head.length - Math.min(this.tailLength, this.tailMax));
  }

  get totalChars(): number {
    return this.total;
  }

  toString(): string {
    const tailAll = this.tailChunks.join('');
    if (this.omittedChars === 0) return this.head + tailAll;
    const tail = tailAll.slice(tailAll.length - this.tailMax);
    return `${this.head}\n[… ${this.omittedChars} chars omitted …]\n${tail}`;
  }
}

/** `text` cut to at most about `maxChars`, keeping head and tail (see HeadTailBuffer). */
export function truncateHeadTail(text: string, maxChars: number = COMMAND_OUTPUT_MAX_CHARS): string {
  const buffer = new HeadTailBuffer(maxChars);
  buffer.push(text);
  return buffer.toString();
}

/** One line cut to `maxChars`, with a marker saying how much was dropped. */
export function truncateLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  return `${line.slice(0, maxChars)}… [+${line.length - maxChars} chars]`;
}

/**
 * A budget of output lines and characters. `add` accepts lines until either cap would be passed;
 * after that it only counts what was refused, so the caller can say how much is missing.
 */
export class LineBudget {
  readonly lines: string[] = [];
  private chars = 0;
  private refused = 0;

  constructor(
    private readonly maxLines: number,
    private readonly maxChars: number = Number.POSITIVE_INFINITY,
  ) {}

  /** Adds `line` if it fits; returns false (and counts it) once the budget is spent. */
  add(line: string): boolean {
    const cost = line.length + 1;
    if (this.refused > 0 || this.lines.length >= this.maxLines || this.chars + cost > this.maxChars) {
      this.refused += 1;
      return false;
    }
    this.lines.push(line);
    this.chars += cost;
    return true;
  }

  /** Counts lines that were never offered to `add` (e.g. counted cheaply after the cap). */
  countRefused(lines: number): void {
    this.refused += lines;
  }

  get full(): boolean {
    return this.refused > 0 || this.lines.length >= this.maxLines;
  }

  get omitted(): number {
    return this.refused;
  }

  get usedChars(): number {
    return this.chars;
  }
}
