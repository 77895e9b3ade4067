/**
 * How a child's end is recorded: the final marker in its transcript, the index line, the outcome
 * the session's run summaries count, the `subagent_end` event, and the `agent` tool's result.
 */
import type { ToolResult } from '../agent/types.js';
import { ZERO_USAGE } from '../providers/types.js';
import type { CostTracker } from '../cost/tracker.js';
import type { SessionWriter } from '../session/writer.js';
import type { appendSubagentEvent } from './index-log.js';
import type { ChildEnd } from './child-run.js';
import { completedResult, failedResult } from './result-format.js';
import type { SubagentEvent, SubagentOutcome } from './types.js';

export interface FinishingChild {
  end: ChildEnd;
  subSid: string;
  type: string;
  description: string;
  tracker: CostTracker;
  writer: SessionWriter | undefined;
  transcriptPath: string | undefined;
  parentCallId: string;
  label: string | undefined;
}

export interface FinishSinks {
  index: (event: Parameters<typeof appendSubagentEvent>[2]) => void;
  emit: (event: SubagentEvent) => void;
  outcome: (outcome: SubagentOutcome) => void;
  onProblem?: (message: string) => void;
}

export async function finishChild(child: FinishingChild, sinks: FinishSinks): Promise<ToolResult> {
  const { end, subSid } = child;
  const ts = new Date().toISOString();
  const reason = end.status === 'completed' ? undefined : end.reason;
  // The final marker: a transcript that ends with it was not cut short by a crash.
  try {
    child.writer?.append({ type: 'event', name: 'subagent_end', data: { status: end.status, ...(reason ? { reason } : {}), turns: end.turns } });
    await child.writer?.close();
  } catch (error) {
    sinks.onProblem?.(`subagent ${subSid}: could not finish its transcript (${(error as Error).message})`);
  }
  if (end.status === 'completed') sinks.index({ event: 'completed', sub_sid: subSid, ts, tokens: end.tokens, turns: end.turns });
  else if (end.status === 'killed') sinks.index({ event: 'killed', sub_sid: subSid, ts, reason: 'killed', tokens: end.tokens, turns: end.turns });
  else sinks.index({ event: 'failed', sub_sid: subSid, ts, reason: end.reason, tokens: end.tokens, turns: end.turns });

  const totals = child.tracker.cumulative();
  const outcome: SubagentOutcome = {
    subSid,
    type: child.type,
    description: child.description,
    status: end.status,
    ...(reason ? { reason } : {}),
    turns: end.turns,
    usage: totals.usage ?? { ...ZERO_USAGE },
    costUsd: totals.costUsd,
    costKnown: totals.costKnown,
    ...(child.transcriptPath ? { transcriptPath: child.transcriptPath } : {}),
    ...(child.label ? { label: child.label } : {}),
  };
  sinks.outcome(outcome);
  sinks.emit({ type: 'subagent_end', outcome, parentCallId: child.parentCallId });

  if (end.status === 'completed') {
    const content = completedResult({
      summary: end.summary,
      subSid,
      turns: end.turns,
      tokens: end.tokens.prompt + end.tokens.completion,
      ...(child.transcriptPath ? { transcriptPath: child.transcriptPath } : {}),
    });
    return { content };
  }
  return { content: failedResult(end.reason, end.hint, subSid), isError: true };
}
