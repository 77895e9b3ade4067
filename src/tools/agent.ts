import type { ZodType } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { lazy } from '../util/lazy.js';
import { zod } from '../util/zod.js';

/** What the agent tool passes to whoever runs children (the subagent manager). */
export interface AgentSpawnRequest {
  description: string;
  prompt: string;
  subagentType: string;
  isolation: 'none' | 'worktree';
  /** Start the child and return at once; its result comes back by itself (session level only). */
  runInBackground?: boolean;
  /** Continue an earlier child of this session (its sub-sid) from its transcript (session level only). */
  resume?: string;
}

export interface AgentToolOptions {
  /** Subagent types in the order the model sees them (built-ins first). Fixed for a session. */
  types: ReadonlyArray<{ name: string; description: string }>;
  maxConcurrent: number;
  /** Offers `run_in_background` (the session's own tool; a child's children run in the foreground). */
  background?: boolean;
  /** Runs the child and returns the contract result; never throws. */
  spawn: (request: AgentSpawnRequest, ctx: ToolContext) => Promise<ToolResult>;
}

/**
 * agent: delegates a self-contained task to a subagent with a fresh context; only its final summary
 * comes back. Marked read-only so several calls in one turn run concurrently: the children's own
 * actions go through their own permission gates. The schema and description depend only on the
 * type list, so they are byte-identical for a whole session (prefix cache).
 */
interface AgentArgs {
  description: string;
  prompt: string;
  subagent_type?: string;
  isolation?: 'none' | 'worktree';
  run_in_background?: boolean;
  resume?: string;
}

export function createAgentTool(options: AgentToolOptions): Tool<AgentArgs> {
  const names = options.types.map((type) => type.name);
  const schema = lazy(() => agentSchema(names, options.background === true));
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
        {
          description: args.description,
          prompt: args.prompt,
          subagentType: args.subagent_type ?? 'general-purpose',
          isolation: args.isolation ?? 'none',
          ...(options.background && args.run_in_background ? { runInBackground: true } : {}),
          ...(options.background && args.resume ? { resume: args.resume } : {}),
        },
        ctx,
      ),
  };
}

/** A pre_tool hook refused the spawn: the contract's failure line, so scripts see the reason. */
export function agentHookDenial(message: string): string {
  return `[agent: failed reason=hooks_denied] ${message}\n\n— sub-sid: `;
}

function agentSchema(names: readonly string[], background: boolean) {
  const [first = 'general-purpose', ...rest] = names;
  const z = zod();
  return z
    .object({
      description: z.string().min(1).describe('Short (3-5 word) label for the task'),
      prompt: z.string().min(1).describe('The complete, self-contained task: the subagent sees nothing else'),
      subagent_type: z.enum([first, ...rest]).optional().describe('Default general-purpose'),
      isolation: z.enum(['none', 'worktree']).optional(),
      ...(background
        ? {
            run_in_background: z.boolean().optional().describe('Return at once with the id; the result comes to you by itself when it ends'),
            resume: z.string().min(1).optional().describe('Sub-sid of an earlier subagent of this session: it continues from its transcript with this prompt'),
          }
        : {}),
    })
    .strict() as unknown as ZodType<AgentArgs>;
}

function agentDescription(options: AgentToolOptions): string {
  const types = options.types.map((type) => `- ${type.name}: ${type.description}`).join('\n');
  return [
    'Delegate a task to a subagent that works in a fresh context and returns only its final summary, keeping your context small.',
    'Use it for broad searches, reading many files, or independent pieces of work; not for a single lookup or a step that depends on your next decision.',
    `Put several agent calls in one message to run them in parallel (at most ${options.maxConcurrent} at once). The prompt is the child's only context: include paths, goals and what to return. Children cannot ask the user questions; their cost counts in this session's.`,
    ...(options.background ? ['With run_in_background the call returns at once with the child\'s id and you keep working; its result arrives by itself as a message once it ends (agent_status, via tool_search, shows progress or waits). With resume (a sub-sid) an earlier subagent that ended, failed or was interrupted continues from its transcript: the prompt says what to do now.'] : []),
    'Types:',
    types,
  ].join('\n');
}
