import { z } from 'zod';
import type { Tool } from '../agent/types.js';
import type { DeferredToolSource } from '../tools/on-demand.js';
import { createMcpCallTool, type McpToolOptions } from './call-tool.js';
import type { McpManager } from './manager.js';
import { createMcpSearchTool, searchMcpTools } from './search-tool.js';

/** Every MCP tool's name starts with this (`mcp__<server>__<tool>`). */
const MCP_PREFIX = 'mcp__';

/**
 * MCP tools through the one on-demand mechanism (src/tools/on-demand.ts): tool_search finds them
 * by words (their servers connect in the background, so the catalog names only the servers) and
 * a call by their full name, through call_tool or direct, runs as that tool: permission rules,
 * hooks and rows see `mcp__<server>__<tool>`. mcp_search and mcp_call stay callable by name
 * (sessions that used them, models that remember them) but are no longer declared.
 */
export function createMcpToolSource(manager: McpManager, options: McpToolOptions = {}): DeferredToolSource {
  const legacy = new Map<string, Tool>([
    ['mcp_search', createMcpSearchTool(manager, options) as Tool],
    ['mcp_call', createMcpCallTool(manager, options) as Tool],
  ]);
  const call = createMcpCallTool(manager, options);
  return {
    catalog: `MCP servers ${manager.serverNames.join(', ')} (search by words)`,
    replaces: [...legacy.keys()],
    async search(query, limit) {
      const found = await searchMcpTools(manager, options, query, limit);
      // No match while a server is still starting is said, not hidden behind "no tool matches".
      return found.matched || found.pending ? found.text : undefined;
    },
    resolve(name) {
      if (legacy.has(name)) return legacy.get(name);
      if (!name.startsWith(MCP_PREFIX)) return undefined;
      return mcpTool(name, call);
    },
  };
}

// The server's JSON Schema is the check (mcp_call applies it before the server sees anything).
const anyArguments = z.record(z.string(), z.unknown());

/** One MCP tool as a tool of its own name, run by mcp_call. */
function mcpTool(name: string, call: ReturnType<typeof createMcpCallTool>): Tool {
  const tool: Tool<Record<string, unknown>> = {
    name,
    description: `MCP tool ${name}`,
    schema: anyArguments,
    readOnly: false,
    describe: (args, ctx) => call.describe!({ name, arguments: args }, ctx),
    execute: (args, ctx) => call.execute({ name, arguments: args }, ctx),
  };
  return tool as Tool;
}
