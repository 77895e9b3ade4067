/**
 * `allowed-tools` of skills and custom commands, and the scope that enforces them.
 *
 * Semantics (README "Skills and custom commands"): a list only ever narrows. While a skill loaded
 * by the `skill` tool or a custom command is active, a call to a tool outside its list is refused
 * before the permission policy is asked (the model gets the refusal as the tool result); a call to
 * a listed tool still goes through the session's policy, hooks and approvals unchanged, so nothing
 * is allowed that was not allowed before. Active means: until the user's turn (the prompt that
 * loaded the skill or ran the command) ends. Several active lists intersect. The `skill` tool
 * itself is never refused: loading another skill can only narrow further. A skill or command
 * without `allowed-tools` narrows nothing.
 */
import { canonicalToolName, MCP_TOOL_PREFIX } from '../hooks/tool-names.js';
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
}

/** The limits active in the current turn. The session resets it when a turn starts. */
export class ToolScope {
  private limits: ToolLimit[] = [];

  narrow(limit: ToolLimit): void {
    this.limits.push(limit);
  }

  reset(): void {
    this.limits = [];
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
