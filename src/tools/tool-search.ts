import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import { toToolSchema } from '../agent/tool-schema.js';
import { CALL_TOOL, TOOL_SEARCH } from '../agent/tool-proxy.js';
import type { Tool } from '../agent/types.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';
import { matchesWord, relevant } from '../util/word-match.js';

// No property description: the tool's description says what the query is (every byte is in every request).
export const toolSearchSchema = lazySchema((z) =>
  z
    .object({
      query: z.string(),
    })
    .strict(),
);

/** Most definitions a search by words returns (names always return theirs). */
const DEFAULT_LIMIT = 5;

/** Tools that are not seek's own, found by name or words (an MCP server's). See on-demand.ts. */
export interface DeferredToolSource {
  /** The source's entry in the catalog ("MCP servers github, fs"). */
  readonly catalog: string;
  /** Tools the source stands for that the catalog does not list; still callable by name. */
  readonly replaces: readonly string[];
  /** Definitions of the tools that match, as text, or undefined when none does. */
  search(query: string, limit: number): Promise<string | undefined>;
  /** The tool of that name, when this source has it. */
  resolve(name: string): Tool | undefined;
}

/**
 * tool_search: loads tools on demand. Its description is the catalog of the tools not declared
 * (fixed at session start, so the request prefix never changes); a call returns their full
 * definitions (name, description, JSON Schema parameters) as a tool result, which joins the
 * history append-only. The model then calls them through call_tool, or by name.
 */
export function createToolSearchTool(deferred: readonly Tool[], sources: readonly DeferredToolSource[]): Tool<z.infer<ReturnType<typeof toolSearchSchema>>> {
  const byName = new Map(deferred.map((tool) => [tool.name, tool]));
  return {
    name: TOOL_SEARCH,
    description: `Load more tools' definitions (query: names or words) to call via ${CALL_TOOL}: ${catalog(deferred, sources)}.`,
    parameters: TOOL_PARAMETERS.tool_search,
    get schema() {
      return toolSearchSchema();
    },
    readOnly: true,
    async execute(args) {
      const words = args.query.split(/[\s,]+/).filter(Boolean);
      const named = words.filter((word) => byName.has(word));
      const rest = words.filter((word) => !byName.has(word));
      const limit = DEFAULT_LIMIT;
      const found: string[] = named.map((name) => definition(byName.get(name)!));
      // No words at all: every definition (the model asked for the lot).
      if (named.length === 0) {
        const ranked = rest.length === 0 ? deferred : rank(deferred, rest);
        const shown = rest.length === 0 ? ranked.length : limit;
        found.push(...ranked.slice(0, shown).map(definition));
        if (ranked.length > shown) found.push(moreMatches(ranked.slice(shown).map((tool) => tool.name)));
      }
      if (named.length === 0 || rest.length > 0) {
        for (const source of sources) {
          const text = await source.search(rest.join(' '), limit);
          if (text) found.push(text);
        }
      }
      if (found.length === 0) return { content: `No tool matches "${args.query}". Tools: ${catalog(deferred, sources)}.`, isError: true };
      return {
        content: [...found, `Call them with ${CALL_TOOL} {"name", "arguments"}.`].join('\n\n'),
        display: { kind: 'text', text: `loaded ${named.length > 0 ? named.join(', ') : `tools for "${args.query}"`}` },
      };
    },
  };
}

/** The matches left out, by name, and how to load them: names load their definitions. */
export function moreMatches(names: readonly string[]): string {
  return `${names.length} more match${names.length === 1 ? '' : 'es'}: ${names.join(', ')}. Load any of them by name: ${TOOL_SEARCH} {"query": "${names.slice(0, 3).join(' ')}"}.`;
}

/** Tools that share a summary are listed together, in the order given. */
function catalog(deferred: readonly Tool[], sources: readonly DeferredToolSource[]): string {
  const groups = new Map<string, string[]>();
  for (const tool of deferred) {
    const summary = tool.summary ?? firstSentence(tool.description);
    groups.set(summary, [...(groups.get(summary) ?? []), tool.name]);
  }
  const entries = [...groups].map(([summary, names]) => `${names.join(', ')} (${summary})`);
  return [...entries, ...sources.map((source) => source.catalog)].join('; ');
}

function firstSentence(text: string): string {
  const first = text.split(/(?<=\.)\s|\n/)[0] ?? '';
  return first.replace(/\.$/, '').slice(0, 60);
}

/** Tools whose name has the most words first, then those whose description has them, as whole
 * words; only those scoring at least half the best (util/word-match.ts). */
function rank(tools: readonly Tool[], words: readonly string[]): Tool[] {
  const scored = tools.map((tool) => {
    const text = `${tool.summary ?? ''} ${tool.description}`;
    const score = words.reduce((sum, word) => sum + (matchesWord(word, tool.name) ? 10 : matchesWord(word, text) ? 1 : 0), 0);
    return { tool, score };
  });
  return relevant(scored).map((entry) => entry.tool);
}

/** The definition as the tools array would have carried it. */
function definition(tool: Tool): string {
  return JSON.stringify(toToolSchema(tool));
}
