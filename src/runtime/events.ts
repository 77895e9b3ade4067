import type { AgentEvent, LoopStopReason } from '../agent/types.js';
import type { Usage } from '../providers/types.js';
import type { SubagentEvent } from '../subagents/types.js';
import type { OrchestrationEvent, OrchestrationSummary } from '../orchestrator/types.js';

/** Everything a front end receives: the loop's events plus session-level notices. */
export type SessionEvent =
  | AgentEvent
  | { type: 'session_start'; sessionId: string; model: string; provider: string; cwd: string; resumed: boolean }
  | { type: 'notice'; level: 'info' | 'warn'; text: string }
  /** A subagent started or ended, or one of its loop events (wrapped, tagged with its sub-sid). */
  | SubagentEvent
  /** A delegate_tasks plan started, a task changed state, or the plan ended. */
  | OrchestrationEvent;

export type SessionListener = (event: SessionEvent) => void;

/** How a run ended: the loop's reasons, or `max_budget_usd` (--max-budget-usd spent, session-budget.ts). */
export type RunStopReason = LoopStopReason | 'max_budget_usd';

/** What one prompt of a session cost and produced; front ends render it at the end of a run. */
export interface RunSummary {
  sessionId: string;
  reason: RunStopReason;
  finalText: string;
  errorMessage?: string;
  /** A custom command could not be expanded (errorMessage says why): nothing was sent. */
  commandFailed?: boolean;
  turns: number;
  durationMs: number;
  /** Everything this run billed: the session's turns and all of its subagents'. */
  usage: Usage;
  costUsd: number;
  /** False when some of it was billed by a model without known prices: `costUsd` is then only a
   * lower bound, reported as unknown. Absent means known. */
  costKnown?: boolean;
  subagents: SubagentSummary[];
  /** delegate_tasks calls that ran in this prompt, with per-task statistics. */
  orchestrations: OrchestrationSummary[];
}

export interface SubagentSummary {
  id: string;
  type: string;
  status: 'active' | 'completed' | 'failed' | 'killed' | 'orphaned';
  /** Why it failed (failed and killed children). */
  reason?: string;
  description: string;
  turns: number;
  usage: Usage;
  costUsd: number;
  /** False when part of it was billed by a model without known prices; absent means known. */
  costKnown?: boolean;
  /** The orchestration task it ran (delegate_tasks). */
  label?: string;
}
