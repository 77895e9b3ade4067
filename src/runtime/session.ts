import { runLoop } from '../agent/loop.js';
import type { AgentEvent, BeforeToolCall, ToolResult } from '../agent/types.js';
import { randomBytes } from 'node:crypto';
import type { Message, StreamFn, ToolCall, ToolImage } from '../providers/types.js';
import type { OrchestrationSummary, TaskSpec } from '../orchestrator/types.js';
import type { SingleTask } from './orchestration.js';
import type { ChildReport } from '../subagents/child-report.js';
import { summarySince, type RunFigures, type RunMark } from './run-summary.js';
import { formatCost, formatTokens } from '../cost/format.js';
import type { HookRunner } from '../hooks/runner.js';
import { killBackgroundJobs } from '../tools/index.js';
import { SessionWriter } from '../session/writer.js';
import { DelegateCalls } from './delegate-calls.js';
import { finishSessionWorktree } from './session-worktree.js';
import { modeReminder } from './system-prompt.js';
import type { RunSummary, SessionEvent, SessionListener } from './events.js';
import { prepareSession, type OpenSessionOptions, type PreparedSession } from './prepare.js';
import type { TurnCheckpoints } from '../checkpoints/turns.js';
import { readsOnly, sessionCheckpoints } from './session-checkpoints.js';
import { applyMode } from './permissions.js';
import { commandTurn } from './custom-commands.js';
import { CALL_TOOL } from '../agent/tool-proxy.js';
import { SessionRewind } from '../checkpoints/session-rewind.js';
import { checkpointLimits } from '../checkpoints/settings.js';
import { monotonicMs } from '../util/clock.js';
import { redact } from '../util/redact.js';
import { redactEvent } from './redact-event.js';
import { SessionView } from './session-view.js';
import { backgroundResults } from './background-agents.js';

export type { OpenSessionOptions } from './prepare.js';

/**
 * One conversation with the model in one project: the unit every front end drives. It owns the
 * history (append-only), persists every message as it is appended, records cost per turn, and
 * fans the loop's events out to subscribers. It never renders anything.
 */
export class AgentSession extends SessionView {
  /** Every delegate_tasks run of this session, in end order (run summaries slice it). */
  private readonly orchestrations: OrchestrationSummary[] = [];
  private readonly listeners = new Set<SessionListener>();
  private readonly writer: SessionWriter | undefined;
  private readonly hooks: HookRunner | undefined;
  private readonly delegateCalls: DelegateCalls;
  /** Checkpoints at every user turn (none for a session that is not saved: nothing could list them). */
  private readonly checkpoints: TurnCheckpoints | undefined;
  /** The gate's check, after the turn-start checkpoint is in: no tool changes the tree before it.
   * The gate itself waits for the OS sandbox's detection when its decision depends on it. */
  private readonly beforeToolCall: BeforeToolCall = async (call) => {
    await this.checkpoints?.beforeTool({ readOnly: readsOnly(call.tool) });
    return this.prepared.gate.before(call);
  };
  /** Before anything that can run a tool or spawn a child outside the loop's own calls (a
   * command's `!cmd`, a hook, an interrupted delegate_tasks call, a plan): the turn-start
   * checkpoint is in, and the policy knows the OS sandbox. */
  private async beforeAction(): Promise<void> {
    await this.checkpoints?.beforeTool();
    await this.prepared.sandboxReady();
  }
  private startAnnounced = false;
  private closed = false;

  constructor(prepared: PreparedSession) {
    super(prepared);
    this.delegateCalls = new DelegateCalls({ prepared, record: (message) => this.record(message), emit: (event) => this.emit(event) });
    this.writer = prepared.writer;
    this.hooks = prepared.hooks;
    this.checkpoints = sessionCheckpoints(prepared, (text) => this.emit({ type: 'notice', level: 'warn', text }));
    prepared.noticeSink.emit = (notice) => this.emit({ type: 'notice', level: notice.level, text: notice.text });
    prepared.subagentSink.emit = (event) => this.emit(event);
    prepared.orchestrationSink.emit = (event) => {
      if (event.type === 'orchestration_end') this.orchestrations.push(event.summary);
      this.emit(event);
    };
  }

  /** Rewinding this session (/rewind); undefined while it has no file (nothing to rewind yet). */
  get rewind(): SessionRewind | undefined {
    const { writer, checkpoints } = this;
    if (!writer?.created || !checkpoints) return undefined;
    const limits = checkpointLimits(this.prepared.checkpointSettings);
    return new SessionRewind({ sessionId: this.id, seekHome: this.seekHome, projectId: this.projectId, sessionPath: writer.path, checkpoints, ...limits });
  }

  /** Whether the session has a file to resume (a session is saved with its first message; never
   * under --no-save). */
  get saved(): boolean {
    return this.savedAtClose ?? this.writer?.created === true;
  }

  /** `saved` as it was when the session closed (closing the writer forgets a deferred header). */
  private savedAtClose: boolean | undefined;

  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs one user prompt to completion (or cancellation) and summarises what it cost. A prompt
   * naming a custom command (`/name args`) is expanded first; when that fails (a refused
   * `` !`cmd` ``) nothing is sent and the summary says why (`commandFailed`).
   */
  async prompt(text: string, signal: AbortSignal = new AbortController().signal, attached: { images?: ToolImage[] } = {}): Promise<RunSummary> {
    this.announceStart();
    const mark = this.mark();
    // Allowed-tools limits last one turn: each prompt starts without any.
    this.prepared.scope.reset();
    // Recorded before the turn's messages, so a conversation rewind forks just before this entry;
    // the snapshot overlaps the first request, and everything of the turn that could change the
    // tree (a command's `!cmd`, a hook, a tool call, an interrupted call finished) waits for it.
    await this.checkpoints?.atTurnStart(this.prepared.workspace.root, text);
    if (text.startsWith('/')) await this.beforeAction();
    const run = await commandTurn(text, this.prepared, signal);
    if (run && 'error' in run) {
      this.prepared.scope.reset();
      await this.checkpoints?.atTurnEnd();
      return { ...this.summarySince(mark), reason: 'error', finalText: '', errorMessage: redact(run.error), commandFailed: true, turns: 0 };
    }
    for (const text of run?.notices ?? []) this.emit({ type: 'notice', level: 'warn', text });
    if (run?.limit) this.prepared.scope.narrow(run.limit);
    // The command's model for its turn only; the session's own afterwards.
    const sessionModel = this.model;
    if (run?.model) this.setModel(run.model);
    try {
      return await this.runPrompt(run?.text ?? text, signal, mark, attached.images);
    } finally {
      if (run?.model) this.setModel(sessionModel);
      this.prepared.scope.reset();
    }
  }

  /** Runs the turn of `text` (a custom command already expanded) after its checkpoint was started. */
  private async runPrompt(text: string, signal: AbortSignal, mark: RunMark, images: ToolImage[] | undefined): Promise<RunSummary> {
    if (this.hooks) await this.checkpoints?.beforeTool();
    await this.hooks?.prePrompt(text);
    if (this.delegateCalls.pending) await this.beforeAction();
    await this.delegateCalls.finishInterrupted(signal);
    if (this.delegateCalls.pending) {
      // Cancelled while finishing an interrupted call: the prompt must not follow an unanswered call.
      return { ...this.summarySince(mark), reason: 'aborted', finalText: '', turns: 0 };
    }
    // Memory's context goes in once, as user-role messages before the first prompt (again only
    // after a compaction replaced the history); never into the system prompt, so the cache holds.
    for (const message of this.prepared.memory.memory?.contextToInject(this.history) ?? []) this.record(message);
    // MCP servers that became ready (or failed) since the last prompt, announced the same way,
    // and the MCP resources the prompt mentions (`@server:uri`).
    for (const message of this.prepared.mcp.takeAnnouncements()) this.record(message);
    for (const message of await this.prepared.mcp.resourcesMentioned(text, signal)) this.record(message);
    const waiting = backgroundResults(this.background); // background children's results, at the boundary
    if (waiting) this.record(waiting);

    // The run's dollar budget is checked at each request boundary; once spent the run ends there.
    const budget = this.prepared.subagents.sessionBudget;
    const budgetStop = new AbortController();
    let overBudget: string | undefined;
    const result = await runLoop({
      stream: this.prepared.stream,
      model: this.model,
      system: this.prepared.systemPrompt,
      tools: this.prepared.tools,
      toolSchemas: this.prepared.toolSchemas,
      ...(this.prepared.resolveTool ? { resolveTool: this.prepared.resolveTool } : {}),
      history: this.history,
      input: { role: 'user', content: text + modeReminder(this.policy.workflow), ...(images?.length ? { images } : {}) },
      maxTurns: this.prepared.maxTurns,
      signal: budget?.active ? AbortSignal.any([signal, budgetStop.signal]) : signal,
      emit: (event) => this.onLoopEvent(event),
      cwd: this.cwd,
      projectRoot: this.projectRoot,
      workspace: () => ({ cwd: this.prepared.workspace.cwd, projectRoot: this.prepared.workspace.root }),
      beforeToolCall: this.beforeToolCall,
      afterToolCall: this.prepared.gate.after,
      compactIfNeeded: this.prepared.compactor.compactIfNeeded,
      beforeRequest: () => {
        overBudget = budget?.parentReached();
        if (overBudget) budgetStop.abort('budget');
        return overBudget ? undefined : backgroundResults(this.background);
      },
    });
    // A headless run reports only after the observation checks it started have finished (or timed
    // out): their outcome and their cost belong to this run.
    if (!this.prepared.interactive) await this.prepared.memory.memory?.drain();
    await this.checkpoints?.atTurnEnd();
    await this.writer?.flush();

    const stopped = overBudget !== undefined && result.reason === 'aborted' && !signal.aborted;
    const errorMessage = stopped ? `stopped: ${overBudget}` : result.errorMessage;
    return {
      ...this.summarySince(mark),
      reason: stopped ? 'max_budget_usd' : result.reason,
      finalText: result.finalText,
      ...(errorMessage ? { errorMessage: redact(errorMessage) } : {}),
      turns: result.turns,
    };
  }

  /** Why the run's dollar budget (--max-budget-usd) is spent, or undefined while it is not. */
  overBudget(): string | undefined {
    return this.prepared.subagents.sessionBudget?.parentReached();
  }

  /** Where a run starts: its bill, children and orchestrations are what comes after. */
  mark(): RunMark {
    return { started: monotonicMs(), cost: this.tracker.cumulative(), children: this.prepared.subagents.outcomes().length, orchestrations: this.orchestrations.length };
  }

  /** What a run billed and started since `mark` (its subagents and orchestrations). */
  summarySince(mark: RunMark): RunFigures {
    return summarySince(mark, { sessionId: this.id, tracker: this.tracker, children: this.prepared.subagents.outcomes(), orchestrations: this.orchestrations });
  }

  /**
   * `seek run PLAN`: the plan runs as this session's own delegate_tasks call, recorded like one
   * (a user line naming the file, the call, its result), so `--resume` and later conversation see
   * it. No model turn at this level; the children bill as usual. A resumed session whose run was
   * interrupted finishes that call instead (its completed tasks reused).
   */
  async runPlan(plan: { source: string; goal: string; tasks: TaskSpec[] }, signal: AbortSignal = new AbortController().signal): Promise<RunSummary> {
    this.announceStart();
    const mark = this.mark();
    const request = `Run the plan in ${plan.source}. Goal: ${plan.goal}`;
    await this.checkpoints?.atTurnStart(this.prepared.workspace.root, request);
    await this.beforeAction();
    await this.hooks?.prePrompt(request);
    let result: ToolResult | undefined;
    if (this.delegateCalls.pending) {
      result = await this.delegateCalls.finishInterrupted(signal);
    } else {
      this.record({ role: 'user', content: request });
      const call: ToolCall = { id: `run_${randomBytes(6).toString('hex')}`, name: 'delegate_tasks', arguments: JSON.stringify({ tasks: plan.tasks, goal: plan.goal }) };
      // In history as a call of a declared tool: through call_tool when delegate_tasks is on demand.
      const declared = this.prepared.toolSchemas.some((tool) => tool.name === call.name);
      const recorded: ToolCall = declared ? call : { id: call.id, name: CALL_TOOL, arguments: JSON.stringify({ name: call.name, arguments: { tasks: plan.tasks, goal: plan.goal } }) };
      this.record({ role: 'assistant', content: '', toolCalls: [recorded], stopReason: 'tool_calls' });
      result = await this.delegateCalls.run(call, plan.tasks, plan.goal, signal);
    }
    await this.checkpoints?.atTurnEnd();
    await this.writer?.flush();
    const runs = this.orchestrations.slice(mark.orchestrations);
    const incomplete = signal.aborted || !result || runs.length === 0 || runs.some((run) => run.status !== 'completed');
    return {
      ...this.summarySince(mark),
      reason: signal.aborted ? 'aborted' : incomplete ? 'error' : 'completed',
      finalText: result?.content ?? '',
      ...(incomplete && !signal.aborted ? { errorMessage: result ? 'not every task of the plan completed' : 'the plan did not run' } : {}),
      turns: 0,
    };
  }

  /**
   * A fleet worker's job: one plan task (its prompt built by the coordinator) run as a child of
   * this session in its working tree, as a local plan task runs. Throws for an unknown role.
   */
  async runTask(task: SingleTask, signal: AbortSignal): Promise<ChildReport> {
    this.announceStart();
    const ctx = { cwd: this.prepared.workspace.cwd, projectRoot: this.prepared.workspace.root, signal, callId: `job_${task.id}` };
    try {
      return await this.prepared.orchestration.runTask(task, ctx);
    } finally {
      await this.writer?.flush();
    }
  }

  /** Appends a message the loop did not produce: to history, the session file and the front ends. */
  private record(message: Message): void {
    this.history.push(message);
    this.onLoopEvent({ type: 'message', message });
  }

  /**
   * `/compact`: summarises the history now and continues from the summary. Billed like a turn.
   * Returns the compaction event it emitted (undefined when there is nothing to compact).
   */
  async compact(instructions?: string, signal: AbortSignal = new AbortController().signal): Promise<AgentEvent | undefined> {
    if (this.history.length === 0) return undefined;
    const compaction = await this.prepared.compactor.compactNow(this.history, signal, instructions);
    this.history.splice(0, this.history.length, ...compaction.messages);
    const { messages: _messages, ...details } = compaction;
    const event: AgentEvent = { type: 'compaction', turn: 0, reason: 'manual', ...details };
    this.onLoopEvent(event);
    await this.writer?.flush();
    return event;
  }

  /** Sets the permission mode (the interactive `/ask`, `/auto`, `/yolo`, `/plan`, Shift+Tab). */
  setMode(mode: 'ask' | 'auto' | 'yolo' | 'plan'): string {
    return applyMode(this.policy, mode);
  }

  costReport(): string {
    const total = this.tracker.cumulative();
    const share = this.tracker.cacheHitShare();
    return `${formatTokens(total.usage.inputTokens)} in (${Math.round(share * 100)}% cache hits) · ${formatTokens(total.usage.outputTokens)} out · ${formatCost(total.costUsd, total.costKnown)}`;
  }

  /** Lines for the user once the session closed (what became of a `--worktree` worktree). */
  readonly closingNotes: string[] = [];

  /** `handOver`: the next session works in this one's worktree, so it is neither reported nor
   * removed here. `keepBackgroundJobs`: other sessions of this process (a fleet worker's other
   * jobs) may own background commands, which are process-wide; the caller ends them. */
  async close(options: { handOver?: boolean; keepBackgroundJobs?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Background children end with their parent (recorded as killed); results the model never
    // saw go into the history, so a resumed session sees their final state.
    await this.background.stopAll();
    const unseen = backgroundResults(this.background);
    if (unseen && this.writer?.created) this.record(unseen);
    if (!options.keepBackgroundJobs) killBackgroundJobs();
    await this.prepared.mcp.close();
    await this.prepared.lsp.stop();
    const { worktrees, workspace } = this.prepared;
    // A session that never started has no file to resume: its empty worktree goes too.
    const note = worktrees && !options.handOver ? await finishSessionWorktree(workspace, worktrees, this.writer?.created ? this.id : undefined) : undefined;
    if (note) this.closingNotes.push(note);
    // Observation checks still running get a few seconds to finish; then they are dropped (and said so).
    await this.prepared.memory.memory?.observer?.drain(CLOSE_DRAIN_MS);
    this.prepared.memory.cancel();
    const total = this.tracker.cumulative();
    await this.hooks?.sessionEnd({ turns: this.tracker.turns().length, usage: total.usage });
    this.savedAtClose = this.writer?.created === true;
    await this.writer?.close();
  }

  private announceStart(): void {
    if (this.startAnnounced) return;
    this.startAnnounced = true;
    this.emit({ type: 'session_start', sessionId: this.id, model: this.model, provider: this.provider, cwd: this.cwd, resumed: this.prepared.resumed });
    for (const notice of this.prepared.notices) this.emit({ type: 'notice', level: notice.level, text: notice.text });
  }

  private onLoopEvent(event: AgentEvent): void {
    if (event.type === 'message') this.writer?.append({ type: 'message', message: event.message });
    if (event.type === 'usage') this.tracker.record({ usage: event.usage, costUsd: event.costUsd, model: event.model });
    if (event.type === 'compaction') {
      // Replaces every entry written so far (see session/format.ts); later ones are kept.
      if (this.writer) this.writer.append({ type: 'compaction', summary: event.summary, replaces_through: this.writer.entryCount - 1, reason: event.reason, replaced_messages: event.replacedMessages });
      if (event.usage) this.tracker.record({ usage: event.usage, costUsd: event.costUsd ?? 0, model: event.model ?? this.model });
      // Memory's context survives at once, not only from the next prompt on: a long turn goes on
      // with the index it started with. Recorded after the compaction entry, so a resume rebuilds
      // the same history.
      this.emit(event);
      for (const message of this.prepared.memory.memory?.contextToInject(this.history) ?? []) this.record(message);
      return;
    }
    if (event.type === 'loop_end') {
      this.writer?.append({ type: 'event', name: 'loop_end', data: { reason: event.reason, turns: event.turns } });
    }
    this.emit(event);
  }

  private emit(raw: SessionEvent): void {
    // Every front end (terminal UI, text, json, stream-json, ACP) sees errors and notices redacted.
    const event = redactEvent(raw);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken front end must not break the session.
      }
    }
  }
}

export async function openSession(options: OpenSessionOptions & { stream?: StreamFn }): Promise<AgentSession> {
  return new AgentSession(await prepareSession(options));
}

const CLOSE_DRAIN_MS = 5000;
