import { z } from 'zod';
import type { Tool } from '../agent/types.js';
import { integerAtLeast } from '../tools/schema.js';
import type { McpToolOptions } from './call-tool.js';
import type { McpManager, QualifiedTool } from './manager.js';
import { moreMatches } from '../tools/tool-search.js';
import { matchesWord, relevant } from '../util/word-match.js';

const schema = z
  .object({
    query: z.string().describe('Words to find in tool names and descriptions; "" lists every tool'),
    limit: integerAtLeast(1).optional().describe('Most schemas to load (default 5)'),
  })
  .strict();

/** How long a search waits for servers still starting before it answers with what is ready: a
 * server that hangs at start must not hold the model (it is named as not ready yet). */
const SETTLE_MS = 2_000;
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
 * each), with notes on servers still starting or failed. `matched` is false when no tool matched;
 * `pending` says a server was still starting (its tools could not be searched). Never waits more
 * than SETTLE_MS.
 * Shared by mcp_search and the generic tool_search (see deferred.ts).
 */
export async function searchMcpTools(manager: McpManager, options: McpToolOptions, rawQuery: string, limit: number): Promise<{ text: string; matched: boolean; pending: boolean }> {
  await manager.settle(SETTLE_MS);
  const pending = manager.statuses().filter((status) => status.state === 'starting').map((status) => status.name);
  const failed = manager.statuses().filter((status) => status.state === 'failed');
  const notes = [
    ...(pending.length > 0 ? [`Not ready yet: ${pending.join(', ')} (still starting; ${pending.length === 1 ? 'its' : 'their'} tools are not in this result). Search again in a moment.`] : []),
    ...failed.map((status) => `Not available: ${status.name} (${status.error ?? 'failed'}).`),
  ];
  const tools = manager.tools().filter((tool) => !options.readOnlyOnly || tool.info.annotations?.readOnlyHint === true);
  const query = rawQuery.trim().toLowerCase();
  if (query === '' || query === '*') {
    const lines = tools.slice(0, LIST_LIMIT).map((tool) => `${tool.name}: ${oneLine(tool.info.description)}`);
    if (tools.length > LIST_LIMIT) lines.push(`… ${tools.length - LIST_LIMIT} more; search with words to narrow`);
    return { text: [...(lines.length ? lines : ['No MCP tools are available.']), ...notes].join('\n'), matched: lines.length > 0, pending: pending.length > 0 };
  }
  const words = query.split(/[\s,]+/).filter(Boolean);
  // Full names load those tools, all of them (how the model asks for the matches left out).
  const named = tools.filter((tool) => words.includes(tool.name.toLowerCase()));
  const rest = words.filter((word) => !named.some((tool) => tool.name.toLowerCase() === word));
  const ranked = rest.length > 0 ? rank(tools, rest).filter((tool) => !named.includes(tool)) : [];
  const shown = [...named, ...ranked.slice(0, limit)];
  if (shown.length === 0) {
    return { text: [`No MCP tool matches "${rawQuery}". Search with "" to list them all.`, ...notes].join('\n'), matched: false, pending: pending.length > 0 };
  }
  const more = ranked.length > limit ? [moreMatches(ranked.slice(limit).map((tool) => tool.name))] : [];
  return { text: [...shown.map(definition), ...more, ...notes].join('\n\n'), matched: true, pending: pending.length > 0 };
}

/** Exact name first, then by how many query words are words of the name, then of the title or
 * description; only the tools scoring at least half the best (util/word-match.ts). */
function rank(tools: QualifiedTool[], words: readonly string[]): QualifiedTool[] {
  const scored = tools.map((tool) => {
    const text = `${tool.info.title ?? ''} ${tool.info.description ?? ''}`;
    let score = words.length === 1 && tool.info.name.toLowerCase() === words[0] ? 100 : 0;
    for (const word of words) {
      if (matchesWord(word, tool.info.name)) score += 10;
      else if (matchesWord(word, text)) score += 1;
    }
    return { tool, score };
  });
  return relevant(scored).map((entry) => entry.tool);
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
