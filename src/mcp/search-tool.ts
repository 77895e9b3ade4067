import { z } from 'zod';
import type { Tool } from '../agent/types.js';
import { integerAtLeast } from '../tools/schema.js';
import type { McpToolOptions } from './call-tool.js';
import type { McpManager, QualifiedTool } from './manager.js';

const schema = z
  .object({
    query: z.string().describe('Words to find in tool names and descriptions; "" lists every tool'),
    limit: integerAtLeast(1).optional().describe('Most schemas to load (default 5)'),
  })
  .strict();

/** How long a search waits for servers still starting before it answers with what is ready. */
const SETTLE_MS = 15_000;
const DEFAULT_LIMIT = 5;
const LIST_LIMIT = 100;

/**
 * mcp_search: the deferred half of MCP tools. The model sees only the servers' names up front;
 * this returns the full definitions (description, parameters, annotations) of the tools it asks
 * for, as a tool result, so they join the history append-only and the request prefix never changes.
 */
export function createMcpSearchTool(manager: McpManager, options: McpToolOptions = {}): Tool<z.infer<typeof schema>> {
  return {
    name: 'mcp_search',
    description: `Find tools of the MCP servers (${manager.serverNames.join(', ')}) and load their parameters, before calling one with mcp_call.`,
    schema,
    readOnly: true,
    async execute(args) {
      return { content: (await searchMcpTools(manager, options, args.query, args.limit ?? DEFAULT_LIMIT)).text };
    },
  };
}

/**
 * The definitions of the MCP tools that match `query` ("" or "*" lists every tool in one line
 * each), with notes on servers still starting or failed. `matched` is false when no tool matched.
 * Shared by mcp_search and the generic tool_search (see deferred.ts).
 */
export async function searchMcpTools(manager: McpManager, options: McpToolOptions, rawQuery: string, limit: number): Promise<{ text: string; matched: boolean }> {
  await manager.settle(SETTLE_MS);
  const pending = manager.statuses().filter((status) => status.state === 'starting').map((status) => status.name);
  const failed = manager.statuses().filter((status) => status.state === 'failed');
  const notes = [
    ...(pending.length > 0 ? [`Still starting: ${pending.join(', ')}; search again later.`] : []),
    ...failed.map((status) => `Not available: ${status.name} (${status.error ?? 'failed'}).`),
  ];
  const tools = manager.tools().filter((tool) => !options.readOnlyOnly || tool.info.annotations?.readOnlyHint === true);
  const query = rawQuery.trim().toLowerCase();
  if (query === '' || query === '*') {
    const lines = tools.slice(0, LIST_LIMIT).map((tool) => `${tool.name}: ${oneLine(tool.info.description)}`);
    if (tools.length > LIST_LIMIT) lines.push(`… ${tools.length - LIST_LIMIT} more; search with words to narrow`);
    return { text: [...(lines.length ? lines : ['No MCP tools are available.']), ...notes].join('\n'), matched: lines.length > 0 };
  }
  const ranked = rank(tools, query).slice(0, limit);
  if (ranked.length === 0) {
    return { text: [`No MCP tool matches "${rawQuery}". Search with "" to list them all.`, ...notes].join('\n'), matched: false };
  }
  return { text: [...ranked.map(definition), ...notes].join('\n\n'), matched: true };
}

/** Exact name first, then by how many query words appear in the name, then in the description. */
function rank(tools: QualifiedTool[], query: string): QualifiedTool[] {
  const words = query.split(/[\s,]+/).filter(Boolean);
  const scored = tools.map((tool) => {
    const name = tool.name.toLowerCase();
    const text = `${tool.info.title ?? ''} ${tool.info.description ?? ''}`.toLowerCase();
    let score = name === query || tool.info.name.toLowerCase() === query ? 100 : 0;
    for (const word of words) {
      if (name.includes(word)) score += 10;
      else if (text.includes(word)) score += 1;
    }
    return { tool, score };
  });
  return scored.filter((entry) => entry.score > 0).sort((a, b) => b.score - a.score).map((entry) => entry.tool);
}

function definition(tool: QualifiedTool): string {
  const annotations = tool.info.annotations;
  const hints = annotations
    ? Object.entries(annotations)
        .filter(([key, value]) => key.endsWith('Hint') && value === true)
        .map(([key]) => key.replace(/Hint$/, ''))
    : [];
  return [
    `${tool.name}${hints.length ? ` (${hints.join(', ')})` : ''}`,
    tool.info.description?.trim() ?? '',
    `parameters: ${JSON.stringify(tool.info.inputSchema)}`,
  ]
    .filter(Boolean)
    .join('\n');
}

function oneLine(text: string | undefined): string {
  const first = (text ?? '').trim().split('\n')[0] ?? '';
  return first.length > 120 ? `${first.slice(0, 119)}…` : first;
}
