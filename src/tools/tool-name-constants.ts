/** Names of tools defined outside tools/index.ts's core set, for the rules and hook matchers that
 * must know them without loading the tools: web_fetch and web_search (tools/web-*.ts; policy's
 * web rules match on them), agent_status (tools/agent-status.ts) and lsp (lsp/tool.ts, a room
 * above this one). */
export const WEB_FETCH_TOOL = 'web_fetch';
export const WEB_SEARCH_TOOL = 'web_search';
export const AGENT_STATUS_TOOL = 'agent_status';
export const LSP_TOOL = 'lsp';
