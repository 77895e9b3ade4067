/** The session the parts add up to: what the front ends and the session loop are given. */
import type { HookRunner } from '../../hooks/runner.js';
import { checkpointsOf } from '../../checkpoints/record.js';
import type { CheckpointSettings } from '../../checkpoints/settings.js';
import type { SubagentManager } from '../../subagents/manager.js';
import type { BackgroundChildren } from '../../subagents/background.js';
import type { SessionLsp } from '../../lsp/index.js';
import type { WorktreeManager } from '../../worktree/manager.js';
import type { Compactor } from '../compaction.js';
import type { MemoryWiring } from '../memory.js';
import type { SessionPermissions } from '../permissions.js';
import type { OpenSessionOptions, PreparedSession } from '../session-types.js';
import type { SessionBase } from './base.js';
import { transcriptOf, type Conversation } from './conversation.js';
import type { Extensions } from './extensions.js';
import type { Guard } from './guard.js';
import type { McpPart } from './mcp.js';
import type { OrchestrationPart } from './orchestration.js';
import type { SessionFile } from './session-file.js';
import type { SessionTools } from './tools.js';

export interface SessionParts {
  base: SessionBase;
  conversation: Conversation;
  permissions: SessionPermissions;
  hooks: HookRunner | undefined;
  guard: Guard;
  worktrees: WorktreeManager | undefined;
  compactorFor: (model: string) => Compactor;
  memory: MemoryWiring;
  mcp: McpPart;
  extensions: Extensions;
  checkpointSettings: CheckpointSettings;
  subagents: SubagentManager;
  subagentSink: PreparedSession['subagentSink'];
  lsp: SessionLsp;
  background: BackgroundChildren;
  orchestration: OrchestrationPart;
  tools: SessionTools;
  file: SessionFile;
}

export function preparedSession(options: OpenSessionOptions, p: SessionParts): PreparedSession {
  return {
    id: p.conversation.id,
    resumed: Boolean(p.conversation.resumed),
    provider: p.conversation.settings.provider,
    model: p.conversation.model,
    cwd: options.cwd,
    projectRoot: p.base.projectRoot,
    projectId: p.base.pid,
    seekHome: p.base.home,
    stream: p.conversation.stream,
    systemPrompt: p.conversation.systemPrompt,
    tools: p.tools.toolSet.tools,
    toolSchemas: p.tools.toolSet.toolSchemas,
    ...(p.tools.toolSet.resolveTool ? { resolveTool: p.tools.toolSet.resolveTool } : {}),
    history: p.conversation.history,
    transcript: p.conversation.resumed ? transcriptOf(p.conversation.resumed.entries) : [],
    maxTurns: options.maxTurns,
    tracker: p.conversation.tracker,
    policy: p.permissions.policy,
    gate: p.guard.gate,
    sandboxReady: p.permissions.sandboxReady,
    hooks: p.hooks,
    todos: p.tools.todos,
    writer: p.file.writer,
    recordedCheckpoints: p.conversation.resumed ? checkpointsOf(p.conversation.resumed.entries) : [],
    checkpointSettings: p.checkpointSettings,
    compactor: p.compactorFor(p.conversation.model),
    compactorFor: p.compactorFor,
    notices: p.base.board.notices,
    noticeSink: p.base.board.sink,
    subagents: p.subagents,
    subagentSink: p.subagentSink,
    background: p.background,
    lsp: p.lsp,
    workspace: p.guard.workspace,
    worktrees: p.worktrees,
    orchestration: p.orchestration.orchestration,
    orchestrationSink: p.orchestration.sink,
    memory: p.memory,
    interactive: options.interactive,
    flashModel: p.conversation.settings.flashModel,
    mcp: p.mcp.mcp,
    pendingCalls: p.file.pendingCalls,
    skills: p.extensions.skills,
    commands: p.extensions.commands,
    unloadedCommands: p.extensions.unloadedCommands,
    scope: p.guard.scope,
  };
}
