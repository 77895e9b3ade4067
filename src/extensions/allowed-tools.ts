/**
 * `allowed-tools` of skills and custom commands, and the scope that enforces them.
 *
 * Semantics (README "Skills and custom commands"), both while a skill loaded by the `skill` tool
 * (or run as `/name`) or a custom command is active, that is until the user's turn (the prompt that
 * loaded or ran it) ends:
 *  - it narrows: a call to a tool outside the list is refused before the permission policy is
 *    asked (the model gets the refusal as the tool result). Several active lists intersect. The
 *    `skill` tool itself is never refused. A skill or command without `allowed-tools` narrows nothing;
 *  - it grants, as in Claude Code: what it lists runs without asking (grants.ts says exactly how far:
 *    never past a deny rule or a config file's ask rule, commands in the sandbox), where its source
 *    is trusted: the user's own files always, a project's once `seek permissions trust` covered
 *    them. Otherwise the listed tools are asked (denied headless) as usual, and the user is told.
 */
import { canonicalToolName, MCP_TOOL_PREFIX } from '../tools/tool-names.js';
import type { PolicyRule } from '../policy/types.js';
import type { ExtensionSource } from './discovery.js';
import { grantRules, isProjectSource } from './grants.js';
import { mapToolNames } from './tool-list.js';

/** Tools seek registers outside the hook-matchable set (MCP's two fixed tools, `skill`). */
const OTHER_TOOLS = new Set(['mcp_search', 'mcp_call', 'skill']);

/** seek's name for an `allowed-tools` entry (`Read`, `read_file`, `mcp__github__*`), or undefined. */
export function allowedToolName(name: string): string | undefined {
  if (OTHER_TOOLS.has(name)) return name;
  if (name === 'Skill') return 'skill';
  return canonicalToolName(name);
}

/** The seek names of an `allowed-tools` value; unknown entries are dropped with a notice (which
 * narrows further: never wider than written). */
export function parseAllowedTools(value: string | readonly string[], notify: (what: string) => void): string[] {
  const mapped = mapToolNames(value, allowedToolName);
  if (mapped.unknown.length > 0) notify(`allowed-tools: unknown tool(s) ${mapped.unknown.join(', ')} dropped`);
  return mapped.names;
}

export interface ToolLimit {
  /** What set it, for the refusal: `skill "review"`, `command /deploy`. */
  readonly by: string;
  readonly tools: readonly string[];
  /** The file and its allowed-tools as written, for the grants (grants.ts). */
  readonly grant?: { file: string; source: ExtensionSource; entries: readonly string[] };
}

/** Where grants go: the session's permission policy. */
export interface GrantTarget {
  addRule(rule: PolicyRule): void;
  removeRule(rule: PolicyRule): boolean;
}

/** The limits active in the current turn. The session resets it when a turn starts and ends. */
export class ToolScope {
  private limits: ToolLimit[] = [];
  private granted: PolicyRule[] = [];
  /** Whether the user trusts the project's grants as they are now (`seek permissions trust`). */
  projectGrantsTrusted = false;

  constructor(private readonly target?: GrantTarget) {}

  /** Narrows the tools of the rest of the turn to the list. */
  narrow(limit: ToolLimit): void {
    this.limits.push(limit);
  }

  /** Grants what the list allows, for the rest of the turn, where its source is trusted (a
   * command's before its `` !`cmd` `` run). Returns notices for the user (grants held back,
   * entries that grant nothing). */
  grant(limit: ToolLimit): string[] {
    const grant = limit.grant;
    if (!grant || !this.target || grant.entries.length === 0) return [];
    if (isProjectSource(grant.source) && !this.projectGrantsTrusted) {
      return [`${limit.by}: its allowed-tools (${grant.entries.join(', ')}) are not pre-approved: ${grant.file} comes with the project, which is not trusted for them. Review it, then run \`seek permissions trust\`. Until then those tools are asked as usual (denied headless).`];
    }
    const notices: string[] = [];
    for (const rule of grantRules(grant.entries, grant.file, (what) => notices.push(`${limit.by} (${grant.file}): ${what}`))) {
      this.target.addRule(rule);
      this.granted.push(rule);
    }
    return notices;
  }

  reset(): void {
    this.limits = [];
    for (const rule of this.granted) this.target?.removeRule(rule);
    this.granted = [];
  }

  get active(): readonly ToolLimit[] {
    return this.limits;
  }

  /** Why this call is refused, or undefined when no active limit excludes it. `callName` is the
   * name rules see (`mcp__server__tool` for mcp_call). */
  refusal(toolName: string, callName: string): string | undefined {
    // Loading a skill or a tool's definition runs nothing: never refused.
    if (toolName === 'skill' || toolName === 'tool_search') return undefined;
    for (const limit of this.limits) {
      if (allows(limit.tools, toolName, callName)) continue;
      const listed = limit.tools.length > 0 ? limit.tools.join(', ') : 'no tools';
      return `${callName} is refused: ${limit.by} allows only ${listed} while it is active (until this turn ends). Use those tools, or finish the turn and let the user decide.`;
    }
    return undefined;
  }
}

function allows(tools: readonly string[], toolName: string, callName: string): boolean {
  return tools.some((entry) => {
    if (entry === toolName || entry === callName) return true;
    if (!entry.startsWith(MCP_TOOL_PREFIX) || !callName.startsWith(MCP_TOOL_PREFIX)) return false;
    // `mcp__github__*` and `mcp__github`: every tool of that server.
    const server = entry.endsWith('*') ? entry.slice(0, -1).replace(/_+$/, '') : entry;
    return !server.slice(MCP_TOOL_PREFIX.length).includes('__') && callName.startsWith(`${server}__`);
  });
}
