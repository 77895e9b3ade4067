import type { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { lazy } from '../util/lazy.js';
import { zod } from '../util/zod.js';

/** What the agent tool passes to whoever runs children (the subagent manager). */
export interface AgentSpawnRequest {
  description: string;
  prompt: string;
  subagentType: string;
  isolation: 'none' | 'worktree';
}

export interface AgentToolOptions {
  /** Subagent types in the order the model sees them (built-ins first). Fixed for a session. */
  types: ReadonlyArray<{ name: string; description: string }>;
  maxConcurrent: number;
  /** Runs the child and returns the contract result; never throws. */
  spawn: (request: AgentSpawnRequest, ctx: ToolContext) => Promise<ToolResult>;
}

/**
 * agent: delegates a self-contained task to a subagent with a fresh context; only its final summary
 * comes back. Marked read-only so several calls in one turn run concurrently: the children's own
 * actions go through their own permission gates. The schema and description depend only on the
 * type list, so they are byte-identical for a whole session (prefix cache).
 */
export function createAgentTool(options: AgentToolOptions): Tool<z.infer<ReturnType<typeof agentSchema>>> {
  const names = options.types.map((type) => type.name);
  const schema = lazy(() => agentSchema(names));
  return {
    name: 'agent',
    summary: 'subagents',
    description: agentDescription(options),
    get schema() {
      return schema();
    },
    readOnly: true,
    hookDenialResult: agentHookDenial,
    execute: (args, ctx) =>
      options.spawn(
        { description: args.description, prompt: args.prompt, subagentType: args.subagent_type ?? 'general-purpose', isolation: args.isolation ?? 'none' },
        ctx,
      ),
  };
}

/** A pre_tool hook refused the spawn: the contract's failure line, so scripts see the reason. */
export function agentHookDenial(message: string): string {
  return `[agent: failed reason=hooks_denied] ${message}\n\n— sub-sid: `;
}

function agentSchema(names: readonly string[]) {
  const [first = 'general-purpose', ...rest] = names;
  const z = zod();
  return z
    .object({
      description: z.string().min(1).describe('Short (3-5 word) label for the task'),
      prompt: z.string().min(1).describe('The complete, self-contained task: the subagent sees nothing else'),
      subagent_type: z.enum([first, ...rest]).optional().describe('Default general-purpose'),
      isolation: z.enum(['none', 'worktree']).optional(),
    })
    .strict();
}

function agentDescription(options: AgentToolOptions): string {
  const types = options.types.map((type) => `- ${type.name}: ${type.description}`).join('\n');
  return [
    'Delegate a task to a subagent that works in a fresh context and returns only its final summary, keeping your context small.',
    'Use it for broad searches, reading many files, or independent pieces of work; not for a single lookup or a step that depends on your next decision.',
    `Put several agent calls in one message to run them in parallel (at most ${options.maxConcurrent} at once). The prompt is the child's only context: include paths, goals and what to return. Children cannot ask the user questions; their cost counts in this session's.`,
    'Types:',
    types,
  ].join('\n');
}
