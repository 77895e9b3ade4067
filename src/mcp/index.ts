import type { Tool } from '../agent/types.js';
import { createMcpCallTool, type McpToolOptions } from './call-tool.js';
import type { McpManager } from './manager.js';
import { createMcpSearchTool } from './search-tool.js';

export { McpManager, qualifiedName, type ServerStatus } from './manager.js';
export { loadMcpConfig, mcpFiles, type ConfiguredServer, type McpScope, type ServerDefinition } from './config.js';
export type { ElicitationAnswer, ElicitationHandler, ElicitationRequest } from './elicitation.js';
export { approvalStates, setApprovals } from './approvals.js';
export { createMcpToolSource } from './deferred.js';

/** The two tools through which the model reaches every MCP tool (see search-tool.ts). */
export function createMcpTools(manager: McpManager, options: McpToolOptions = {}): Tool[] {
  return [createMcpSearchTool(manager, options) as Tool, createMcpCallTool(manager, options) as Tool];
}
