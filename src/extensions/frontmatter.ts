/**
 * The Markdown-with-YAML-frontmatter format shared by subagent definitions, skills and custom
 * commands: an optional `---` block of YAML fields, then the body. Pure functions, no I/O.
 */
import type { parseDocument as ParseDocument } from 'yaml';

/** The YAML parser, loaded by `loadYamlParser` only when a frontmatter file exists: most projects
 * have none, and start-up is measured. */
let parseDocument: typeof ParseDocument | undefined;

/** Loads the YAML parser; call (and await) it before any parse function of this file. */
export async function loadYamlParser(): Promise<void> {
  // Bundled, the CommonJS build of yaml comes back as `default` only.
  const yaml = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  parseDocument ??= yaml.parseDocument ?? yaml.default?.parseDocument;
}

/** Splits `---\n<yaml>\n---\n<body>`; undefined when the text does not open with a closed block.
 * A leading BOM and CRLF line ends are accepted. */
export function splitFrontmatter(text: string): { frontmatter: string; body: string } | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return undefined;
  const close = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
  if (close < 0) return undefined;
  return { frontmatter: lines.slice(1, close).join('\n'), body: lines.slice(close + 1).join('\n') };
}

/** The frontmatter's fields as a plain object, or the reason it is unusable. */
export function parseYamlFields(source: string): { value: Record<string, unknown> } | { error: string } {
  if (!parseDocument) throw new Error('internal: loadYamlParser() must run before frontmatter is parsed');
  try {
    const doc = parseDocument(source, { uniqueKeys: true, prettyErrors: true });
    const error = doc.errors[0];
    if (error) return { error: `invalid YAML frontmatter: ${firstLine(error.message)}` };
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    // An empty block (`---\n---`) holds no fields.
    if (value === null || value === undefined) return { value: {} };
    if (typeof value !== 'object' || Array.isArray(value)) return { error: 'the frontmatter is not a YAML mapping of fields' };
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { error: `invalid YAML frontmatter: ${firstLine(error instanceof Error ? error.message : String(error))}` };
  }
}

/**
 * Like parseYamlFields, but a block that is not valid YAML only because of plain `key: value`
 * lines whose value holds `: ` (`description: Use when: …`, common in skills written by hand) is
 * read line by line, each value a string. Anything else that fails stays an error.
 */
export function parseFieldsLeniently(source: string): { value: Record<string, unknown> } | { error: string } {
  const strict = parseYamlFields(source);
  if (!('error' in strict)) return strict;
  const lines = source.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  const value: Record<string, unknown> = {};
  for (const line of lines) {
    const match = /^([A-Za-z][\w-]*):[ \t]+(\S.*)$/.exec(line);
    if (!match || match[1]! in value || /^["'[{|>&*!]/.test(match[2]!)) return strict;
    value[match[1]!] = match[2]!.trim();
  }
  return { value };
}

/** Drops null and undefined fields: an empty `model:` line means "not set". */
export function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null && value !== undefined));
}

/** The first line of a YAML error, without the trailing colon that introduces its excerpt. */
export const firstLine = (text: string): string => (text.split('\n', 1)[0] ?? '').trim().replace(/:$/, '');

/** Collapses whitespace (descriptions often span lines) and caps the length, by code points. */
export function oneLine(text: string, maxChars: number): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= maxChars ? chars.join('') : `${chars.slice(0, maxChars - 1).join('')}…`;
}
