/**
 * Where in a hooks.toml a validation problem is. The TOML parser reports positions only for syntax
 * errors; for a value that parses but does not validate, this scans the text for the table and key
 * the problem's path names (`pre_tool[1].match.tool` → the second `[[pre_tool]]`, its `match` or
 * `tool` key). Best effort: multi-line strings are skipped roughly, inline arrays of tables
 * (`pre_tool = [{ … }]`) resolve to the array's line, and when the key is not found the table's
 * header line is given. Never throws; undefined when nothing matching is found.
 */
export interface SourcePosition {
  line: number;
  column: number;
}

interface Header {
  /** Dotted name without brackets or quotes: `pre_tool`, `pre_tool.match`. */
  name: string;
  array: boolean;
  line: number;
  column: number;
  /** Index of the first line after the header. */
  bodyStart: number;
}

const HEADER = /^(\s*)(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;

function unquote(dotted: string): string {
  return dotted
    .split('.')
    .map((part) => part.trim().replace(/^["']|["']$/g, ''))
    .join('.');
}

/** Lines outside multi-line strings, with their 0-based index. */
function codeLines(text: string): Array<{ index: number; text: string }> {
  const out: Array<{ index: number; text: string }> = [];
  let inMulti: string | undefined;
  text.split(/\r?\n/).forEach((line, index) => {
    const wasInside = inMulti !== undefined;
    for (const quote of ["'''", '"""']) {
      if (inMulti !== undefined && inMulti !== quote) continue;
      const count = line.split(quote).length - 1;
      if (count % 2 === 1) inMulti = inMulti === undefined ? quote : undefined;
    }
    if (!wasInside) out.push({ index, text: line });
  });
  return out;
}

/** The position of `key = …` (or `key.sub = …`) among lines[from, to), first match. */
function findKey(lines: Array<{ index: number; text: string }>, from: number, to: number, key: string): SourcePosition | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^(\\s*)(?:"${escaped}"|'${escaped}'|${escaped})\\s*[.=]`);
  for (const l of lines) {
    if (l.index < from || l.index >= to) continue;
    const m = pattern.exec(l.text);
    if (m) return { line: l.index + 1, column: m[1]!.length + 1 };
  }
  return undefined;
}

/** Column (1-based) of `key =` inside an inline table on a line, if present. */
function inlineKeyColumn(text: string, key: string): number | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`[{,]\\s*(?:"${escaped}"|'${escaped}'|${escaped})\\s*=`).exec(text);
  if (!m) return undefined;
  return m.index + m[0].search(/[^{,\s]/) + 1;
}

export function locateInToml(text: string, path: readonly PropertyKey[]): SourcePosition | undefined {
  const lines = codeLines(text);
  const headers: Header[] = [];
  for (const l of lines) {
    const m = HEADER.exec(l.text);
    if (m) headers.push({ name: unquote(m[3]!), array: m[2] === '[[', line: l.index + 1, column: m[1]!.length + 1, bodyStart: l.index + 1 });
  }
  const total = text.split(/\r?\n/).length;
  /** End (exclusive, 0-based) of the body of headers[i]: the next header not nested under it. */
  const bodyEnd = (i: number): number => {
    const base = headers[i]!.name;
    for (let j = i + 1; j < headers.length; j++) {
      if (!headers[j]!.name.startsWith(`${base}.`)) return headers[j]!.line - 1;
    }
    return total;
  };
  const rootEnd = headers.length > 0 ? headers[0]!.line - 1 : total;

  const [top, index, field, sub] = path;
  if (typeof top !== 'string') return undefined;
  const atHeader = (h: Header): SourcePosition => ({ line: h.line, column: h.column });
  const topHeader = headers.findIndex((h) => h.name === top || h.name.startsWith(`${top}.`));
  const rootKey = findKey(lines, 0, rootEnd, top);
  if (typeof index !== 'number') return topHeader >= 0 ? atHeader(headers[topHeader]!) : rootKey;

  // The index-th [[top]] table.
  const tables = headers.map((h, i) => ({ h, i })).filter(({ h }) => h.array && h.name === top);
  const table = tables[index];
  if (!table) return rootKey ?? (topHeader >= 0 ? atHeader(headers[topHeader]!) : undefined);
  if (typeof field !== 'string') return atHeader(table.h);
  const end = bodyEnd(table.i);
  const fieldPos = findKey(lines, table.h.bodyStart, end, field);
  if (typeof sub === 'string') {
    // `match = { tool = … }` on one line, or a `[top.match]` sub-table after the header.
    if (fieldPos) {
      const column = inlineKeyColumn(text.split(/\r?\n/)[fieldPos.line - 1] ?? '', sub);
      return column === undefined ? fieldPos : { line: fieldPos.line, column };
    }
    const subIndex = headers.findIndex((h, i) => i > table.i && h.line - 1 < end && h.name === `${top}.${field}`);
    if (subIndex >= 0) return findKey(lines, headers[subIndex]!.bodyStart, bodyEnd(subIndex), sub) ?? atHeader(headers[subIndex]!);
  }
  return fieldPos ?? atHeader(table.h);
}
