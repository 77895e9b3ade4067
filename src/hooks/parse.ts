import { parse as parseToml, TomlError } from 'smol-toml';
import { z } from 'zod';
import { locateInToml } from './locate.js';
import { parseMatcher } from './matcher.js';
import { DEFAULT_HOOK_TIMEOUT_MS, HOOK_EVENTS, type HookDef, type HookEvent, type HookProblem, type HookSource } from './types.js';

/**
 * hooks.toml (seek-spec 2.4), one array of tables per event:
 * ```toml
 * [[pre_tool]]
 * name = "no-force-push"
 * command = "echo \"$SEEK_TOOL_ARGS_JSON\" | grep -q 'push --force' && { echo 'no force pushes'; exit 1; } || exit 0"
 * match = { tool = "bash" }   # optional; "*" or absent = every tool; "Bash|Write" alternations (matcher.ts)
 * timeout_ms = 5000           # optional, default 5000
 * ```
 * Unknown tables or fields, and matchers naming unknown tools, are errors (a typo must not
 * silently disable a guard). A file with any error contributes no hooks at all; each problem names
 * the file, the line (and column when known) and the field. Callers treat such a file as fatal
 * (fail closed): see `hooksStartupError`.
 */
const HookSchema = z.strictObject({
  name: z.string().trim().min(1, 'must be a non-empty string'),
  command: z.string().trim().min(1, 'must be a non-empty string'),
  match: z.strictObject({ tool: z.string().min(1).optional() }).optional(),
  timeout_ms: z.number().int().positive().max(600_000).optional(),
});
const HookList = z.array(HookSchema).optional();
const HooksFileSchema = z.strictObject({
  pre_tool: HookList,
  post_tool: HookList,
  pre_prompt: HookList,
  session_start: HookList,
  session_end: HookList,
  pre_compact: HookList,
  post_compact: HookList,
});

function issuePath(pathParts: readonly PropertyKey[]): string {
  return pathParts
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('');
}

type ParseResult = { hooks: HookDef[]; problems: HookProblem[] };

/** Parses one hooks.toml text. Never throws: errors come back as problems and no hooks. */
export function parseHooksToml(text: string, file: string, source: HookSource): ParseResult {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) {
      const first = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
      return { hooks: [], problems: [{ file, line: error.line, column: error.column, message: `invalid TOML: ${first}` }] };
    }
    return { hooks: [], problems: [{ file, message: `invalid TOML: ${error instanceof Error ? error.message : String(error)}` }] };
  }
  const at = (pathParts: readonly PropertyKey[], message: string): HookProblem => ({ file, ...locateInToml(text, pathParts), message });

  const parsed = HooksFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue): HookProblem => {
      const where = issuePath(issue.path);
      const event = issue.path[0];
      if (issue.path.length === 1 && issue.code === 'invalid_type' && HOOK_EVENTS.includes(event as HookEvent)) {
        return at(issue.path, `${where}: must be an array of tables, written [[${String(event)}]]`);
      }
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys.join(', ');
        const keyPath = [...issue.path, issue.keys[0]!];
        return issue.path.length === 0
          ? at(keyPath, `unknown table ${keys} (known: ${HOOK_EVENTS.join(', ')})`)
          : at(keyPath, `${where}: unknown field ${keys}`);
      }
      return at(issue.path, `${where}: ${issue.message}`);
    });
    return { hooks: [], problems };
  }

  const hooks: HookDef[] = [];
  const problems: HookProblem[] = [];
  for (const event of HOOK_EVENTS) {
    (parsed.data[event] ?? []).forEach((h, index) => {
      const tool = h.match?.tool;
      if (tool !== undefined) {
        const matcher = parseMatcher(tool);
        if (!matcher.ok) problems.push(at([event, index, 'match', 'tool'], `${event}[${index}].match.tool: ${matcher.message}`));
      }
      hooks.push({
        name: h.name,
        command: h.command,
        event,
        ...(tool !== undefined && tool.trim() !== '*' ? { tool } : {}),
        timeoutMs: h.timeout_ms ?? DEFAULT_HOOK_TIMEOUT_MS,
        source,
        file,
      });
    });
  }
  return problems.length > 0 ? { hooks: [], problems } : { hooks, problems: [] };
}
