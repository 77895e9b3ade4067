import type { ToolResult } from '../agent/types.js';
import { createAgentTool } from './agent.js';
import { createDelegateTasksTool } from './delegate-tasks.js';
import { createCoreTools, createEnterWorktreeTool, createExitWorktreeTool } from './index.js';
import { TOOL_SEARCH } from '../agent/tool-proxy.js';
import { MEMORY_TOOL_NAMES } from './memory-tools.js';
import { SKILL_TOOL_NAME } from './skill-schema.js';
import { AGENT_STATUS_TOOL, LSP_TOOL, WEB_FETCH_TOOL, WEB_SEARCH_TOOL } from './tool-name-constants.js';

/**
 * The tool names a hook matcher may name. They come from the tool definitions themselves (the
 * factories are pure: each returns a plain object, nothing runs), so a tool added to the registry
 * is matchable without a second list here. Every tool seek can register counts, whether or not a
 * given session has it (worktree tools exist only in git repositories, memory tools only with
 * memory on): a matcher that is valid in one project is valid in all.
 */
let known: readonly string[] | undefined;

export function seekToolNames(): readonly string[] {
  if (known) return known;
  const unused = (): Promise<ToolResult> => Promise.reject(new Error('not callable: used for its name only'));
  const names = [
    ...createCoreTools().map((tool) => tool.name),
    createEnterWorktreeTool({ enter: unused }).name,
    createExitWorktreeTool({ exit: unused, projectRoot: () => '' }).name,
    ...MEMORY_TOOL_NAMES,
    createAgentTool({ types: [], maxConcurrent: 1, spawn: unused }).name,
    createDelegateTasksTool({ roles: [], maxConcurrent: 1, run: unused }).name,
    SKILL_TOOL_NAME,
    WEB_FETCH_TOOL,
    WEB_SEARCH_TOOL,
    AGENT_STATUS_TOOL,
    LSP_TOOL,
    // Loading definitions is a call of its own; call_tool is not here: a call through it runs,
    // and is matched, as the tool it calls (agent/tool-proxy.ts).
    TOOL_SEARCH,
  ];
  known = Object.freeze([...new Set(names)].sort());
  return known;
}

/**
 * Claude Code tool names accepted in matchers, so a hooks file written for Claude Code keeps
 * guarding the same tools. A Map, so names like `constructor` are not found.
 */
export const CLAUDE_CODE_TOOL_ALIASES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    Bash: 'bash',
    Read: 'read_file',
    Write: 'write_file',
    Edit: 'edit_file',
    MultiEdit: 'edit_file',
    Glob: 'glob',
    Grep: 'grep',
    LS: 'list_dir',
    Task: 'agent',
    Agent: 'agent',
    TodoWrite: 'todo_write',
    WebFetch: WEB_FETCH_TOOL,
    WebSearch: WEB_SEARCH_TOOL,
  }),
);

/** MCP tools are registered at run time (`mcp__<server>__<tool>`), so such names are never unknown. */
export const MCP_TOOL_PREFIX = 'mcp__';

/** seek's name for a tool name or Claude Code alias; undefined when it names no known tool. */
export function canonicalToolName(name: string): string | undefined {
  if (name.startsWith(MCP_TOOL_PREFIX)) return name;
  if (seekToolNames().includes(name)) return name;
  return CLAUDE_CODE_TOOL_ALIASES.get(name);
}
