/** The structured side of running a child: what the orchestrator asks for and gets back. */
import type { ToolResult } from '../agent/types.js';
import type { Message } from '../providers/types.js';
import type { WorktreeInfo } from '../worktree/types.js';
import type { ChildRunStatistics, SharedLimit, SubagentFailureReason, SubagentType } from './types.js';

/** What `run` is asked to start: a resolved type, unlike the `agent` tool's request. */
export interface ChildRunRequest {
  description: string;
  prompt: string;
  type: SubagentType;
  isolation: 'none' | 'worktree';
  /** Wait for a free slot instead of failing with too_many_subagents (the orchestrator queues). */
  waitForSlot?: boolean;
  /** Leave the worktree to the caller (reported in `worktree`) instead of cleaning up with keep. */
  keepWorktree?: boolean;
  /** Shown next to the child in front ends (an orchestration task id). */
  label?: string;
  /** A limit the child shares with other processes: told to wrap up once it is reached. */
  sharedLimit?: SharedLimit;
  /** Called once the child exists (recorded, announced), before it runs: a background start
   * answers the model with its id here. Not called when admission fails. */
  onStarted?: (subSid: string) => void;
  /** A continued child (`agent` with resume, child-resume.ts): the history it starts with. */
  earlier?: readonly Message[];
}

/** How a child run went: the `agent` result plus what a caller needs to report and continue. */
export interface ChildReport extends ChildRunStatistics {
  result: ToolResult;
  status: 'completed' | 'failed' | 'killed';
  reason?: SubagentFailureReason;
  /** The child's final message, when it completed. */
  summary?: string;
  /** Absent when it failed before a child existed (admission). */
  subSid?: string;
  /** With `keepWorktree`: the worktree the child worked in, now the caller's to clean up. */
  worktree?: WorktreeInfo;
  transcriptPath?: string;
}

export const NO_FIGURES = { turns: 0, modelCalls: 0, toolCalls: 0, tokens: { prompt: 0, completion: 0, cache_hit: 0 }, costUsd: 0 } as const;

