import type { ActionKind } from '../agent/types.js';
import type { PolicyRule, RuleDecision, RuleSource } from './types.js';
import { CLAUDE_WEB_TOOLS, WEB_FETCH_TOOL, WEB_SEARCH_TOOL, webSpecifierError } from './web-rules.js';

/**
 * Permission rules as people write them in config files: Claude Code's syntax, with seek's tool
 * names accepted too (CONTRACT "permissions"):
 *   `Bash`, `Bash(npm test)`, `Bash(npm test:*)` (prefix: `npm test` and `npm test …`),
 *   `Bash(git diff *)` (`*`: any run of characters, never across `;`, `&&`, `|`… in allow rules),
 *   `Read(./.env)`, `Edit(src/**)`, `Write(//tmp/x)`, `Read(~/.ssh/**)`,
 *   `WebFetch(domain:example.com)`, `WebSearch` (policy/web-rules.ts),
 *   `mcp__github` or `mcp__github__*` (every tool of that MCP server), `mcp__github__create_issue`,
 *   `bash(npm test)`, `write_file(src/**)`, `write_file(/tmp/x/**)`, `memory_remember` (seek's
 *   names take seek's own path form, as `formatRule` prints it).
 * Path patterns follow Claude Code: `//abs` is absolute, `~/x` is in the home directory, `/x` and
 * `./x` are relative to the project root, and a name without `/` (`.env`, `*.pem`) matches at
 * any depth, as in .gitignore.
 */

/** Claude Code's tool names, mapped to what seek's policy matches. `Edit` covers every file-editing
 * tool (edit and write); `Read` every reading tool (read_file, glob, grep, list_dir), as in Claude. */
const CLAUDE_TOOLS: ReadonlyMap<string, { tools?: string[]; kinds?: ActionKind[] }> = new Map(
  Object.entries({
    Bash: { tools: ['bash'] },
    Read: { kinds: ['read'] },
    Edit: { kinds: ['edit', 'write'] },
    MultiEdit: { kinds: ['edit', 'write'] },
    Write: { kinds: ['write'] },
    NotebookEdit: { kinds: ['edit'] },
    Glob: { tools: ['glob'] },
    Grep: { tools: ['grep'] },
    LS: { tools: ['list_dir'] },
    Task: { tools: ['agent'] },
    Agent: { tools: ['agent'] },
    TodoWrite: { tools: ['todo_write'] },
  }),
);

/** Claude Code tools seek does not have: rules naming them are kept but can never match. */
const CLAUDE_TOOLS_SEEK_LACKS = new Set(['BashOutput', 'KillShell', 'ExitPlanMode', 'SlashCommand']);

export interface ParsedRuleText {
  /** The policy rules the text stands for (one text may cover several tools or kinds). */
  rules: PolicyRule[];
  /** Set when the rule names a tool seek does not have (kept, never matches). */
  inert?: string;
}

export class RuleSyntaxError extends Error {
  override readonly name = 'RuleSyntaxError';
}

/**
 * Parses one rule text. `knownTools` are seek's tool names (a name that is neither one of them, a
 * Claude Code name nor an MCP name is an error that lists the known names: a typo in a deny rule
 * must not silently allow). Throws RuleSyntaxError.
 */
export function parseRuleText(text: string, decision: RuleDecision, source: RuleSource, knownTools: readonly string[]): ParsedRuleText {
  const trimmed = text.trim();
  // `mcp__github__*`: every tool of the server, as Claude Code users write it (same as `mcp__github`).
  if (/^mcp__[\w-]+?__\*$/.test(trimmed)) return { rules: [{ decision, source, origin: { text: trimmed }, tool: trimmed.slice(0, -3) }] };
  const match = /^([A-Za-z_][\w-]*)(?:\((.*)\))?$/s.exec(trimmed);
  if (!match) throw new RuleSyntaxError(`"${text}" is not a rule: write Tool or Tool(specifier), e.g. Bash(npm test:*) or Edit(src/**)`);
  const name = match[1]!;
  const specifier = match[2];
  if (specifier !== undefined && specifier.trim() === '') throw new RuleSyntaxError(`"${text}": empty parentheses; write ${name} to match every call`);
  const origin = { text: trimmed };
  const base = { decision, source, origin };

  if (name.startsWith('mcp__')) {
    if (specifier !== undefined) throw new RuleSyntaxError(`"${text}": MCP rules take no specifier`);
    return { rules: [{ ...base, tool: name }] };
  }
  const webTool = CLAUDE_WEB_TOOLS.get(name) ?? (name === WEB_FETCH_TOOL || name === WEB_SEARCH_TOOL ? name : undefined);
  if (webTool) {
    const problem = webSpecifierError(webTool, specifier);
    if (problem) throw new RuleSyntaxError(`"${text}": ${problem}`);
    return { rules: [{ ...base, tool: webTool, ...(specifier === undefined ? {} : { pattern: specifier.trim() }) }] };
  }
  if (CLAUDE_TOOLS_SEEK_LACKS.has(name)) return { rules: [{ ...base, tool: name }], inert: `${name} is a Claude Code tool seek does not have` };

  const claude = CLAUDE_TOOLS.get(name);
  const seekTool = knownTools.includes(name) ? name : undefined;
  if (!claude && !seekTool) {
    throw new RuleSyntaxError(
      `"${text}": unknown tool ${name}. Known: ${[...CLAUDE_TOOLS.keys()].join(', ')}, ${knownTools.join(', ')}, and mcp__<server>[__<tool>]`,
    );
  }
  // Claude Code names take Claude's path conventions; seek's own names take seek's (the form
  // formatRule writes: absolute stays absolute, relative is anchored at the root).
  const onCommand = name === 'Bash' || seekTool === 'bash';
  const pattern = specifier === undefined ? undefined : onCommand || seekTool ? specifier.trim() : pathPattern(specifier.trim());
  const withPattern = pattern === undefined ? {} : { pattern };
  if (seekTool) return { rules: [{ ...base, tool: seekTool, ...withPattern }] };
  const rules: PolicyRule[] = [
    ...(claude!.tools ?? []).map((tool): PolicyRule => ({ ...base, tool, ...withPattern })),
    ...(claude!.kinds ?? []).map((kind): PolicyRule => ({ ...base, kind, ...withPattern })),
  ];
  return { rules };
}

/** Claude Code path specifier → seek's path glob (absolute, `~/…`, or relative to the root). */
export function pathPattern(spec: string): string {
  if (spec.startsWith('//')) return spec.slice(1);
  if (spec.startsWith('~')) return spec;
  const relative = spec.startsWith('./') ? spec.slice(2) : spec.startsWith('/') ? spec.slice(1) : spec;
  // gitignore semantics: a pattern without a slash matches at any depth.
  if (!spec.startsWith('/') && !spec.startsWith('./') && !relative.includes('/')) return `**/${relative}`;
  return relative;
}
