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
      await manager.settle(SETTLE_MS);
      const pending = manager.statuses().filter((status) => status.state === 'starting').map((status) => status.name);
      const failed = manager.statuses().filter((status) => status.state === 'failed');
      const notes = [
        ...(pending.length > 0 ? [`Still starting: ${pending.join(', ')}; search again later.`] : []),
        ...failed.map((status) => `Not available: ${status.name} (${status.error ?? 'failed'}).`),
      ];
      const tools = manager.tools().filter((tool) => !options.readOnlyOnly || tool.info.annotations?.readOnlyHint === true);
      const query = args.query.trim().toLowerCase();
      if (query === '' || query === '*') {
        const lines = tools.slice(0, LIST_LIMIT).map((tool) => `${tool.name}: ${oneLine(tool.info.description)}`);
        if (tools.length > LIST_LIMIT) lines.push(`… ${tools.length - LIST_LIMIT} more; search with words to narrow`);
        return { content: [...(lines.length ? lines : ['No MCP tools are available.']), ...notes].join('\n') };
      }
      const ranked = rank(tools, query).slice(0, args.limit ?? DEFAULT_LIMIT);
      if (ranked.length === 0) {
        return { content: [`No MCP tool matches "${args.query}". Search with "" to list them all.`, ...notes].join('\n') };
      }
      return { content: [...ranked.map(definition), ...notes].join('\n\n') };
    },
  };
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
