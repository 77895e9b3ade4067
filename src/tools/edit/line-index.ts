/** A text split into lines without copying it: `starts[i]` is where line i begins. */
export class LineIndex {
  readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) this.starts.push(index + 1);
  }

  get count(): number {
    return this.starts.length;
  }

  start(line: number): number {
    return this.starts[line]!;
  }

  /** Offset of the line's newline (or the end of the text for the last line). */
  end(line: number): number {
    return line + 1 < this.starts.length ? this.starts[line + 1]! - 1 : this.text.length;
  }

  line(line: number): string {
    return this.text.slice(this.start(line), this.end(line));
  }

  /** The 0-based line holding `offset`. */
  lineAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}

/** old_string cut into lines, with how each must meet the file's line. */
export interface OldLines {
  lines: string[];
  /** old_string ends with a newline: the match takes the last line's newline too. */
  tailNewline: boolean;
}

export function splitOld(oldString: string): OldLines {
  const lines = oldString.split('\n');
  const tailNewline = lines.length > 1 && lines[lines.length - 1] === '';
  if (tailNewline) lines.pop();
  return { lines, tailNewline };
}
