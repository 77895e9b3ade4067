/**
 * MCP's piece of a session. Servers connect in the background from here; the model reaches their
 * tools through two tools with fixed schemas (offered only when a server will run), so nothing
 * waits for them. Sessions declare elicitation; a question no front end answers (headless, line
 * mode) is declined and said, as a notice (stderr headless) and in the call's result.
 */
import type { Tool } from '../../agent/types.js';
import { CALL_TOOL, TOOL_SEARCH } from '../../agent/tool-proxy.js';
import type { CostTracker } from '../../cost/tracker.js';
import type { StreamFn } from '../../providers/types.js';
import { McpManager } from '../../mcp/index.js';
import { declaresAll, declareTools, type ToolSet } from '../../tools/on-demand.js';
import type { AskFn } from '../../policy/tool-gate.js';
import { createSampler } from '../mcp-sampling.js';
import type { Workspace } from '../workspace.js';
import type { OpenSessionOptions } from '../session-types.js';
import type { SessionBase } from './base.js';

export interface McpPart {
  mcp: McpManager;
  /** The MCP tools' module, loaded only when a server will run. */
  mcpTools: typeof import('../../mcp/tools.js') | undefined;
  /** Tools on demand (tools/on-demand.ts), one rule for the session and every child: the common
   * tools declared, the rest (and MCP's) behind tool_search and call_tool. */
  declare: (list: Tool[], readOnly: boolean) => ToolSet;
}

export interface McpNeeds {
  stream: StreamFn;
  /** The session's model now (a server's model call goes through this session's provider). */
  model: () => string;
  ask: AskFn | undefined;
  tracker: CostTracker;
  workspace: Workspace;
}

export async function openMcp(base: SessionBase, options: OpenSessionOptions, needs: McpNeeds): Promise<McpPart> {
  const { projectRoot } = base;
  const mcp = await McpManager.open({
    projectRoot,
    seekHome: base.home,
    cwd: projectRoot,
    env: options.env,
    elicitation: true,
    onDeclined: base.board.problem,
    // A server's model call goes through this session's provider, asked first (mcp-sampling.ts).
    sample: createSampler({ stream: needs.stream, model: needs.model, ask: needs.ask, setting: (base.config as Record<string, unknown>).mcp_sampling, cwd: projectRoot, tracker: needs.tracker, onNotice: base.board.problem }),
    ...(options.mcpServers ? { sessionServers: options.mcpServers } : {}),
  });
  for (const text of mcp.problems) base.board.add('warn', text);
  // The servers' root is where the session works: the project, or the worktree it entered.
  needs.workspace.onRootChange((root) => mcp.setRoot(root));
  const mcpTools = mcp.active ? await import('../../mcp/tools.js') : undefined;
  const all = declaresAll(options.env);
  if (!all) mcp.via(TOOL_SEARCH, CALL_TOOL);
  const declare = (list: Tool[], readOnly: boolean): ToolSet =>
    declareTools(list, { all, sources: mcpTools && list.some((tool) => tool.name === 'mcp_call') ? [mcpTools.createMcpToolSource(mcp, { readOnlyOnly: readOnly })] : [] });
  return { mcp, mcpTools, declare };
}
