/**
 * The subagent manager: admits spawns (type, input limits, concurrency, depth), builds each child
 * from its parent (policy via `spawn`, fresh tool instances bound to the child's own gate, a
 * tracker adopted by the parent's), records it (transcript, index), runs it, and turns the way it
 * ended into the `agent` tool's result. One manager per session serves every level of the tree.
 */
import { hostname } from 'node:os';
import type { AgentEvent, CompactIfNeeded, Tool, ToolContext } from '../agent/types.js';
import type { StreamFn, UserMessage } from '../providers/types.js';
import type { SandboxLauncher } from '../sandbox/launcher.js';
import { CostTracker } from '../cost/tracker.js';
import type { PermissionPolicy } from '../policy/policy.js';
import type { HookRunner } from '../hooks/runner.js';
import { SessionWriter } from '../session/writer.js';
import { newSessionId, toolsHash } from '../session/format.js';
import { subagentKillRequestFile, subagentTranscriptFile } from '../config/paths.js';
import { createToolGate, type AskFn, type ToolGateOptions } from '../policy/tool-gate.js';
import { createAgentTool } from '../tools/agent.js';
import { declareTools, type ToolSet } from '../tools/on-demand.js';
import { SEEK_VERSION } from '../util/version.js';
import { childModel, childPolicy, childSystemPrompt, childToolNames } from './child-setup.js';
import { runChild, tokensOf, type ChildEnd } from './child-run.js';
import { appendSubagentEvent } from './index-log.js';
import { createKillWatcher } from './kill-requests.js';
import { capDescription, failedResult, MAX_PROMPT_BYTES } from './result-format.js';
import { finishChild } from './child-finish.js';
import type { SubagentSettings } from './settings.js';
import { isolate, isolationInstructions, releaseIsolation, type Isolation } from './isolation.js';
import type { WorktreeManager } from '../worktree/manager.js';
import { SlotQueue } from './slots.js';
import { TurnCheckpoints } from '../checkpoints/turns.js';
import { checkpointLimits, type CheckpointSettings } from '../checkpoints/settings.js';
import { NO_FIGURES, type ChildReport, type ChildRunRequest } from './child-report.js';
import { childExtras, type SessionBudget } from './session-budget.js';

export type { ChildReport, ChildRunRequest } from './child-report.js';
import type { SpawnRequest, SubagentEvent, SubagentFailureReason, SubagentOutcome, SubagentType } from './types.js';

/** The agent a child is spawned from: the session itself (depth 0) or another child. */
export interface SpawnParent {
  subSid?: string;
  depth: number;
  model: () => string;
  /** The parent's system prompt; the child's starts with these bytes. */
  systemPrompt: string;
  policy: PermissionPolicy;
  tracker: CostTracker;
  cwd: string;
  /** The parent's tool names in order (`agent` included when it has it). */
  toolNames: readonly string[];
}

export interface SubagentManagerOptions {
  seekHome: string;
  projectId: string;
  projectRoot: string;
  /** The root session's id: every child's transcript lives under its directory. */
  sessionId: string;
  provider: string;
  stream: StreamFn;
  settings: SubagentSettings;
  types: readonly SubagentType[];
  hooks?: HookRunner;
  /** The user's permission prompt (absent in headless runs: approvals are denied with a hint). */
  ask?: AskFn;
  /** The session's sandbox launcher: children's commands are sandboxed under their own root. */
  sandbox?: SandboxLauncher;
  /** The session's wait for the OS sandbox's detection: every child's gate awaits it before a
   * decision that depends on it (tool-gate.ts), so a child started before detection finished (a
   * fleet worker's job, a headless run's first `agent` call) never sees it unfinished. */
  sandboxReady?: () => Promise<void>;
  /** Saves "always" answers given to a child's prompt to a config file. */
  saveRule?: ToolGateOptions['saveRule'];
  /** The memory context (soul, index) the session injected: every child starts with the same. */
  contextMessages?: () => UserMessage[];
  /** Fresh tools for a child (agent excluded, fixed order); `readOnly` for the read-only types (explore, plan). */
  createTools: (options: { readOnly: boolean }) => Tool[];
  /** Which of a child's tools its requests declare and how it reaches the rest (the session's own
   * rule, tools/on-demand.ts); the tools on demand without sources when absent. */
  declareTools?: (tools: Tool[], readOnly: boolean) => ToolSet;
  /** The project's worktrees (git repositories only): `isolation: "worktree"` needs it. */
  worktrees?: WorktreeManager;
  /** Compaction for a child's model, when its context fills up. */
  compactorFor?: (model: string) => CompactIfNeeded;
  /** Write transcripts and the index (false for `--no-save`). */
  save: boolean;
  /** Set by the session: where lifecycle and wrapped loop events go. */
  sink: { emit?: (event: SubagentEvent) => void };
  onProblem?: (message: string) => void;
  /** `checkpoints` of the user's config: whether isolated children checkpoint their worktree. */
  checkpoints?: CheckpointSettings;
  /** The run's budgets (--max-budget-usd, subagents.session_budget_tokens): every child is under them. */
  sessionBudget?: SessionBudget;
}

interface RunningChild {
  subSid: string;
  parentSid: string;
  controller: AbortController;
}

export class SubagentManager {
  private readonly running = new Map<string, RunningChild>();
  private readonly finished: SubagentOutcome[] = [];
  private readonly watcher: ReturnType<typeof createKillWatcher>;
  private readonly slots = new SlotQueue();

  constructor(private readonly options: SubagentManagerOptions) {
    this.watcher = createKillWatcher({
      files: () =>
        [...this.running.values()].map((child) => ({
          subSid: child.subSid,
          file: subagentKillRequestFile(options.seekHome, options.projectId, child.parentSid, child.subSid),
        })),
      onKill: (subSid) => this.kill(subSid),
    });
  }

  get sessionBudget(): SessionBudget | undefined {
    return this.options.sessionBudget;
  }

  get types(): readonly SubagentType[] {
    return this.options.types;
  }

  /** How many children run at once at most (`subagents.max_concurrent`). */
  get maxConcurrent(): number {
    return this.options.settings.maxConcurrent;
  }

  /** Children running now, in start order. */
  activeIds(): string[] {
    return [...this.running.keys()];
  }

  /** Every child that ended in this process, in end order (run summaries slice it). */
  outcomes(): readonly SubagentOutcome[] {
    return this.finished;
  }

  /** Stops a running child; its result says `killed`. False when no such child runs here. */
  kill(subSid: string): boolean {
    const child = this.running.get(subSid);
    if (!child) return false;
    child.controller.abort('killed');
    return true;
  }

  /** The `agent` tool for an agent at `parent`'s level (a child's, when depth allows; the session's
   * own comes from BackgroundChildren, which adds `run_in_background`). */
  agentTool(parent: () => SpawnParent): Tool {
    return createAgentTool({
      types: this.options.types,
      maxConcurrent: this.options.settings.maxConcurrent,
      spawn: async (request, ctx) => (await this.spawn(request, parent(), ctx)).result,
    });
  }

  /** Resolves the `agent` tool's request and runs the child to its end (`run`). Never throws. */
  async spawn(request: SpawnRequest, parent: SpawnParent, ctx: ToolContext, extra: Pick<ChildRunRequest, 'onStarted' | 'earlier'> = {}): Promise<ChildReport> {
    const type = this.options.types.find((candidate) => candidate.name === request.subagentType);
    if (!type) {
      const hint = `unknown subagent_type "${request.subagentType}"; use one of: ${this.options.types.map((t) => t.name).join(', ')}`;
      return { result: { content: failedResult('spawn_error', hint), isError: true }, status: 'failed', reason: 'spawn_error', ...NO_FIGURES };
    }
    return this.run({ description: request.description, prompt: request.prompt, type, isolation: request.isolation, ...extra }, parent, ctx);
  }

  /**
   * Runs one child to its end and reports how it went: the `agent` tool result plus the figures
   * and the summary a caller (the orchestrator) works with. Never throws.
   */
  async run(request: ChildRunRequest, parent: SpawnParent, ctx: ToolContext): Promise<ChildReport> {
    const failure = (reason: SubagentFailureReason, hint: string, subSid?: string): ChildReport => ({
      result: { content: failedResult(reason, hint, subSid), isError: true },
      status: 'failed',
      reason,
      ...(subSid ? { subSid } : {}),
      ...NO_FIGURES,
    });
    const { type } = request;
    if (Buffer.byteLength(request.prompt) > MAX_PROMPT_BYTES) {
      return failure('prompt_too_long', `prompt exceeds 32 KB (${Buffer.byteLength(request.prompt)} bytes); split the task or point the subagent at files instead of pasting them.`);
    }
    const worktrees = this.options.worktrees;
    if (request.isolation === 'worktree' && !worktrees) {
      return failure('spawn_error', 'worktree isolation needs a git repository, and this project is not one; use isolation "none".');
    }
    if (this.running.size >= this.options.settings.maxConcurrent) {
      if (!request.waitForSlot) {
        return failure('too_many_subagents', `${this.running.size} active, retry after one completes (at most ${this.options.settings.maxConcurrent} run at once).`);
      }
      await this.slots.wait(() => this.running.size < this.options.settings.maxConcurrent, ctx.signal);
    }
    if (ctx.signal.aborted) return failure('canceled', 'parent turn cancelled.');

    // Take the slot now: creating a worktree awaits, and parallel calls must not all slip past the limit.
    const subSid = newSessionId();
    const controller = new AbortController();
    this.running.set(subSid, { subSid, parentSid: this.options.sessionId, controller });
    const release = (): void => {
      this.running.delete(subSid);
      if (this.running.size === 0) this.watcher.stop();
      this.slots.released();
    };
    let isolation: Isolation | undefined;
    if (request.isolation === 'worktree' && worktrees) {
      try {
        isolation = await isolate(worktrees, this.options.projectRoot, parent.policy.root, parent.cwd, subSid);
      } catch (error) {
        release();
        return failure('spawn_error', `could not create a worktree: ${(error as Error).message}`);
      }
    }
    /** Frees the slot and, unless the caller takes the worktree over, cleans it up with keep. */
    const releaseAll = async (): Promise<string> => {
      release();
      if (!isolation || !worktrees || request.keepWorktree) return '';
      return releaseIsolation(worktrees, isolation);
    };

    const description = capDescription(request.description);
    let policy: PermissionPolicy;
    try {
      policy = childPolicy(parent.policy, type, isolation?.worktree.path ?? parent.policy.root);
    } catch (error) {
      await releaseAll();
      return failure('spawn_error', (error as Error).message);
    }
    const cwd = isolation?.cwd ?? parent.cwd;
    const depth = parent.depth + 1;
    const chosen = childModel(type.model, parent.model(), this.options.provider);
    if (chosen.note) this.options.onProblem?.(`subagent type ${type.name}: ${chosen.note}`);
    const model = chosen.model;
    const system = childSystemPrompt(parent.systemPrompt, type, description, isolation ? isolationInstructions(isolation.worktree) : undefined);
    const names = childToolNames(type, parent.toolNames, depth < this.options.settings.maxDepth);
    const tracker = new CostTracker();
    const childParent = (): SpawnParent => ({ subSid, depth, model: () => model, systemPrompt: system, policy, tracker, cwd, toolNames: names });
    const readOnly = type.permission === 'plan';
    const declare = this.options.declareTools ?? ((list: Tool[]) => declareTools(list));
    // Declared or on demand, the child's tools are its own (never more than the parent's).
    const { tools, toolSchemas, resolveTool } = declare(this.toolsFor(names, childParent, readOnly), readOnly);
    const gate = createToolGate({
      policy,
      ...(this.options.hooks ? { hooks: this.options.hooks } : {}),
      ...(this.options.ask ? { ask: this.options.ask } : {}),
      ...(this.options.sandbox ? { sandbox: this.options.sandbox } : {}),
      ...(this.options.sandboxReady ? { sandboxReady: this.options.sandboxReady } : {}),
      ...(this.options.saveRule ? { saveRule: this.options.saveRule } : {}),
      ...(this.options.onProblem ? { onProblem: this.options.onProblem } : {}),
      subagent: { id: subSid, description },
      ...(isolation ? { workspace: isolation.view } : {}),
    });

    let writer: SessionWriter | undefined;
    const transcriptPath = this.options.save ? subagentTranscriptFile(this.options.seekHome, this.options.projectId, this.options.sessionId, subSid) : undefined;
    if (transcriptPath) {
      try {
        writer = SessionWriter.create(transcriptPath, {
          id: subSid,
          cwd,
          project_root: this.options.projectRoot,
          project_id: this.options.projectId,
          provider: this.options.provider,
          model,
          system_prompt: system,
          tools_hash: toolsHash(toolSchemas),
          parent_sid: parent.subSid ?? this.options.sessionId,
          subagent: { type: type.name, description },
          seek_version: SEEK_VERSION,
        });
      } catch (error) {
        await releaseAll();
        return failure('spawn_error', `could not create the transcript: ${(error as Error).message}`, subSid);
      }
    }

    // Started: from here on the child is in the parent's bill, the index and the front ends.
    parent.tracker.adoptChild(tracker);
    this.watcher.start();
    this.index({
      event: 'started',
      sub_sid: subSid,
      ts: new Date().toISOString(),
      parent_sid: this.options.sessionId,
      ...(parent.subSid ? { parent_sub_sid: parent.subSid } : {}),
      type: type.name,
      description,
      depth,
      pid: process.pid,
      host: hostname(),
      ...(isolation ? { worktree_path: isolation.worktree.path } : {}),
    });
    this.emit({
      type: 'subagent_start',
      subSid,
      parentCallId: ctx.callId,
      ...(parent.subSid ? { parentSubSid: parent.subSid } : {}),
      depth,
      agentType: type.name,
      description,
      model,
      ...(transcriptPath ? { transcriptPath } : {}),
      ...(request.label ? { label: request.label } : {}),
    });
    request.onStarted?.(subSid);

    // The child's own model responses and tool calls (its children report their own).
    const counts = { modelCalls: 0, toolCalls: 0 };
    let end: ChildEnd;
    try {
      end = await runChild({
        stream: this.options.stream,
        model,
        system,
        tools,
        toolSchemas,
        ...(resolveTool ? { resolveTool } : {}),
        prompt: request.prompt,
        context: this.options.contextMessages?.() ?? [],
        cwd,
        projectRoot: isolation?.worktree.path ?? parent.policy.root, // the parent's worktree, if it entered one
        maxTurns: type.maxTurns ?? this.options.settings.maxTurns,
        timeoutSeconds: type.timeoutSeconds ?? this.options.settings.timeoutSeconds,
        budgetTokens: type.budgetTokens ?? this.options.settings.budgetTokens,
        ...childExtras(request, this.options.sessionBudget),
        gate,
        tracker,
        writer,
        parentSignal: ctx.signal,
        controller,
        ...(this.options.compactorFor ? { compactIfNeeded: this.options.compactorFor(model) } : {}),
        ...(isolation && writer && this.options.checkpoints?.enabled !== false ? { checkpoints: this.childCheckpoints(subSid, writer) } : {}),
        emit: (event: AgentEvent) => {
          if (event.type === 'turn_end') counts.modelCalls++;
          if (event.type === 'tool_end') counts.toolCalls++;
          this.emit({ type: 'subagent_event', subSid, event });
        },
      });
    } catch (error) {
      end = { status: 'failed', reason: 'spawn_error', hint: `internal error: ${(error as Error).message}`, turns: 0, tokens: tokensOf(tracker) };
    }
    const worktreeLine = await releaseAll();
    const result = await finishChild(
      { end, subSid, type: type.name, description, tracker, writer, transcriptPath, parentCallId: ctx.callId, label: request.label },
      { index: (event) => this.index(event), emit: (event) => this.emit(event), outcome: (outcome) => this.finished.push(outcome), ...(this.options.onProblem ? { onProblem: this.options.onProblem } : {}) },
    );
    return {
      result: { ...result, content: result.content + worktreeLine },
      status: end.status,
      ...(end.status === 'completed' ? { summary: end.summary } : { reason: end.reason }),
      subSid,
      turns: end.turns,
      modelCalls: counts.modelCalls,
      toolCalls: counts.toolCalls,
      tokens: end.tokens,
      costUsd: tracker.cumulative().costUsd,
      costKnown: tracker.cumulative().costKnown,
      ...(isolation && request.keepWorktree ? { worktree: isolation.worktree } : {}),
      ...(transcriptPath ? { transcriptPath } : {}),
    };
  }

  /** Checkpoints of an isolated child's worktree, recorded in its transcript under its own id. */
  private childCheckpoints(subSid: string, writer: SessionWriter): TurnCheckpoints {
    const { seekHome, projectId } = this.options;
    return new TurnCheckpoints({
      sessionId: subSid,
      seekHome,
      projectId,
      recorded: [],
      append: (entry) => void writer.append(entry),
      reserve: () => writer.reserve(),
      notice: (text) => this.options.onProblem?.(`subagent ${subSid}: ${text}`),
      ...(this.options.checkpoints ? checkpointLimits(this.options.checkpoints) : {}),
    });
  }

  /** Fresh core tools filtered to `names` (in order), plus a nested `agent` tool when named. */
  private toolsFor(names: readonly string[], parent: () => SpawnParent, readOnly: boolean): Tool[] {
    const wanted = new Set(names);
    const tools = this.options.createTools({ readOnly }).filter((tool) => wanted.has(tool.name));
    if (wanted.has('agent')) tools.push(this.agentTool(parent));
    return tools;
  }

  private index(event: Parameters<typeof appendSubagentEvent>[2]): void {
    if (!this.options.save) return;
    appendSubagentEvent(this.options.seekHome, this.options.projectId, event, this.options.onProblem);
  }

  private emit(event: SubagentEvent): void {
    try {
      this.options.sink.emit?.(event);
    } catch {
      // A broken front end must not break a child.
    }
  }
}
