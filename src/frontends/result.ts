import type { RunSummary } from '../runtime/events.js';
import type { Usage } from '../providers/types.js';

/** The `--output-format json` result object, exactly as CONTRACT.md specifies (extra fields may
 * be added, none renamed). Also the last line of `stream-json`. */
export function resultObject(summary: RunSummary): Record<string, unknown> {
  const subtype = summary.reason === 'completed' ? 'success' : summary.reason === 'max_turns' ? 'error_max_turns' : 'error';
  return {
    type: 'result',
    subtype,
    is_error: subtype !== 'success',
    result: summary.finalText,
    session_id: summary.sessionId,
    num_turns: summary.turns,
    duration_ms: Math.round(summary.durationMs),
    usage: usageObject(summary.usage),
    total_cost_usd: summary.costUsd,
    subagents: summary.subagents.map((child) => ({
      id: child.id,
      type: child.type,
      status: child.status,
      ...(child.reason ? { reason: child.reason } : {}),
      description: child.description,
      num_turns: child.turns,
      usage: usageObject(child.usage),
      total_cost_usd: child.costUsd,
    })),
    ...(summary.errorMessage ? { error: summary.errorMessage } : {}),
    stop_reason: summary.reason,
  };
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
