import type { AgentEvent } from '../../agent/types.js';
import { isCostKnown } from '../../cost/tracker.js';
import type { SessionEvent } from '../../runtime/events.js';
import type { SubagentOutcome } from '../../subagents/types.js';
import { keyArgument } from './key-argument.js';
import { reducePlans, type PlanView } from './plans.js';

/**
 * The session's subagents as the UI shows them (agent rows, the status bar, /agents, /cost),
 * folded from the same session events as the conversation. Only the wrapper events are read here:
 * a child's own loop events arrive inside `subagent_event` and are counted for that child alone,
 * never for the parent (the conversation reducer ignores the wrappers entirely).
 *
 * Pure: `now` is passed in so tests control the clock. Objects are replaced, never mutated, so
 * memoised rows re-render exactly when their child changed.
 */

export type ChildStatus = 'running' | 'completed' | 'failed' | 'killed';

/** One row of a child's live transcript (the /agents detail view). Contract: no newlines. */
export interface TranscriptLine {
  kind: 'text' | 'tool' | 'error' | 'info';
  text: string;
  /** Tool rows: the call id (so the end updates the start row) and how the call went. */
  callId?: string;
  status?: 'running' | 'done' | 'error';
}

export interface SubagentView {
  subSid: string;
  /** The parent's `agent` tool call this child answers. */
  parentCallId: string;
  /** Set for nested children (their parent is itself a subagent). */
  parentSubSid?: string;
  depth: number;
  type: string;
  description: string;
  /** The plan task this child runs (delegate_tasks), e.g. `t2`. */
  label?: string;
  model: string;
  status: ChildStatus;
  reason?: string;
  /** `turn_start` events seen (the outcome's count once ended). */
  turns: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** False once a request was billed by a model without known prices (shown as "—"); absent: known. */
  costKnown?: boolean;
  /** The tool the child is running now (the latest started of those still running), with its
   * key argument on one line; absent while it thinks or writes. */
  currentTool?: ToolRef;
  /** Every call of the child still running (read-only calls run in parallel). */
  runningTools: readonly ToolRef[];
  startedAt: number;
  endedAt?: number;
  transcriptPath?: string;
  /** The last TRANSCRIPT_LINES lines of text, tool calls and errors. */
  transcript: readonly TranscriptLine[];
  /** Whether the last transcript line is text still being streamed (the next delta continues it). */
  textOpen: boolean;
}

export interface ToolRef {
  callId: string;
  name: string;
  summary: string;
}

export interface SubagentsState {
  /** In start order (so top-level children line up with the cost tracker's children). */
  children: readonly SubagentView[];
  /** When the latest child ended (the status bar's brief "agent done"). */
  lastEndedAt?: number;
  /** delegate_tasks plans of this session, in start order. */
  plans: readonly PlanView[];
}

/** Lines of a child's transcript kept for /agents (a long answer is read there in full). */
export const TRANSCRIPT_LINES = 2000;

export const initialSubagents = (): SubagentsState => ({ children: [], plans: [] });

/** Applies one session event; returns `state` itself for events that are not about subagents. */
export function reduceSubagents(state: SubagentsState, event: SessionEvent, now: number): SubagentsState {
  const plans = reducePlans(state.plans, event);
  if (plans !== state.plans) state = { ...state, plans };
  switch (event.type) {
    case 'subagent_start': {
      if (state.children.some((child) => child.subSid === event.subSid)) return state;
      const child: SubagentView = {
        subSid: event.subSid,
        parentCallId: event.parentCallId,
        ...(event.parentSubSid ? { parentSubSid: event.parentSubSid } : {}),
        depth: event.depth,
        type: event.agentType,
        description: event.description,
        ...(event.label ? { label: event.label } : {}),
        model: event.model,
        status: 'running',
        turns: 0,
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
        runningTools: [],
        startedAt: now,
        ...(event.transcriptPath ? { transcriptPath: event.transcriptPath } : {}),
        transcript: [],
        textOpen: false,
      };
      return { ...state, children: [...state.children, child] };
    }
    case 'subagent_event':
      return update(state, event.subSid, (child) => (child.status === 'running' ? applyChildEvent(child, event.event) : child));
    case 'subagent_end': {
      const next = update(state, event.outcome.subSid, (child) => endChild(child, event.outcome, now));
      return next === state ? state : { ...next, lastEndedAt: now };
    }
    default:
      return state;
  }
}

/** Applies every event of a batch (the UI's per-frame update). */
export function reduceSubagentEvents(state: SubagentsState, events: readonly SessionEvent[], now: number): SubagentsState {
  return events.reduce((current, event) => reduceSubagents(current, event, now), state);
}

export function runningCount(state: SubagentsState): number {
  return state.children.filter((child) => child.status === 'running').length;
}

/** The children answering one of the session's own `agent` calls. Nested children are left out:
 * their call ids belong to a child's history and could collide with the parent's. */
export function childrenOfCall(state: SubagentsState, callId: string): SubagentView[] {
  return state.children.filter((child) => child.parentCallId === callId && child.parentSubSid === undefined);
}

export function newestFirst(state: SubagentsState): SubagentView[] {
  return [...state.children].reverse();
}

function update(state: SubagentsState, subSid: string, change: (child: SubagentView) => SubagentView): SubagentsState {
  const index = state.children.findIndex((child) => child.subSid === subSid);
  if (index === -1) return state; // a child of an earlier session, or one this UI never saw start
  const before = state.children[index]!;
  const after = change(before);
  if (after === before) return state;
  const children = [...state.children];
  children[index] = after;
  return { ...state, children };
}

function applyChildEvent(open: SubagentView, event: AgentEvent): SubagentView {
  if (event.type === 'text_delta') return event.text === '' ? open : appendText(open, event.text);
  // Anything else that reaches the transcript ends the text being streamed.
  const child = TEXT_ENDERS.has(event.type) ? closeText(open) : open;
  switch (event.type) {
    case 'turn_start':
      return { ...child, turns: child.turns + 1 };
    case 'usage':
      return addUsage(child, event.usage.inputTokens, event.usage.outputTokens, event.costUsd, isCostKnown(event.costUsd, event.model));
    case 'compaction':
      // Billed like a turn by the child's tracker, so counted here too.
      return event.usage ? addUsage(child, event.usage.inputTokens, event.usage.outputTokens, event.costUsd ?? 0, isCostKnown(event.costUsd, event.model ?? child.model)) : child;
    case 'tool_start': {
      const summary = keyArgument(event.toolCall.name, event.args ?? event.toolCall.arguments);
      const tool: ToolRef = { callId: event.toolCall.id, name: event.toolCall.name, summary };
      const line: TranscriptLine = { kind: 'tool', text: joinTool(tool.name, summary), callId: tool.callId, status: 'running' };
      return { ...withRunning(child, [...child.runningTools, tool]), transcript: push(child.transcript, line) };
    }
    case 'tool_end': {
      const failed = event.message.isError === true;
      const index = findLast(child.transcript, (line) => line.callId === event.toolCall.id);
      const start = child.transcript[index];
      const error = failed ? firstLineOf(event.message.content) : '';
      const text = `${start?.text ?? event.toolCall.name}${error ? ` — ${error}` : ''}`;
      const line: TranscriptLine = { kind: 'tool', text, callId: event.toolCall.id, status: failed ? 'error' : 'done' };
      const transcript = start ? child.transcript.map((entry, at) => (at === index ? line : entry)) : push(child.transcript, line);
      const running = child.runningTools.filter((tool) => tool.callId !== event.toolCall.id);
      return { ...withRunning(child, running), transcript };
    }
    case 'retry':
      return { ...child, transcript: push(child.transcript, { kind: 'info', text: `retrying (${event.attempt + 1}/${event.maxAttempts}): ${firstLineOf(event.error.message)}` }) };
    case 'error':
      return { ...child, transcript: push(child.transcript, { kind: 'error', text: firstLineOf(event.error.message) }) };
    default:
      return child;
  }
}

function endChild(child: SubagentView, outcome: SubagentOutcome, now: number): SubagentView {
  const rest = withRunning(closeText(child), []);
  const summary = `${outcome.status}${outcome.reason && outcome.status !== 'killed' ? ` (${outcome.reason})` : ''} · ${outcome.turns} turn${outcome.turns === 1 ? '' : 's'}`;
  // The outcome is authoritative (its tracker saw every billed request, compactions included).
  return {
    ...rest,
    status: outcome.status,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    turns: outcome.turns,
    inputTokens: outcome.usage.inputTokens,
    outputTokens: outcome.usage.outputTokens,
    costUsd: outcome.costUsd,
    costKnown: outcome.costKnown ?? true,
    endedAt: now,
    ...(outcome.transcriptPath ? { transcriptPath: outcome.transcriptPath } : {}),
    transcript: push(rest.transcript, { kind: outcome.status === 'completed' ? 'info' : 'error', text: summary }),
  };
}

/** Sets the running calls; the current tool is the latest of them (absent when none runs). */
function withRunning(child: SubagentView, running: readonly ToolRef[]): SubagentView {
  const { currentTool: _previous, ...rest } = child;
  const current = running[running.length - 1];
  return { ...rest, runningTools: running, ...(current ? { currentTool: current } : {}) };
}

function addUsage(child: SubagentView, input: number, output: number, cost: number, known: boolean): SubagentView {
  const costKnown = (child.costKnown ?? true) && known;
  return { ...child, inputTokens: child.inputTokens + input, outputTokens: child.outputTokens + output, costUsd: child.costUsd + cost, costKnown };
}

const TEXT_ENDERS = new Set<AgentEvent['type']>(['turn_start', 'tool_start', 'tool_end', 'retry', 'error']);

/** Ends the streamed text line; an empty one (the text ended with a newline) is dropped. */
function closeText(child: SubagentView): SubagentView {
  if (!child.textOpen) return child;
  const last = child.transcript[child.transcript.length - 1];
  const transcript = last?.kind === 'text' && last.text.trim() === '' ? child.transcript.slice(0, -1) : child.transcript;
  return { ...child, transcript, textOpen: false };
}

/** Streams text into the transcript: a delta continues the open line; each newline starts one. */
function appendText(child: SubagentView, text: string): SubagentView {
  const pieces = text.split('\n');
  const lines = [...child.transcript];
  const last = lines[lines.length - 1];
  if (child.textOpen && last?.kind === 'text') lines[lines.length - 1] = { kind: 'text', text: last.text + pieces.shift()! };
  for (const piece of pieces) lines.push({ kind: 'text', text: piece });
  return { ...child, transcript: cap(lines), textOpen: true };
}

function push(lines: readonly TranscriptLine[], line: TranscriptLine): TranscriptLine[] {
  return cap([...lines, line]);
}

function cap(lines: TranscriptLine[]): TranscriptLine[] {
  return lines.length > TRANSCRIPT_LINES ? lines.slice(lines.length - TRANSCRIPT_LINES) : lines;
}

function joinTool(name: string, summary: string): string {
  return summary ? `${name} ${summary}` : name;
}

function firstLineOf(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
}

function findLast<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) if (predicate(items[index]!)) return index;
  return -1;
}
