/**
 * Tool lists as users write them in frontmatter (`tools`, `disallowedTools`, `allowed-tools`):
 * a YAML list, or one string separated by commas or spaces (`Read, Grep` or `Read Grep`), with
 * seek's names or Claude Code's. An argument pattern (`Bash(git add:*)`) names its whole tool:
 * seek never widens by it, and the permission policy still decides each call.
 */

/** Claude Code tool names with a seek equivalent. A Map, so names like `constructor` are not found. */
export const CLAUDE_TOOL_NAMES: ReadonlyMap<string, string> = new Map(Object.entries({
  Read: 'read_file', Write: 'write_file', Edit: 'edit_file', MultiEdit: 'edit_file', Bash: 'bash', Glob: 'glob',
  Grep: 'grep', LS: 'list_dir', Task: 'agent', Agent: 'agent', TodoWrite: 'todo_write', Skill: 'skill',
  WebFetch: 'web_fetch', WebSearch: 'web_search',
}));

export interface MappedTools {
  /** seek names, deduplicated in first-seen order. */
  names: string[];
  /** Entries that name no tool seek knows. */
  unknown: string[];
  /** Entries with an argument pattern (their whole tool is in `names`). */
  patterned: string[];
}

/** Maps entries to seek names; `canonical` turns a bare name into seek's (undefined: unknown). */
export function mapToolNames(value: string | readonly string[], canonical: (name: string) => string | undefined): MappedTools {
  const names: string[] = [];
  const unknown: string[] = [];
  const patterned: string[] = [];
  const entries = typeof value === 'string' ? splitToolList(value) : value.map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const match = /^([^()\s]+)\s*\(.*\)$/s.exec(entry);
    const base = match?.[1] ?? entry;
    const name = canonical(base);
    if (name === undefined) {
      unknown.push(entry);
      continue;
    }
    if (match) patterned.push(entry);
    if (!names.includes(name)) names.push(name);
  }
  return { names, unknown, patterned };
}

/** Splits `Read, Bash(git add:*, git commit:*)` on commas outside parentheses; a list without
 * such a comma (`Read Grep Bash(git status:*)`, Claude Code's skill style) on spaces instead. */
export function splitToolList(text: string): string[] {
  return splitOutsideParentheses(text, (char) => char === ',') ?? splitOutsideParentheses(text, (char) => /\s/.test(char)) ?? [text.trim()].filter(Boolean);
}

/** The pieces between separators at depth 0, or undefined when there is no such separator. */
function splitOutsideParentheses(text: string, isSeparator: (char: string) => boolean): string[] | undefined {
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  let split = false;
  for (const char of text) {
    if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
    if (isSeparator(char) && depth === 0) {
      split = true;
      entries.push(current);
      current = '';
    } else current += char;
  }
  if (!split) return undefined;
  entries.push(current);
  return entries.map((entry) => entry.trim()).filter(Boolean);
}
