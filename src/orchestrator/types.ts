/**
 * The vocabulary of orchestration: a plan of role-typed tasks (the `delegate_tasks` tool's input
 * or a plan file), the record of how each task ended, and the events front ends follow.
 */
import type { ChildRunStatistics, SubagentTokens } from '../subagents/types.js';
import type { MergeConflictReport } from '../worktree/types.js';

/** One task as the model or a plan file gives it. */
export interface TaskSpec {
  task: string;
  role: string;
  id?: string;
  depends_on?: string[];
}

/** Without any `depends_on` the tasks run in order; with them, as a graph. */
export type PlanMode = 'serial' | 'graph';

/** How a role's child behaves for scheduling: writers change files, readers do not. */
export type RoleKind = 'reader' | 'writer';

export interface PlanTask {
  id: string;
  /** Position in the plan (0-based): ties are broken and merges ordered by it. */
  index: number;
  task: string;
  role: string;
  kind: RoleKind;
  /** Reviewers get the diffs of the writers they depend on and return a verdict. */
  reviews: boolean;
  /** What the task waits for: its `depends_on`, or in serial mode every earlier task. */
  dependsOn: string[];
}

/** A validated plan. `hash` identifies it for resume (same goal, tasks, roles and edges). */
export interface Plan {
  goal?: string;
  mode: PlanMode;
  tasks: PlanTask[];
  hash: string;
  /** Writers that could run at the same time as another writer: then every writer gets a worktree. */
  concurrentWriters: boolean;
}

export type TaskStatus = 'pending' | 'running' | 'merging' | 'completed' | 'failed' | 'skipped' | 'canceled';

/** Why a task did not complete: a subagent failure reason, or one of the orchestrator's own. */
export type TaskFailure = string;

export type Verdict = { kind: 'approve' } | { kind: 'problems'; count: number } | { kind: 'none' };

/** How one task ended; journalled so a resumed run reuses completed ones. */
export interface TaskRecord extends ChildRunStatistics {
  id: string;
  role: string;
  status: 'completed' | 'failed' | 'skipped' | 'canceled';
  reason?: TaskFailure;
  /** The child's final message (completed), capped. */
  summary?: string;
  /** What went wrong, for people and the model (failed, skipped). */
  hint?: string;
  subSid?: string;
  verdict?: Verdict;
  /** A writer's changes as a diff (capped), for reviewers that depend on it. */
  diff?: string;
  /** An isolated writer: where it worked and how its merge went. */
  worktree?: { path: string; branch: string; kept: boolean };
  merge?: { commit: string } | { conflict: MergeConflictReport };
  /** Completed in an earlier run of the same plan and reused (not billed again). */
  reused?: boolean;
  transcriptPath?: string;
}

export interface OrchestrationTotals {
  tasks: number;
  completed: number;
  failed: number;
  skipped: number;
  canceled: number;
  turns: number;
  modelCalls: number;
  toolCalls: number;
  tokens: SubagentTokens;
  costUsd: number;
  /** False when some task's cost is unknown (a model without known prices); absent means known. */
  costKnown?: boolean;
}

export interface OrchestrationSummary {
  callId: string;
  mode: PlanMode;
  status: 'completed' | 'partial' | 'failed' | 'canceled' | 'rejected';
  records: TaskRecord[];
  /** This call's own work: reused tasks are not counted again. */
  totals: OrchestrationTotals;
  /** Things the model should know about how the plan ran (e.g. worktrees without the user's
   * uncommitted changes); one line each at the end of the result. */
  notes?: string[];
}

/** What front ends see of an orchestration (session events). */
export type OrchestrationEvent =
  | {
      type: 'orchestration_start';
      callId: string;
      mode: PlanMode;
      goal?: string;
      isolatedWriters: boolean;
      tasks: Array<{ id: string; role: string; task: string; dependsOn: string[] }>;
    }
  | { type: 'orchestration_task'; callId: string; taskId: string; status: TaskStatus; subSid?: string; record?: TaskRecord }
  | { type: 'orchestration_end'; summary: OrchestrationSummary };
