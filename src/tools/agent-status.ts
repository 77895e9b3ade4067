import type { ZodType } from 'zod';
import type { Tool } from '../agent/types.js';
import { lazy } from '../util/lazy.js';
import { zod } from '../util/zod.js';
import { AGENT_STATUS_TOOL } from './tool-name-constants.js';

interface AgentStatusArgs {
  ids?: string[];
  wait?: boolean;
  timeout_ms?: number;
}

export const AGENT_STATUS_DEFAULT_WAIT_MS = 60_000;
export const AGENT_STATUS_MAX_WAIT_MS = 600_000;

/**
 * agent_status: the state of background subagents (`agent` with run_in_background), or a wait for
 * them to end with a timeout. Loaded on demand (tool_search): a model that never starts a
 * background child never pays for its definition. Results it returns are not delivered again.
 */
export function createAgentStatusTool(status: (query: { ids?: string[]; waitMs: number; signal: AbortSignal }) => Promise<string>): Tool<AgentStatusArgs> {
  const schema = lazy(() => agentStatusSchema());
  return {
    name: AGENT_STATUS_TOOL,
    summary: 'background agents: status, wait',
    description:
      'Status of background subagents (agent with run_in_background): running (turn, tokens, last action) or ended (their result). With wait, waits until the listed ones (default: all) end or timeout_ms passes. Their results also come to you by themselves; use this only to wait or check.',
    get schema() {
      return schema();
    },
    readOnly: true,
    execute: async (args, ctx) => {
      const waitMs = args.wait ? Math.min(args.timeout_ms ?? AGENT_STATUS_DEFAULT_WAIT_MS, AGENT_STATUS_MAX_WAIT_MS) : 0;
      return { content: await status({ ...(args.ids ? { ids: args.ids } : {}), waitMs, signal: ctx.signal }) };
    },
  };
}

function agentStatusSchema(): ZodType<AgentStatusArgs> {
  const z = zod();
  return z
    .object({
      ids: z.array(z.string().min(1)).optional().describe('sub-sids (default: every background subagent)'),
      wait: z.boolean().optional().describe('Wait for them to end'),
      timeout_ms: z.number().int().min(1).optional().describe(`Max wait (default ${AGENT_STATUS_DEFAULT_WAIT_MS}, max ${AGENT_STATUS_MAX_WAIT_MS})`),
    })
    .strict();
}
