import type { AgentSession } from '../../runtime/session.js';
import type { StatusInfo } from '../components/StatusBar.js';
import type { ConversationState } from './conversation.js';
import { runningCount, type SubagentsState } from './subagents.js';

/** What the status bar shows for `session` now: totals include subagents (no hidden bill). */
export function statusInfo(session: AgentSession, conversation: ConversationState, subagents: SubagentsState, extra: { running: boolean; agentDone: boolean; queued: number }): StatusInfo {
  const total = session.tracker.cumulative();
  return {
    model: session.model,
    contextTokens: conversation.contextTokens,
    contextWindow: session.contextWindow,
    inputTokens: total.usage.inputTokens,
    outputTokens: total.usage.outputTokens,
    cacheHitShare: session.tracker.cacheHitShare(),
    costUsd: total.costUsd,
    costKnown: total.costKnown,
    mode: session.policy.mode,
    compactions: conversation.compactions,
    activeAgents: runningCount(subagents),
    ...extra,
    ...(session.worktree ? { worktreeBranch: session.worktree.branch } : {}),
  };
}
