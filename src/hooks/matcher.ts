import { CLAUDE_CODE_TOOL_ALIASES, MCP_TOOL_PREFIX, canonicalToolName, seekToolNames } from '../tools/tool-names.js';

/**
 * `match = { tool = "..." }` for pre_tool / post_tool hooks. Grammar (the contract):
 * - absent, or `*`: every tool;
 * - otherwise alternatives separated by `|` (spaces around them are ignored), each one of
 *   - a seek tool name (`bash`, `write_file`, …),
 *   - a Claude Code name (`Bash`, `Write`, `Edit`, `MultiEdit`, …), matching the seek tool it stands for,
 *   - an MCP tool name `mcp__<server>__<tool>` (exact), or an MCP prefix ending in `*` or `.*`
 *     (`mcp__github__*`): MCP tools are dynamic, so these are accepted without checking,
 *   - `*`, which makes the whole matcher match every tool.
 * Anything else is an error: a matcher that can never fire would leave a guard silently off.
 */
export type ToolMatcher = { all: true } | { all: false; names: ReadonlySet<string>; prefixes: readonly string[] };

export type MatcherParse = { ok: true; matcher: ToolMatcher } | { ok: false; message: string };

function unknownToolMessage(name: string): string {
  const lower = name.toLowerCase();
  const near = [...seekToolNames(), ...CLAUDE_CODE_TOOL_ALIASES.keys()].find((known) => known.toLowerCase() === lower);
  return [
    `unknown tool "${name}"${near ? ` (did you mean "${near}"?)` : ''}.`,
    `Known tools: ${seekToolNames().join(', ')}.`,
    `Claude Code names are accepted too: ${[...CLAUDE_CODE_TOOL_ALIASES.keys()].join(', ')}; so are MCP tools (${MCP_TOOL_PREFIX}<server>__<tool>, or a prefix ending in *).`,
  ].join(' ');
}

export function parseMatcher(text: string): MatcherParse {
  const names = new Set<string>();
  const prefixes: string[] = [];
  for (const raw of text.split('|')) {
    const alt = raw.trim();
    if (alt === '') return { ok: false, message: `empty alternative in "${text}" (write names separated by |, or "*" for every tool)` };
    if (alt === '*' || alt === '.*') return { ok: true, matcher: { all: true } };
    if (alt.startsWith(MCP_TOOL_PREFIX) && /\.?\*$/.test(alt)) {
      prefixes.push(alt.replace(/\.?\*$/, ''));
      continue;
    }
    const canonical = canonicalToolName(alt);
    if (canonical === undefined) return { ok: false, message: unknownToolMessage(alt) };
    names.add(canonical);
  }
  return { ok: true, matcher: { all: false, names, prefixes } };
}

const compiled = new Map<string, ToolMatcher | undefined>();

/** The matcher for a hook's `tool` text; undefined (matches nothing) when the text is invalid. */
function matcherFor(text: string): ToolMatcher | undefined {
  if (!compiled.has(text)) {
    const parsed = parseMatcher(text);
    compiled.set(text, parsed.ok ? parsed.matcher : undefined);
  }
  return compiled.get(text);
}

/** Whether a hook with this matcher text (undefined = every tool) fires for the seek tool `tool`. */
export function matchesTool(hook: { tool?: string }, tool: string | undefined): boolean {
  if (hook.tool === undefined) return true;
  const matcher = matcherFor(hook.tool);
  if (!matcher || tool === undefined) return false;
  if (matcher.all) return true;
  return matcher.names.has(tool) || matcher.prefixes.some((prefix) => tool.startsWith(prefix));
}

/** The matcher in seek's names, for listings: `bash|write_file`, `*`. */
export function describeMatcher(tool: string | undefined): string {
  if (tool === undefined) return '*';
  const matcher = matcherFor(tool);
  if (!matcher) return `${tool} (invalid)`;
  if (matcher.all) return '*';
  return [...matcher.names, ...matcher.prefixes.map((p) => `${p}*`)].join('|');
}
