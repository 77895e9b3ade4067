import type { Tool } from '../agent/types.js';
import { createMcpCallTool, type McpToolOptions } from './call-tool.js';
import type { McpManager } from './manager.js';
import { createMcpSearchTool } from './search-tool.js';

export { createMcpToolSource } from './deferred.js';

/** The two tools through which the model reaches every MCP tool (see search-tool.ts). In a module
 * of their own with the on-demand source: a session without a running server never loads them
 * (runtime/prepare.ts imports this only when one will run). */
export function createMcpTools(manager: McpManager, options: McpToolOptions = {}): Tool[] {
  return [createMcpSearchTool(manager, options) as Tool, createMcpCallTool(manager, options) as Tool];
}
