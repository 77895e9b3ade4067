/**
 * A file's text with every CRLF read as LF, and the way back. Matching happens on the LF text, so
 * a model's LF old_string matches CRLF lines in any file (all CRLF or mixed); replacements are
 * spliced into the raw text, so lines the edit does not touch keep their own endings byte for byte.
 */
export class LineEndings {
  readonly lf: string;
  /** LF-text offsets of the newlines that were CRLF, ascending. */
  private readonly crlfAt: number[] = [];

  constructor(readonly raw: string) {
    if (!raw.includes('\r\n')) {
      this.lf = raw;
      return;
    }
    let removed = 0;
    for (let index = raw.indexOf('\r\n'); index !== -1; index = raw.indexOf('\r\n', index + 2)) {
      this.crlfAt.push(index - removed);
      removed += 1;
    }
    this.lf = raw.replace(/\r\n/g, '\n');
  }

  /** Some newline of the file is CRLF: LF-text offsets differ from raw ones. */
  get hasCrlf(): boolean {
    return this.crlfAt.length > 0;
  }

  /** The raw offset of an LF-text offset (an offset at a CRLF newline points at its CR). */
  toRaw(offset: number): number {
    let low = 0;
    let high = this.crlfAt.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.crlfAt[mid]! < offset) low = mid + 1;
      else high = mid;
    }
    return offset + low;
  }

  /**
   * The line ending for new text replacing raw [start, end): the one used inside that region, else
   * the one ending its line, else the file's most common one.
   */
  endingFor(start: number, end: number): '\n' | '\r\n' {
    if (this.crlfAt.length === 0) return '\n'; // an LF file (the common case, and per replacement of a replace_all)
    const region = this.raw.slice(start, end);
    if (region.includes('\r\n')) return '\r\n';
    if (region.includes('\n')) return '\n';
    const next = this.raw.indexOf('\n', end);
    if (next !== -1) return this.raw[next - 1] === '\r' ? '\r\n' : '\n';
    const previous = this.raw.lastIndexOf('\n', start - 1);
    if (previous !== -1) return this.raw[previous - 1] === '\r' ? '\r\n' : '\n';
    return '\n';
  }
}
