/**
 * Tools on demand: which tools a session declares to the model and how it reaches the others.
 *
 * The first request declares the tools every task needs (ALWAYS_DECLARED) plus `tool_search`,
 * whose description is a compact catalog of the rest, and `call_tool`, a proxy with a fixed schema.
 * The model loads a tool's definition with one tool_search call (a tool result, so it is appended
 * to history) and calls it through call_tool, or directly by name; the dispatcher runs either as
 * the real tool (src/agent/tool-proxy.ts). The declared set is fixed for the session: nothing is
 * ever inserted into the system prompt or the tools array, so every request extends the previous
 * one byte for byte. Sources (MCP) add tools known only by name, found through the same search.
 */
import { toToolSchemas } from '../agent/tool-schema.js';
import type { Tool } from '../agent/types.js';
import type { ToolSchema } from '../providers/types.js';
import { createCallTool } from './call-tool.js';
import { createToolSearchTool, type DeferredToolSource } from './tool-search.js';

export type { DeferredToolSource } from './tool-search.js';

/** Declared in every request, in this order (when the session or child has them). */
export const ALWAYS_DECLARED: readonly string[] = ['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'list_dir', 'git'];

export interface ToolSet {
  /** Every tool the model may call by name (the dispatcher's table). */
  tools: Tool[];
  /** What each request declares: computed once, passed by reference. */
  toolSchemas: ToolSchema[];
  /** Tools known by name only when called (a source's). */
  resolveTool?: (name: string) => Tool | undefined;
}

export interface DeclareOptions {
  sources?: readonly DeferredToolSource[];
  /** Declare every tool up front, as before tools on demand (SEEK_TOOLS=all). */
  all?: boolean;
}

/** `SEEK_TOOLS=all` declares every tool in every request instead (for comparison, or a provider
 * that will not call undeclared tools). */
export function declaresAll(env: NodeJS.ProcessEnv): boolean {
  return env.SEEK_TOOLS === 'all';
}

export function declareTools(tools: readonly Tool[], options: DeclareOptions = {}): ToolSet {
  const sources = options.sources ?? [];
  const resolveTool = sources.length > 0 ? (name: string) => firstResolved(sources, name) : undefined;
  const withResolver = (set: Omit<ToolSet, 'resolveTool'>): ToolSet => (resolveTool ? { ...set, resolveTool } : set);
  if (options.all) return withResolver({ tools: [...tools], toolSchemas: toToolSchemas(tools) });

  const replaced = new Set(sources.flatMap((source) => source.replaces));
  const declared = tools.filter((tool) => ALWAYS_DECLARED.includes(tool.name));
  const hidden = tools.filter((tool) => !ALWAYS_DECLARED.includes(tool.name) && replaced.has(tool.name));
  const deferred = tools.filter((tool) => !ALWAYS_DECLARED.includes(tool.name) && !replaced.has(tool.name));
  if (deferred.length === 0 && sources.length === 0) return { tools: declared, toolSchemas: toToolSchemas(declared) };
  const proxy = [createToolSearchTool(deferred, sources) as Tool, createCallTool() as Tool];
  return withResolver({ tools: [...declared, ...proxy, ...deferred, ...hidden], toolSchemas: toToolSchemas([...declared, ...proxy]) });
}

function firstResolved(sources: readonly DeferredToolSource[], name: string): Tool | undefined {
  for (const source of sources) {
    const tool = source.resolve(name);
    if (tool) return tool;
  }
  return undefined;
}
