import type { RunSummary } from '../runtime/events.js';
import type { Usage } from '../providers/types.js';
import type { OrchestrationSummary } from '../orchestrator/types.js';
import { verdictText } from '../orchestrator/prompts.js';
import { redact } from '../util/redact.js';

/** `subtype` by how the run ended; `error_max_budget_usd` (Claude Code's name) is an extension. */
const SUBTYPES: Partial<Record<RunSummary['reason'], string>> = { completed: 'success', max_turns: 'error_max_turns', max_budget_usd: 'error_max_budget_usd' };

/** The `--output-format json` result object, exactly as CONTRACT.md specifies (extra fields may
 * be added, none renamed). Also the last line of `stream-json`. */
export function resultObject(summary: RunSummary): Record<string, unknown> {
  const subtype = SUBTYPES[summary.reason] ?? 'error';
  return {
    type: 'result',
    subtype,
    is_error: subtype !== 'success',
    result: summary.finalText,
    session_id: summary.sessionId,
    num_turns: summary.turns,
    duration_ms: Math.round(summary.durationMs),
    usage: usageObject(summary.usage),
    ...costFields(summary.costUsd, summary.costKnown ?? true),
    subagents: summary.subagents.map((child) => ({
      id: child.id,
      type: child.type,
      status: child.status,
      ...(child.reason ? { reason: child.reason } : {}),
      description: child.description,
      num_turns: child.turns,
      usage: usageObject(child.usage),
      ...costFields(child.costUsd, child.costKnown ?? true),
      ...(child.label ? { task_id: child.label } : {}),
    })),
    orchestrations: summary.orchestrations.map(orchestrationObject),
    ...(summary.errorMessage ? { error: redact(summary.errorMessage) } : {}),
    stop_reason: summary.reason,
  };
}

/** One delegate_tasks run: per-task statistics and the totals of the work it did (extension). */
export function orchestrationObject(run: OrchestrationSummary): Record<string, unknown> {
  const tokens = (t: { prompt: number; completion: number; cache_hit: number }) => ({ input_tokens: t.prompt, output_tokens: t.completion, cache_read_input_tokens: t.cache_hit });
  return {
    tool_call_id: run.callId,
    mode: run.mode,
    status: run.status,
    tasks: run.records.map((task) => ({
      id: task.id,
      role: task.role,
      status: task.status,
      ...(task.reason ? { reason: task.reason } : {}),
      ...(task.verdict ? { verdict: verdictText(task.verdict) } : {}),
      ...(task.subSid ? { sub_sid: task.subSid } : {}),
      num_turns: task.turns,
      model_calls: task.modelCalls,
      tool_calls: task.toolCalls,
      usage: tokens(task.tokens),
      ...costFields(task.costUsd, task.costKnown ?? true),
      ...(task.reused ? { reused: true } : {}),
      ...(task.merge && 'commit' in task.merge ? { merge_commit: task.merge.commit } : {}),
      ...(task.worktree?.kept ? { worktree_path: task.worktree.path } : {}),
    })),
    totals: {
      tasks: run.totals.tasks,
      completed: run.totals.completed,
      failed: run.totals.failed,
      skipped: run.totals.skipped,
      canceled: run.totals.canceled,
      num_turns: run.totals.turns,
      model_calls: run.totals.modelCalls,
      tool_calls: run.totals.toolCalls,
      usage: tokens(run.totals.tokens),
      ...costFields(run.totals.costUsd, run.totals.costKnown ?? true),
    },
    ...(run.notes ? { notes: run.notes } : {}),
  };
}

/** `total_cost_usd`, null when unknown (a model without known prices), and `cost_known`: an
 * unknown cost is never reported as a number, which would read as a price. */
export function costFields(costUsd: number, known: boolean, key = 'total_cost_usd'): Record<string, number | boolean | null> {
  return { [key]: known ? costUsd : null, cost_known: known };
}

export function usageObject(usage: Usage): Record<string, number> {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
  };
}

/** Exit status for a headless run: 0 success, 1 failed (model error after retries, max turns…). */
export function exitCodeFor(summary: RunSummary): number {
  return summary.reason === 'completed' ? 0 : 1;
}
