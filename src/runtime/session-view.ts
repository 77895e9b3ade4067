/**
 * What front ends read about a session, and the few settings they change (the model): the state
 * the composition root prepared, exposed one accessor at a time. AgentSession (session.ts) adds
 * what runs it: prompts, plans, compaction, events, closing.
 */
import type { Message } from '../providers/types.js';
import type { CostTracker } from '../cost/tracker.js';
import type { PermissionPolicy } from '../policy/policy.js';
import type { TodoStore } from '../tools/index.js';
import type { WorktreeManager } from '../worktree/manager.js';
import type { WorktreeInfo } from '../worktree/types.js';
import type { McpManager } from '../mcp/index.js';
import type { SessionMemory } from '../memory/session-memory.js';
import type { MemorySettings } from '../memory/settings.js';
import type { DistillResult } from '../memory/distill.js';
import type { EntryInput } from '../memory/entry.js';
import type { BackgroundChildren } from '../subagents/background.js';
import type { CustomCommand, UnloadedCommand } from '../extensions/commands.js';
import type { Skill } from '../extensions/skills.js';
import { lookupModel } from '../providers/catalog.js';
import type { Orchestration } from './orchestration.js';
import { distillSession, rememberDistilled } from './session-distill.js';
import type { PreparedSession, TranscriptEntry } from './session-types.js';

export class SessionView {
  readonly id: string;
  readonly provider: string;
  readonly seekHome: string;
  readonly projectRoot: string;
  readonly projectId: string;
  readonly cwd: string;
  readonly tracker: CostTracker;
  readonly policy: PermissionPolicy;
  readonly todos: TodoStore;
  readonly history: Message[];
  /** A resumed session's conversation as it was shown (PreparedSession.transcript). */
  readonly transcript: readonly TranscriptEntry[];

  constructor(protected readonly prepared: PreparedSession) {
    this.id = prepared.id;
    this.transcript = prepared.transcript;
    this.seekHome = prepared.seekHome;
    this.provider = prepared.provider;
    this.projectRoot = prepared.projectRoot;
    this.projectId = prepared.projectId;
    this.cwd = prepared.cwd;
    this.tracker = prepared.tracker;
    this.policy = prepared.policy;
    this.todos = prepared.todos;
    this.history = prepared.history;
  }

  /** The project's seek worktrees (undefined outside git repositories). */
  get worktrees(): WorktreeManager | undefined {
    return this.prepared.worktrees;
  }

  /** The session's MCP servers (/mcp). */
  get mcp(): McpManager {
    return this.prepared.mcp;
  }

  /** The session's language servers (src/lsp). */
  get lsp(): PreparedSession['lsp'] {
    return this.prepared.lsp;
  }

  /** Project memory and the user profile of this session (undefined when memory is off). */
  get memory(): SessionMemory | undefined {
    return this.prepared.memory.memory;
  }

  /** The memory settings in force (half-life for scores, limits). */
  get memorySettings(): MemorySettings {
    return this.prepared.memory.settings;
  }

  /**
   * `/distill`: proposes up to three project decisions from this session's history, billed to the
   * session like any turn. Saves nothing: the caller has the user review them (`rememberDistilled`).
   */
  distill(signal: AbortSignal): Promise<DistillResult> {
    return distillSession(this.prepared, signal);
  }

  /** Saves a candidate the user approved in the distill review. */
  rememberDistilled(candidate: EntryInput): Promise<void> {
    return rememberDistilled(this.prepared, candidate);
  }

  /** delegate_tasks and `seek run`. */
  get orchestration(): Orchestration {
    return this.prepared.orchestration;
  }

  /** The worktree the session works in after enter_worktree (undefined in the project itself). */
  get worktree(): WorktreeInfo | undefined {
    return this.prepared.workspace.worktree;
  }

  /** Subagents running now (sub-sids, in start order). */
  activeSubagents(): string[] {
    return this.prepared.subagents.activeIds();
  }

  /** Children running in the background and their results waiting for the model. */
  get background(): BackgroundChildren {
    return this.prepared.background;
  }

  /** Stops a running subagent of this session; false when none with that id runs here. */
  killSubagent(subSid: string): boolean {
    return this.prepared.subagents.kill(subSid);
  }

  /** The model the next request goes to (`/model` changes it). */
  get model(): string {
    return this.prepared.model;
  }

  /** Switches the model for the following requests. The system prompt and tools stay as they are,
   * so only the provider's cache (per model) starts cold. */
  setModel(model: string): void {
    this.prepared.model = model;
    this.prepared.compactor = this.prepared.compactorFor(model);
  }

  /** The model's context window, for the share of it in use. */
  get contextWindow(): number {
    return lookupModel(this.model).contextWindow;
  }


  /** The custom slash commands found at start (front ends list them; `prompt` runs them). */
  get customCommands(): readonly CustomCommand[] {
    return this.prepared.commands;
  }

  /** Command files refused at start: running one fails with the reason (custom-commands.ts). */
  get unloadedCommands(): readonly UnloadedCommand[] {
    return this.prepared.unloadedCommands ?? [];
  }

  /** The skills found at start (`/skills` lists them; the model loads them with the skill tool). */
  get skills(): readonly Skill[] {
    return this.prepared.skills;
  }
}
