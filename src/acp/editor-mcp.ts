/**
 * MCP servers the editor passes in `session/new` / `session/load` (Zed's context servers, for
 * instance), as seek's own server configurations of scope `editor`: they run for that session
 * only, need no approval (the user configured them in the editor), and are reached like any other
 * server (mcp_search / mcp_call, `mcp__<server>__<tool>` in rules and hooks). A name that is not a
 * valid server name is made one (other characters become `_`).
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import { definitionHash, SERVER_NAME, type ConfiguredServer, type ServerDefinition } from '../mcp/config.js';

const FILE = '(the editor, over ACP)';

function serverName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return SERVER_NAME.test(cleaned) ? cleaned : 'editor';
}

function definitionOf(server: McpServer): ServerDefinition {
  if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
    const headers = Object.fromEntries(server.headers.map((header) => [header.name, header.value]));
    return { type: server.type, url: server.url, ...(server.headers.length > 0 ? { headers } : {}) };
  }
  const stdio = server as Extract<McpServer, { command: string }>;
  const env = Object.fromEntries(stdio.env.map((variable) => [variable.name, variable.value]));
  return { command: stdio.command, args: stdio.args, ...(stdio.env.length > 0 ? { env } : {}) };
}

export function editorMcpServers(servers: readonly McpServer[] | undefined): ConfiguredServer[] {
  const seen = new Set<string>();
  const configured: ConfiguredServer[] = [];
  for (const server of servers ?? []) {
    const name = serverName(server.name);
    if (seen.has(name)) continue; // the first of a name wins, as in config files
    seen.add(name);
    const definition = definitionOf(server);
    configured.push({ name, scope: 'editor', file: FILE, definition, hash: definitionHash(definition) });
  }
  return configured;
}
