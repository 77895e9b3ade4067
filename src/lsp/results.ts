/**
 * Answers of the language server as text for the model: locations with their line's text, hover
 * contents, symbol outlines. Everything 1-based, paths relative to the tree.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { shownPath } from './format.js';

interface Range {
  start: { line: number; character: number };
}
interface LocationLike {
  uri?: string;
  range?: Range;
  targetUri?: string;
  targetSelectionRange?: Range;
}

const MAX_LOCATIONS = 50;

/** Location | Location[] | LocationLink[] | null, each as `path:line:col: text of the line`. */
export async function formatLocations(found: unknown, base: string, title: string): Promise<string> {
  const list = (Array.isArray(found) ? found : found ? [found] : []) as LocationLike[];
  const locations = list
    .map((item) => ({ uri: item.targetUri ?? item.uri, range: item.targetSelectionRange ?? item.range }))
    .filter((item): item is { uri: string; range: Range } => typeof item.uri === 'string' && item.range !== undefined);
  if (locations.length === 0) return `${title}: none found.`;
  const texts = new Map<string, string[] | undefined>();
  const lines: string[] = [`${title}: ${locations.length}${locations.length > MAX_LOCATIONS ? ` (the first ${MAX_LOCATIONS} shown)` : ''}`];
  for (const { uri, range } of locations.slice(0, MAX_LOCATIONS)) {
    if (!texts.has(uri)) texts.set(uri, await linesOf(uri));
    const text = texts.get(uri)?.[range.start.line]?.trim().slice(0, 200);
    lines.push(`  ${shownPath(uri, base)}:${range.start.line + 1}:${range.start.character + 1}${text ? `: ${text}` : ''}`);
  }
  return lines.join('\n');
}

async function linesOf(uri: string): Promise<string[] | undefined> {
  try {
    return (await readFile(fileURLToPath(uri), 'utf8')).split('\n');
  } catch {
    return undefined;
  }
}

/** Hover contents: MarkupContent, MarkedString or an array of them, as plain text. */
export function formatHover(hover: { contents: unknown } | null): string {
  if (!hover) return '';
  const part = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return value.map(part).filter(Boolean).join('\n');
    if (value && typeof value === 'object' && 'value' in value) {
      const { value: text, language } = value as { value: unknown; language?: unknown };
      return typeof language === 'string' ? `\`\`\`${language}\n${String(text)}\n\`\`\`` : String(text);
    }
    return '';
  };
  return part(hover.contents).trim().slice(0, 4000);
}

const KINDS = ['', 'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum', 'interface', 'function', 'variable', 'constant', 'string', 'number', 'boolean', 'array', 'object', 'key', 'null', 'enum member', 'struct', 'event', 'operator', 'type parameter'];

interface SymbolLike {
  name: string;
  kind: number;
  range?: Range;
  selectionRange?: Range;
  location?: { range: Range };
  children?: SymbolLike[];
}

/** DocumentSymbol[] (nested) or SymbolInformation[] (flat), one line each, indented by depth. */
export function formatSymbols(symbols: unknown[], shown: string): string {
  const lines: string[] = [];
  const walk = (list: SymbolLike[], depth: number): void => {
    for (const symbol of list) {
      if (lines.length >= 300) return;
      const range = symbol.selectionRange ?? symbol.range ?? symbol.location?.range;
      lines.push(`${'  '.repeat(depth + 1)}${KINDS[symbol.kind] ?? 'symbol'} ${symbol.name}${range ? ` (line ${range.start.line + 1})` : ''}`);
      if (symbol.children) walk(symbol.children, depth + 1);
    }
  };
  walk(symbols as SymbolLike[], 0);
  return lines.length > 0 ? `Symbols of ${shown}:\n${lines.join('\n')}` : `No symbols in ${shown}.`;
}
