/**
 * The subagent manager: children of this session (the `agent` tool, delegate_tasks' tasks) get
 * fresh instances of the session's tools, its sandbox and hooks, its question queue and its memory
 * context, and never more than the parent may do.
 */
import type { Tool } from '../../agent/types.js';
import type { TextFileOverlay } from '../../tools/index.js';
import { createCoreTools } from '../../tools/index.js';
import type { HookRunner } from '../../hooks/runner.js';
import type { CheckpointSettings } from '../../checkpoints/settings.js';
import { SubagentManager } from '../../subagents/manager.js';
import { SessionBudget } from '../../subagents/session-budget.js';
import type { SubagentSettings } from '../../subagents/settings.js';
import { subagentSettings } from '../../subagents/settings.js';
import type { WorktreeManager } from '../../worktree/manager.js';
import type { SessionPermissions } from '../permissions.js';
import type { MemoryWiring } from '../memory.js';
import type { SessionLsp } from '../../lsp/index.js';
import type { Compactor } from '../compaction.js';
import type { OpenSessionOptions, PreparedSession } from '../session-types.js';
import type { SessionBase } from './base.js';
import type { Conversation } from './conversation.js';
import type { Guard } from './guard.js';
import type { McpPart } from './mcp.js';
import type { Extensions } from './extensions.js';

/** `subagents` in the user's config (limits, models), read before the extensions are found. */
export function readSubagentSettings(base: SessionBase): SubagentSettings {
  const read = subagentSettings(base.config);
  for (const text of read.notices) base.board.add('warn', text);
  return read.settings;
}

export interface SubagentNeeds {
  settings: SubagentSettings;
  conversation: Conversation;
  permissions: SessionPermissions;
  hooks: HookRunner | undefined;
  guard: Guard;
  memory: MemoryWiring;
  lsp: SessionLsp;
  webTools: () => Tool[];
  mcp: McpPart;
  extensions: Extensions;
  worktrees: WorktreeManager | undefined;
  compactorFor: (model: string) => Compactor;
  checkpoints: CheckpointSettings;
  sink: PreparedSession['subagentSink'];
}

export function createSubagents(base: SessionBase, options: OpenSessionOptions, needs: SubagentNeeds): SubagentManager {
  const { mcpTools, mcp, declare } = needs.mcp;
  const files: TextFileOverlay | undefined = options.files;
  const sessionBudget = new SessionBudget({
    tracker: needs.conversation.tracker,
    ...(options.maxBudgetUsd !== undefined ? { maxUsd: options.maxBudgetUsd } : {}),
    ...(needs.settings.sessionBudgetTokens !== undefined ? { childTokens: needs.settings.sessionBudgetTokens } : {}),
    // Headless: straight to stderr, whatever the output format (json prints no notices).
    warn: options.interactive ? base.board.problem : (text) => void process.stderr.write(`seek: ${text}\n`),
  });
  return new SubagentManager({
    seekHome: base.home,
    projectId: base.pid,
    projectRoot: base.projectRoot,
    sessionId: needs.conversation.id,
    provider: needs.conversation.settings.provider,
    stream: needs.conversation.stream,
    settings: needs.settings,
    types: needs.extensions.types,
    ...(needs.hooks ? { hooks: needs.hooks } : {}),
    ...(needs.guard.ask ? { ask: needs.guard.ask } : {}),
    sandbox: needs.permissions.sandbox,
    sandboxReady: needs.permissions.sandboxReady,
    saveRule: needs.guard.saveRule,
    createTools: ({ readOnly }) => needs.lsp.withLsp([...createCoreTools({ files }), ...needs.memory.createTools(), ...needs.webTools(), ...(mcpTools ? mcpTools.createMcpTools(mcp, { readOnlyOnly: readOnly }) : [])]),
    declareTools: declare,
    contextMessages: () => needs.memory.memory?.context.messages ?? [],
    ...(needs.worktrees ? { worktrees: needs.worktrees } : {}),
    compactorFor: (forModel) => needs.compactorFor(forModel).compactIfNeeded,
    save: options.save !== false,
    checkpoints: needs.checkpoints,
    sink: needs.sink,
    sessionBudget,
    onProblem: base.board.problem,
  });
}
