/**
 * The session's tools, in the order every request declares them (the order is part of the
 * prompt prefix): the core tools, worktree tools (git only), memory's, the web's, `agent`, delegate_tasks,
 * `skill` (only with skills installed: a session without them pays nothing for it) and MCP's two;
 * then tools on demand decide which are declared and which wait behind tool_search.
 */
import type { Tool } from '../../agent/types.js';
import type { CostTracker } from '../../cost/tracker.js';
import type { PermissionPolicy } from '../../policy/policy.js';
import { toolsHash } from '../../session/format.js';
import type { SpawnParent } from '../../subagents/manager.js';
import { createCoreTools, createTodoStore, type ForegroundCommands, type TodoStore } from '../../tools/index.js';
import type { ToolSet } from '../../tools/on-demand.js';
import type { WorktreeManager } from '../../worktree/manager.js';
import { createSkillTool } from '../../extensions/skill-tool.js';
import { createWebTools } from '../../tools/web-tools.js';
import { namesHostExplicitly } from '../../policy/web-rules.js';
import type { MemoryWiring } from '../memory.js';
import type { SessionLsp } from '../../lsp/index.js';
import { createWorktreeTools, type Workspace } from '../workspace.js';
import type { OpenSessionOptions } from '../session-types.js';
import type { SessionBase } from './base.js';
import type { Conversation } from './conversation.js';
import type { Extensions } from './extensions.js';
import type { Guard } from './guard.js';
import type { McpPart } from './mcp.js';

/** The session as the parent of its children (agent and delegate_tasks), read at spawn time: the
 * model then, and the tool names the session has once they are all assembled into `tools`. */
export function sessionParent(needs: { model: () => string; systemPrompt: string; policy: PermissionPolicy; tracker: CostTracker; workspace: Workspace; tools: readonly Tool[] }): () => SpawnParent {
  return () => ({
    depth: 0,
    model: needs.model,
    systemPrompt: needs.systemPrompt,
    policy: needs.policy,
    tracker: needs.tracker,
    cwd: needs.workspace.cwd,
    toolNames: needs.tools.map((tool) => tool.name),
  });
}

/** web_fetch and web_search (on demand) for the session and each child, fresh instances each time. */
export function webToolsFor(base: SessionBase, options: OpenSessionOptions, policy: PermissionPolicy): () => Tool[] {
  return () =>
    createWebTools({
      mayReachPrivate: (host) => namesHostExplicitly(policy.rules, host),
      config: base.config as Record<string, unknown>,
      configFile: base.configFile,
      env: options.env,
    });
}

export interface ToolNeeds {
  /** Filled here; `sessionParent` reads the names from it. */
  into: Tool[];
  conversation: Conversation;
  guard: Guard;
  worktrees: WorktreeManager | undefined;
  memory: MemoryWiring;
  /** Wraps the file and command tools: errors after an edit (and appends the on-demand lsp tool). */
  lsp: SessionLsp;
  webTools: () => Tool[];
  extensions: Extensions;
  mcp: McpPart;
  /** `agent` (and agent_status, on demand, when children may run in the background). */
  agentTools: Tool[];
  delegateTasksTool: Tool;
  /** The session's foreground commands Ctrl+B can move to the background (its own bash only). */
  foregroundCommands?: ForegroundCommands;
}

export interface SessionTools {
  todos: TodoStore;
  toolSet: ToolSet;
}

export function assembleTools(base: SessionBase, options: OpenSessionOptions, needs: ToolNeeds): SessionTools {
  const todos = createTodoStore();
  const tools = needs.into;
  tools.push(...needs.lsp.withLsp(createCoreTools({ todoStore: todos, files: options.files, commands: options.commands, ...(needs.foregroundCommands ? { foregroundCommands: needs.foregroundCommands } : {}) })));
  if (needs.worktrees) tools.push(...createWorktreeTools(needs.worktrees, needs.guard.workspace, base.board.info));
  tools.push(...needs.memory.createTools(), ...needs.webTools(), ...needs.agentTools, needs.delegateTasksTool);
  if (needs.extensions.skills.length > 0) tools.push(createSkillTool({ skills: needs.extensions.skills, scope: needs.guard.scope }));
  const { mcpTools, mcp } = needs.mcp;
  if (mcpTools) tools.push(...mcpTools.createMcpTools(mcp));
  const toolSet = needs.mcp.declare(tools, false);
  const resumed = needs.conversation.resumed;
  if (resumed && resumed.header.tools_hash !== toolsHash(toolSet.toolSchemas)) {
    base.board.add('info', 'tool definitions changed since this session was saved; the prompt cache will miss once');
  }
  return { todos, toolSet };
}
