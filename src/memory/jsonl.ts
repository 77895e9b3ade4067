/**
 * Reading memory JSONL files. Damage never stops a load: a line that is not JSON, not an entry,
 * or absurdly long is skipped and reported with its line number, and kept aside (the raw text)
 * so a later rewrite can save it instead of dropping it.
 */

/** Lines longer than this are not parsed (a runaway paste, a binary file renamed). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

export interface SkippedLine {
  /** 1-based line number in the file. */
  line: number;
  reason: string;
  raw: string;
}

export interface ParsedLines<T> {
  items: Array<{ line: number; value: T }>;
  skipped: SkippedLine[];
}

/** Parses every non-blank line with `accept` (undefined = not a valid item). */
export function parseJsonLines<T>(text: string, accept: (value: unknown) => T | undefined): ParsedLines<T> {
  const items: ParsedLines<T>['items'] = [];
  const skipped: SkippedLine[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    if (raw.trim() === '') continue;
    const line = index + 1;
    if (Buffer.byteLength(raw) > MAX_LINE_BYTES) {
      skipped.push({ line, reason: `longer than ${MAX_LINE_BYTES / 1024 / 1024} MB`, raw });
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      skipped.push({ line, reason: `not JSON (${(error as Error).message})`, raw });
      continue;
    }
    const value = accept(json);
    if (value === undefined) skipped.push({ line, reason: 'not a memory entry (a name, tagline, content and created_at are required)', raw });
    else items.push({ line, value });
  }
  return { items, skipped };
}

/** One sentence per file naming the skipped lines, for notices and CLI output. */
export function describeSkipped(file: string, skipped: readonly SkippedLine[]): string | undefined {
  if (skipped.length === 0) return undefined;
  const shown = skipped.slice(0, 5).map((item) => `line ${item.line}: ${item.reason}`);
  const more = skipped.length > 5 ? `, and ${skipped.length - 5} more` : '';
  return `skipped ${skipped.length} unreadable line(s) in ${file} (${shown.join('; ')}${more}); they are moved to ${file}.corrupt on the next write`;
}
