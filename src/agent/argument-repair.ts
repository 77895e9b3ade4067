import type { ZodError, ZodType } from 'zod';

/**
 * Argument variants whose intent is unambiguous, accepted instead of costing the model a turn:
 * another agent's name for a parameter (`file_path` for `path`), and a boolean or number sent as
 * a string (`"true"`, `"20"`). Applied only after the arguments failed the schema, only where the
 * schema's error points, and every correction is stated in the result so the model learns.
 */

/** Names models use for seek's parameters (from other agents' tools). Renamed only when the real one is absent. */
const PARAMETER_ALIASES: Readonly<Record<string, readonly string[]>> = {
  path: ['file_path', 'filepath', 'filePath', 'file', 'filename', 'target_file', 'absolute_path'],
  old_string: ['old_str', 'oldString', 'old_text', 'oldText', 'search'],
  new_string: ['new_str', 'newString', 'new_text', 'newText', 'replace', 'replacement'],
  replace_all: ['replaceAll'],
  content: ['file_text', 'text', 'contents'],
  command: ['cmd'],
  pattern: ['query', 'regex'],
};

export interface RepairedArguments {
  args: unknown;
  notes: string[];
}

/** The repaired arguments when the repairs make them pass `schema`, else undefined. */
export function repairArguments(raw: unknown, error: ZodError, schema: ZodType): RepairedArguments | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const args: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  const notes: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) renameAlias(args, key, notes);
    } else if (issue.code === 'invalid_type') {
      coerce(args, issue.path, issue.expected, notes);
    }
  }
  if (notes.length === 0) return undefined;
  const parsed = schema.safeParse(args);
  return parsed.success ? { args: parsed.data, notes } : undefined;
}

function renameAlias(args: Record<string, unknown>, key: string, notes: string[]): void {
  for (const [name, aliases] of Object.entries(PARAMETER_ALIASES)) {
    if (!aliases.includes(key) || name in args) continue;
    args[name] = args[key];
    delete args[key];
    notes.push(`read \`${key}\` as \`${name}\``);
    return;
  }
}

/** Turns `"true"`/`"false"` and numeric strings into what the schema expects, at `path`. */
function coerce(args: Record<string, unknown>, path: readonly PropertyKey[], expected: string, notes: string[]): void {
  let holder: unknown = args;
  for (const key of path.slice(0, -1)) {
    if (typeof holder !== 'object' || holder === null) return;
    holder = (holder as Record<PropertyKey, unknown>)[key];
  }
  const key = path[path.length - 1];
  if (key === undefined || typeof holder !== 'object' || holder === null) return;
  const container = holder as Record<PropertyKey, unknown>;
  const value = container[key];
  if (typeof value !== 'string') return;
  const text = value.trim().toLowerCase();
  let repaired: unknown;
  if (expected === 'boolean' && (text === 'true' || text === 'false')) repaired = text === 'true';
  else if (expected === 'number' && /^-?\d+(\.\d+)?$/.test(text)) repaired = Number(text);
  else return;
  container[key] = repaired;
  notes.push(`read ${path.map(String).join('.')}: ${JSON.stringify(value)} as ${String(repaired)}`);
}
