/**
 * What opening a session takes (OpenSessionOptions) and what the composition root resolves for it
 * once at start (PreparedSession): the contract between prepare.ts and the session.
 */
import type { SessionLsp } from '../lsp/index.js';
import type { Tool } from '../agent/types.js';
import type { Message, RequestGateFor, StreamFn, ToolCall, ToolSchema } from '../providers/types.js';
import type { CostTracker } from '../cost/tracker.js';
import type { HookRunner } from '../hooks/runner.js';
import type { PermissionPolicy } from '../policy/policy.js';
import type { SessionWriter } from '../session/writer.js';
import type { CheckpointRecord } from '../checkpoints/record.js';
import type { CheckpointSettings } from '../checkpoints/settings.js';
import type { CommandRunner, TextFileOverlay, TodoStore } from '../tools/index.js';
import type { AskFn, ToolGate } from '../policy/tool-gate.js';
import type { Workspace } from './workspace.js';
import type { WorktreeManager } from '../worktree/manager.js';
import type { Compactor } from './compaction.js';
import type { BackgroundChildren } from '../subagents/background.js';
import type { SubagentManager } from '../subagents/manager.js';
import type { SubagentEvent } from '../subagents/types.js';
import type { ReviewPlanFn } from '../orchestrator/review.js';
import type { OrchestrationEvent } from '../orchestrator/types.js';
import type { Orchestration, PlanDispatch } from './orchestration.js';
import type { MemoryWiring } from './memory.js';
import type { McpManager } from '../mcp/index.js';
import type { ConfiguredServer } from '../mcp/config.js';
import type { ToolScope } from '../extensions/allowed-tools.js';
import type { CustomCommand, UnloadedCommand } from '../extensions/commands.js';
import type { Skill } from '../extensions/skills.js';

export interface OpenSessionOptions {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Interactive sessions ask before dangerous actions; headless ones deny them. */
  interactive: boolean;
  provider?: string;
  model?: string;
  baseUrl?: string;
  yolo?: boolean;
  /** `--auto`: edits and commands inside the project without asking, commands sandboxed. */
  auto?: boolean;
  plan?: boolean;
  maxTurns: number;
  /** `--max-budget-usd`: the run stops once it (the session and every subagent) spent this much. */
  maxBudgetUsd?: number;
  /** A session id (or unique prefix, or a subagent's sub-sid) to continue. */
  resume?: string;
  /** Continue the newest session of the project. */
  continueLatest?: boolean;
  /** Write the session to disk (default true). */
  save?: boolean;
  ask?: AskFn;
  /** Shows a delegate_tasks plan to the user before it runs (interactive front ends, ask mode). */
  reviewPlan?: ReviewPlanFn;
  /** Replaces the provider (unit tests inject a scripted stream here). */
  stream?: StreamFn;
  /** Paces the provider's requests (a fleet worker's rate limit shared by all workers): asked
   * once with the provider's name and base URL. Ignored with `stream`. */
  requestGate?: RequestGateFor;
  /** `--worktree` (true) or `--worktree-branch NAME` (the branch): work in a fresh seek worktree. */
  worktree?: boolean | string;
  /** Work in this existing seek worktree (the terminal UI's `/clear` inside one); wins over
   * `worktree`. Ignored, with a notice, when it is gone. */
  continueInWorktree?: string;
  /** Where the file tools (the session's and its subagents') read and write text when an editor
   * holds it: ACP's client file system, so unsaved buffers are seen. The disk when absent. */
  files?: TextFileOverlay;
  /** Where the session's own bash runs foreground commands: ACP's editor terminals when the client
   * offers them. Subagents and background jobs keep running as seek's children. */
  commands?: CommandRunner;
  /** MCP servers of this session only (an editor's, over ACP), besides the configured ones. */
  mcpServers?: readonly ConfiguredServer[];
  /** `seek run --queue`: plan tasks run on fleet workers instead of as local children. */
  dispatch?: PlanDispatch;
}

/** One step of a saved conversation as front ends replay it (see PreparedSession.transcript). */
export type TranscriptEntry = { kind: 'message'; message: Message } | { kind: 'compaction'; summary: string; reason?: 'auto' | 'manual'; replacedMessages?: number };

export interface Notice {
  level: 'info' | 'warn';
  text: string;
}

/** Everything a session needs, resolved once at start. */
export interface PreparedSession {
  id: string;
  resumed: boolean;
  provider: string;
  model: string;
  cwd: string;
  projectRoot: string;
  projectId: string;
  seekHome: string;
  stream: StreamFn;
  systemPrompt: string;
  /** Every tool the model may call by name (declared or loaded on demand, see tools/on-demand.ts). */
  tools: Tool[];
  /** What every request declares (a subset of `tools` unless SEEK_TOOLS=all). */
  toolSchemas: ToolSchema[];
  /** Tools known only by name when called (MCP tools by their full names). */
  resolveTool?: (name: string) => Tool | undefined;
  history: Message[];
  /** A resumed session's conversation as it was shown: every message of its file in order (those a
   * compaction replaced too) and its compactions where they happened. Empty for a new session. */
  transcript: readonly TranscriptEntry[];
  maxTurns: number;
  tracker: CostTracker;
  policy: PermissionPolicy;
  gate: ToolGate;
  /** Resolves once `policy.sandbox` (and the launcher) hold the detected OS sandbox; headless
   * sessions detect on its first call. Awaited before every tool call and spawn. */
  sandboxReady: () => Promise<void>;
  hooks: HookRunner | undefined;
  todos: TodoStore;
  writer: SessionWriter | undefined;
  compactor: Compactor;
  /** Builds the compactor for a model (the session calls it again after `/model`). */
  compactorFor: (model: string) => Compactor;
  notices: Notice[];
  /** Where problems found after start go (a failing observer hook); the session connects it. */
  noticeSink: { emit?: (notice: Notice) => void };
  subagents: SubagentManager;
  /** Where the session works: the project, or a worktree it entered. */
  workspace: Workspace;
  worktrees: WorktreeManager | undefined;
  /** Where the subagent manager's events go; the session connects it. */
  subagentSink: { emit?: (event: SubagentEvent) => void };
  /** Background children and the results waiting for the model (runtime/background-agents.ts). */
  background: BackgroundChildren;
  orchestration: Orchestration;
  /** Project memory and the user profile (undefined when memory is off). */
  memory: MemoryWiring;
  interactive: boolean;
  /** The cheap model for side calls (distill, observation checks). */
  flashModel: string;
  /** Where orchestration events go; the session connects it. */
  orchestrationSink: { emit?: (event: OrchestrationEvent) => void };
  /** The session's MCP servers (connecting in the background). */
  mcp: McpManager;
  /** The session's language servers (src/lsp), stopped with it. */
  lsp: SessionLsp;
  /** delegate_tasks calls a crash interrupted after some tasks completed: the session finishes
   * them (reusing the completed tasks) before the next prompt. */
  pendingCalls: ToolCall[];
  /** Checkpoints already in the session file (a resumed session): turn numbers go on from them. */
  recordedCheckpoints: CheckpointRecord[];
  /** `checkpoints` in the user's config (on or off, the size limit). */
  checkpointSettings: CheckpointSettings;
  /** Skills found at start (their catalog is in the `skill` tool's description, fixed for the session). */
  skills: Skill[];
  /** Custom slash commands found at start (user-side: nothing of them is in a request). */
  commands: CustomCommand[];
  /** Command files refused or unreadable at start (no other file of the name loaded): running the
   * name fails with the reason instead of sending it to the model. */
  unloadedCommands: UnloadedCommand[];
  /** The allowed-tools limits of the current turn (the gate refuses calls outside them). */
  scope: ToolScope;
}
