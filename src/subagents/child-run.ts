/**
 * Runs one child to its end: its own loop over fresh messages, its transcript, its tracker, its
 * limits (turns, wall clock, token budget) and its classification into an outcome. The manager
 * decides whether a child may start; this file decides how it ends.
 */
import { runLoop, type LoopResult } from '../agent/loop.js';
import type { AgentEvent, CompactIfNeeded, Tool } from '../agent/types.js';
import type { Message, StreamFn, ToolSchema, UserMessage } from '../providers/types.js';
import type { CostTracker } from '../cost/tracker.js';
import type { SessionWriter } from '../session/writer.js';
import type { ToolGate } from '../policy/tool-gate.js';
import type { TurnCheckpoints } from '../checkpoints/turns.js';
import type { SharedLimit, SubagentFailureReason, SubagentTokens } from './types.js';

/** Why the manager stopped a child itself (the parent's cancellation is told apart separately). */
export type StopCause = 'killed' | 'timeout' | 'budget' | 'shared_limit';

export interface ChildRunOptions {
  stream: StreamFn;
  model: string;
  system: string;
  tools: Tool[];
  toolSchemas: ToolSchema[];
  /** Tools known by name only when called (MCP's, see tools/on-demand.ts). */
  resolveTool?: (name: string) => Tool | undefined;
  prompt: string;
  /** Messages before the prompt: the session's memory context (the same bytes, the same cache). */
  context?: readonly UserMessage[];
  /** A continued child (`agent` with resume): the earlier child's history, its context included,
   * which then replaces `context` at the start. */
  earlier?: readonly Message[];
  cwd: string;
  projectRoot: string;
  maxTurns: number;
  timeoutSeconds: number;
  budgetTokens: number | undefined;
  /** A limit shared with other processes (see SharedLimit). */
  sharedLimit?: SharedLimit;
  gate: ToolGate;
  tracker: CostTracker;
  writer: SessionWriter | undefined;
  /** The parent's turn: aborting it cancels the child. */
  parentSignal: AbortSignal;
  /** The child's own switch (kill); the manager holds it. */
  controller: AbortController;
  compactIfNeeded?: CompactIfNeeded;
  /** A child working in its own worktree checkpoints it with its own session (its transcript). */
  checkpoints?: TurnCheckpoints;
  emit: (event: AgentEvent) => void;
}

export type ChildEnd =
  | { status: 'completed'; summary: string; turns: number; tokens: SubagentTokens }
  | { status: 'failed' | 'killed'; reason: SubagentFailureReason; hint: string; turns: number; tokens: SubagentTokens };

/** Share of the token budget at which the child is told to wrap up. */
export const BUDGET_WRAP_UP_SHARE = 0.9;
/** Requests a child may still make once told that a shared limit is reached (the one carrying
 * the notice included): enough to answer with a summary, not to go on working. */
export const SHARED_LIMIT_GRACE_TURNS = 2;

export function tokensOf(tracker: CostTracker): SubagentTokens {
  const { usage } = tracker.cumulative();
  return { prompt: usage.inputTokens, completion: usage.outputTokens, cache_hit: usage.cacheReadTokens };
}

export async function runChild(options: ChildRunOptions): Promise<ChildEnd> {
  const { controller, tracker } = options;
  // The abort reason records who stopped the child; the first abort wins, later ones are no-ops.
  const stop = (why: StopCause): void => controller.abort(why);
  const timer = options.timeoutSeconds > 0 ? setTimeout(() => stop('timeout'), options.timeoutSeconds * 1000) : undefined;
  timer?.unref();

  // The child's history starts with the session's memory context and gets it back after a compaction.
  const start: readonly Message[] = options.earlier ?? options.context ?? [];
  const history: Message[] = start.map((message) => ({ ...message }));
  let wrapUpDue = false;
  let wrapUpSent = false;
  const budget = options.budgetTokens;
  const spent = (): number => {
    const tokens = tokensOf(tracker);
    return tokens.prompt + tokens.completion;
  };

  const onEvent = (event: AgentEvent): void => {
    if (event.type === 'message') options.writer?.append({ type: 'message', message: event.message });
    if (event.type === 'usage') {
      tracker.record({ usage: event.usage, costUsd: event.costUsd, model: event.model });
      if (budget !== undefined) {
        const used = spent();
        if (used >= budget) stop('budget');
        else if (used >= budget * BUDGET_WRAP_UP_SHARE) wrapUpDue = true;
      }
    }
    if (event.type === 'compaction') {
      if (options.writer) options.writer.append({ type: 'compaction', summary: event.summary, replaces_through: options.writer.entryCount - 1 });
      if (event.usage) tracker.record({ usage: event.usage, costUsd: event.costUsd ?? 0, model: event.model ?? options.model });
      options.emit(event);
      for (const message of options.context ?? []) {
        history.push({ ...message });
        options.writer?.append({ type: 'message', message });
      }
      return;
    }
    options.emit(event);
  };

  let limitNotice: { turn: number; why: string } | undefined;
  const sharedLimitSteering = async (turn: number): Promise<UserMessage | undefined> => {
    if (limitNotice) {
      if (turn - limitNotice.turn >= SHARED_LIMIT_GRACE_TURNS) stop('shared_limit');
      return undefined;
    }
    // A limit that cannot be read (its store unreachable) does not stop the child.
    const why = await options.sharedLimit!.reached().catch(() => undefined);
    if (!why) return undefined;
    limitNotice = { turn, why };
    wrapUpSent = true; // one notice is enough
    return {
      role: 'user',
      content: `<system-reminder>${why}. Stop working: do not call more tools, and return your summary now with what you have done and found so far.</system-reminder>`,
    };
  };

  const beforeRequest = async ({ turn }: { turn: number }): Promise<UserMessage | undefined> => {
    if (options.sharedLimit) {
      const steering = await sharedLimitSteering(turn);
      if (steering || limitNotice) return steering;
    }
    if (!wrapUpDue || wrapUpSent || budget === undefined) return undefined;
    wrapUpSent = true;
    return {
      role: 'user',
      content: `<system-reminder>You have used ${spent()} of your ${budget} token budget. Stop investigating: do not call more tools, and return your summary now with what you have found so far.</system-reminder>`,
    };
  };

  // The transcript holds what the child was sent, context included, so a promoted or resumed
  // child continues with the same messages (and the same cached prefix).
  for (const message of start) options.writer?.append({ type: 'message', message });
  const { checkpoints } = options;
  await checkpoints?.atTurnStart(options.projectRoot, options.prompt);
  const signal = AbortSignal.any([options.parentSignal, controller.signal]);
  let result: LoopResult;
  try {
    result = await runLoop({
      stream: options.stream,
      model: options.model,
      system: options.system,
      tools: options.tools,
      toolSchemas: options.toolSchemas,
      ...(options.resolveTool ? { resolveTool: options.resolveTool } : {}),
      history,
      input: { role: 'user', content: options.prompt },
      maxTurns: options.maxTurns,
      signal,
      emit: onEvent,
      cwd: options.cwd,
      projectRoot: options.projectRoot,
      beforeToolCall: checkpoints ? async (call) => (await checkpoints.beforeTool(), options.gate.before(call)) : options.gate.before,
      afterToolCall: options.gate.after,
      beforeRequest,
      ...(options.compactIfNeeded ? { compactIfNeeded: options.compactIfNeeded } : {}),
    });
  } catch (error) {
    result = { reason: 'error', turns: 0, finalText: '', errorMessage: `internal error: ${(error as Error).message}` };
  } finally {
    if (timer) clearTimeout(timer);
    await checkpoints?.atTurnEnd();
  }
  const cause = controller.signal.aborted ? (controller.signal.reason as StopCause) : undefined;
  return classify(result, cause, options.parentSignal.aborted, tokensOf(tracker), budget, limitNotice?.why);
}

/** Maps how the loop ended (and who stopped it) to the outcome the parent reads. First match wins. */
export function classify(
  result: LoopResult,
  cause: StopCause | undefined,
  parentCanceled: boolean,
  tokens: SubagentTokens,
  budget: number | undefined,
  /** What the shared limit said when it was reached. */
  sharedLimitWhy?: string,
): ChildEnd {
  const turns = result.turns;
  const base = { turns, tokens };
  if (result.reason === 'completed') {
    if (result.finalText.trim()) return { status: 'completed', summary: result.finalText, ...base };
    return { status: 'failed', reason: 'spawn_error', hint: 'the subagent finished without a summary (its last message was empty)', ...base };
  }
  const partial = result.finalText.trim() ? ` Its last message: ${oneLine(result.finalText, 600)}` : '';
  if (result.reason === 'aborted') {
    if (cause === 'killed') return { status: 'killed', reason: 'killed', hint: 'terminated by the user (/agents or seek subagent kill).', ...base };
    if (cause === 'timeout') return { status: 'failed', reason: 'timeout', hint: `the subagent ran out of wall-clock time after ${turns} turns.${partial}`, ...base };
    if (cause === 'budget') {
      return { status: 'failed', reason: 'budget_exceeded', hint: `the subagent used ${tokens.prompt + tokens.completion} of its ${budget ?? 0}-token budget without returning a summary.${partial}`, ...base };
    }
    if (cause === 'shared_limit') {
      const why = sharedLimitWhy ?? 'a limit shared with other work is reached';
      return { status: 'failed', reason: 'budget_exceeded', hint: `${why}; the subagent was stopped ${SHARED_LIMIT_GRACE_TURNS} requests after being told to wrap up, without returning a summary.${partial}`, ...base };
    }
    return { status: 'failed', reason: 'canceled', hint: parentCanceled ? 'parent turn cancelled.' : 'the subagent was cancelled.', ...base };
  }
  if (result.reason === 'max_turns') {
    return { status: 'failed', reason: 'max_turns_exceeded', hint: `the subagent reached its limit of ${turns} turns without finishing; split the task or narrow it.${partial}`, ...base };
  }
  if (result.reason === 'repeated_tool_call') {
    return { status: 'failed', reason: 'repeated_tool_call', hint: `${result.errorMessage ?? 'the subagent repeated the same tool call'}${partial}`, ...base };
  }
  return { status: 'failed', reason: 'model_error', hint: `the model request failed: ${result.errorMessage ?? 'unknown error'}`, ...base };
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
