/**
 * The composition root: opens a session from its parts. Each part (runtime/parts/) builds one
 * room's piece from what it needs and nothing else; this file only orders them, so the order and
 * the dependencies between the pieces read in one place:
 *
 *   base (home, project, config, hooks files)
 *     -> conversation (resumed or new; provider, model, system prompt, cost)
 *     -> permissions (policy, sandbox) -> memory -> hooks -> guard (workspace, scope, the gate)
 *     -> worktrees, compactor -> MCP -> subagent settings -> extensions (types, skills, commands)
 *     -> subagents -> orchestration -> tools (declared or on demand)
 *     -> workspace start (a worktree) -> session file -> the sessionStart hook.
 *
 * Throws ConfigError (no key, corrupt config), HooksConfigError (unusable hooks file) and
 * SessionError (unknown session id) with messages meant for the user.
 */
import type { Tool } from '../agent/types.js';
import { checkpointSettingsFrom } from '../checkpoints/settings.js';
import { openBase } from './parts/base.js';
import { openConversation } from './parts/conversation.js';
import { buildGuard, openPermissions, startHooks } from './parts/guard.js';
import { openMemory } from './parts/memory.js';
import { openLsp } from './parts/lsp.js';
import { compactorsFor } from './parts/compactor.js';
import { worktreesFor } from './parts/worktrees.js';
import { openMcp } from './parts/mcp.js';
import { loadExtensions } from './parts/extensions.js';
import { createSubagents, readSubagentSettings } from './parts/subagents.js';
import { createOrchestration } from './parts/orchestration.js';
import { assembleTools, sessionParent, webToolsFor } from './parts/tools.js';
import { startWorkspace } from './parts/workspace-start.js';
import { openSessionFile } from './parts/session-file.js';
import { preparedSession } from './parts/prepared.js';
import { observeBackground, startBackground } from './parts/background.js';
import type { OpenSessionOptions, PreparedSession } from './session-types.js';

export type { Notice, OpenSessionOptions, PreparedSession } from './session-types.js';

export async function prepareSession(options: OpenSessionOptions): Promise<PreparedSession> {
  const base = await openBase(options);
  const conversation = await openConversation(base, options);
  const permissions = await openPermissions(base, options);
  const lsp = openLsp(base, options, permissions);
  const memory = await openMemory(base, conversation, options);
  const hooks = await startHooks(base, conversation.id);
  const guard = buildGuard(base, options, permissions, hooks);
  const worktrees = worktreesFor(base);
  const compactorFor = compactorsFor(base, options, conversation.stream, hooks);
  const self: { prepared?: PreparedSession } = {}; // parts read the current model at call time
  const currentModel = (): string => self.prepared?.model ?? conversation.model;
  const mcp = await openMcp(base, options, { ...conversation, model: currentModel, ask: guard.ask, workspace: guard.workspace });
  const subagentSettings = readSubagentSettings(base);
  const extensions = await loadExtensions(base, options, permissions.policy, guard.scope);
  const checkpointSettings = checkpointSettingsFrom(base.config, base.configFile);
  const subagentSink: PreparedSession['subagentSink'] = {};
  const webTools = webToolsFor(base, options, permissions.policy);
  const watch = observeBackground(subagentSink);
  const subagents = createSubagents(base, options, { settings: subagentSettings, conversation, permissions, hooks, guard, memory, lsp, webTools, mcp, extensions, worktrees, compactorFor, checkpoints: checkpointSettings, sink: watch.sink });
  const tools: Tool[] = [];
  const parent = sessionParent({ ...conversation, model: currentModel, policy: permissions.policy, workspace: guard.workspace, tools });
  const orchestration = createOrchestration(options, { subagents, worktrees, parent, conversation, policy: permissions.policy });
  const background = startBackground(base, conversation, subagents, parent, watch, options.save !== false);
  const assembled = assembleTools(base, options, { into: tools, conversation, guard, worktrees, memory, lsp, webTools, extensions, mcp, agentTools: background.tools, foregroundCommands: background.background.commands, delegateTasksTool: orchestration.orchestration.tool() });
  const start = await startWorkspace(base, options, conversation, guard.workspace, worktrees);
  const file = await openSessionFile(base, options, { conversation, toolSchemas: assembled.toolSet.toolSchemas, worktrees, workspace: guard.workspace, orchestration, start });
  await hooks?.sessionStart({ resumed: Boolean(conversation.resumed), model: conversation.model });
  self.prepared = preparedSession(options, { base, conversation, permissions, hooks, guard, worktrees, compactorFor, memory, mcp, extensions, checkpointSettings, subagents, subagentSink, lsp, background: background.background, orchestration, tools: assembled, file });
  return self.prepared;
}
