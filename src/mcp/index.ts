export { McpManager, qualifiedName, type ServerStatus } from './manager.js';
export { loadMcpConfig, mcpFiles, type ConfiguredServer, type McpScope, type ServerDefinition } from './config.js';
export type { ElicitationAnswer, ElicitationHandler, ElicitationRequest } from './elicitation.js';
export { approvalDetails, approvalStates, approvedFiles, setApprovals, type ApprovalDetail } from './approvals.js';
// The model-facing tools (createMcpTools, createMcpToolSource) are in ./tools.js, loaded only when a server runs.
