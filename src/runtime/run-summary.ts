/** What one run of a session (a prompt, a plan) billed and started: the figures of a RunSummary. */
import { addUsage, type Usage } from '../providers/types.js';
import type { CostTotals, CostTracker } from '../cost/tracker.js';
import type { OrchestrationSummary } from '../orchestrator/types.js';
import type { SubagentOutcome } from '../subagents/types.js';
import type { RunSummary } from './events.js';
import { monotonicMs } from '../util/clock.js';

/** Where a run starts: its bill, children and orchestrations are what comes after. */
export interface RunMark {
  started: number;
  cost: CostTotals;
  children: number;
  orchestrations: number;
}

export type RunFigures = Omit<RunSummary, 'reason' | 'finalText' | 'turns' | 'errorMessage'>;

export interface RunSources {
  sessionId: string;
  tracker: CostTracker;
  children: readonly SubagentOutcome[];
  orchestrations: readonly OrchestrationSummary[];
}

/** What a run billed and started since `mark` (its subagents and orchestrations). */
export function summarySince(mark: RunMark, sources: RunSources): RunFigures {
  const after = sources.tracker.cumulative();
  return {
    sessionId: sources.sessionId,
    durationMs: monotonicMs() - mark.started,
    usage: subtractUsage(after.usage, mark.cost.usage),
    costUsd: roundCost(after.costUsd - mark.cost.costUsd),
    costKnown: after.costKnown,
    subagents: sources.children.slice(mark.children).map(childSummary),
    orchestrations: sources.orchestrations.slice(mark.orchestrations),
  };
}

function childSummary(child: SubagentOutcome): RunSummary['subagents'][number] {
  return {
    id: child.subSid,
    type: child.type,
    status: child.status,
    ...(child.reason ? { reason: child.reason } : {}),
    description: child.description,
    turns: child.turns,
    usage: child.usage,
    costUsd: roundCost(child.costUsd),
    ...(child.costKnown === false ? { costKnown: false } : {}),
    ...(child.label ? { label: child.label } : {}),
  };
}

function subtractUsage(a: Usage, b: Usage): Usage {
  return addUsage(a, {
    inputTokens: -b.inputTokens,
    outputTokens: -b.outputTokens,
    cacheReadTokens: -b.cacheReadTokens,
    cacheWriteTokens: -b.cacheWriteTokens,
    reasoningTokens: -(b.reasoningTokens ?? 0),
  });
}

function roundCost(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}
