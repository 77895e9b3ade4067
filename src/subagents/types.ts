/**
 * The vocabulary of subagents (seek-spec section 3, CONTRACT.md "Result formats"): types a child can
 * be spawned as, the reasons a spawn fails, and the events of the append-only index.
 */
import type { AgentEvent } from '../agent/types.js';
import type { Usage } from '../providers/types.js';

/** Why a child did not complete. The first eight are CONTRACT.md's closed set; `budget_exceeded`,
 * `model_error` and `repeated_tool_call` are seek extensions (documented in the README). */
export type SubagentFailureReason =
  | 'canceled'
  | 'timeout'
  | 'spawn_error'
  | 'hooks_denied'
  | 'max_turns_exceeded'
  | 'prompt_too_long'
  | 'too_many_subagents'
  | 'killed'
  | 'budget_exceeded'
  | 'model_error'
  | 'repeated_tool_call'
  /** A fleet job (`seek run --queue`) failed on every attempt; the hint lists each attempt's error. */
  | 'job_failed';

export type SubagentStatus = 'active' | 'completed' | 'failed' | 'killed' | 'orphaned' | 'promoted';

/** Where a type definition came from; built-ins first, then files (see definitions.ts). */
export type SubagentTypeSource = 'builtin' | 'project' | 'project-claude' | 'user' | 'user-claude';

/**
 * The permission a type asks for. It can only tighten the parent's (a looser one is capped at the
 * parent's): `inherit` keeps the parent's mode, `plan` forces plan-analyze (read-only).
 */
export type SubagentPermission = 'inherit' | 'ask' | 'deny' | 'auto' | 'yolo' | 'plan';

export interface SubagentType {
  /** Lower-case name the model passes as `subagent_type`: `general-purpose`, `explore`, `plan`, … */
  name: string;
  /** One line for the `agent` tool's description (what this type is for). */
  description: string;
  source: SubagentTypeSource;
  /** The definition file, for defined types. */
  file?: string;
  /**
   * seek tool names the child may use (intersected with what its parent has). Absent: the parent's
   * tools minus `agent` (unless depth allows), `todo_write` and anything that asks the user.
   */
  tools?: string[];
  /** Added to the child's system prompt after the role clause. */
  instructions: string;
  /** Model for the child; absent = the parent's current model. */
  model?: string;
  permission: SubagentPermission;
  /** Turn limit of one child run; absent = `subagents.max_turns` (default 200). */
  maxTurns?: number;
  /** Token budget (prompt + completion over the whole child run); absent = `subagents.budget_tokens`. */
  budgetTokens?: number;
  /** Wall-clock limit in seconds; absent = `subagents.timeout_seconds`. */
  timeoutSeconds?: number;
}

/**
 * A limit a child shares with work outside its process (a fleet run's dollar and token caps,
 * counted in Redis across every worker). Asked before each of the child's requests after the
 * first; once it says the limit is reached the child is told to wrap up, and it is stopped
 * (`budget_exceeded`) if it has not finished within SHARED_LIMIT_GRACE_TURNS more requests.
 */
export interface SharedLimit {
  /** The sentence saying which limit is reached and by how much, or undefined while under it. */
  reached(): Promise<string | undefined>;
}

/** Tokens as the index and the result footer count them (seek-spec 3.6). */
export interface SubagentTokens {
  prompt: number;
  completion: number;
  cache_hit: number;
}

/** What one child run did: its own model responses and tool calls (its children report theirs),
 * and what it cost. */
export interface ChildRunStatistics {
  turns: number;
  modelCalls: number;
  toolCalls: number;
  tokens: SubagentTokens;
  costUsd: number;
  /** False when part of it was billed by a model without known prices: `costUsd` is then not a
   * price (front ends show "—", JSON gives null). Absent means known (older journals lack it). */
  costKnown?: boolean;
}

/** One line of `projects/<pid>/subagents.jsonl`. Written in a single append; never rewritten. */
export type SubagentIndexEvent =
  | {
      event: 'started';
      sub_sid: string;
      ts: string;
      parent_sid: string;
      /** The parent subagent when nested (depth >= 2). */
      parent_sub_sid?: string;
      parent_turn?: number;
      type: string;
      description: string;
      depth: number;
      /** The seek process running the child: kill requests go to it, orphan recovery checks it. */
      pid: number;
      host: string;
      worktree_path?: string;
    }
  | { event: 'completed'; sub_sid: string; ts: string; tokens: SubagentTokens; turns: number }
  | { event: 'failed'; sub_sid: string; ts: string; reason: SubagentFailureReason; tokens?: SubagentTokens; turns?: number }
  | { event: 'killed'; sub_sid: string; ts: string; reason: 'killed'; tokens?: SubagentTokens; turns?: number }
  | { event: 'orphaned'; sub_sid: string; ts: string }
  | { event: 'promoted'; sub_sid: string; ts: string; session_id: string };

/** A child as the index folds it (seek-spec 3.6): fixed fields from `started`, the rest from the last event. */
export interface SubagentRecord {
  sub_sid: string;
  parent_sid: string;
  parent_sub_sid?: string;
  type: string;
  description: string;
  depth: number;
  pid: number;
  host: string;
  worktree_path?: string;
  status: SubagentStatus;
  started_at: string;
  ended_at?: string;
  tokens?: SubagentTokens;
  turns?: number;
  reason?: string;
  /** Set by `promoted`: the top-level session the transcript became. */
  promoted_to?: string;
}

/** What a finished child reports to the parent's front ends and its run summary. */
export interface SubagentOutcome {
  subSid: string;
  type: string;
  description: string;
  status: 'completed' | 'failed' | 'killed';
  reason?: SubagentFailureReason;
  turns: number;
  usage: Usage;
  costUsd: number;
  /** False when part of it was billed by a model without known prices; absent means known. */
  costKnown?: boolean;
  transcriptPath?: string;
  /** The orchestration task it ran, when it ran one. */
  label?: string;
}

/** What the `agent` tool asks for, validated by its schema. */
export interface SpawnRequest {
  description: string;
  prompt: string;
  subagentType: string;
  isolation: 'none' | 'worktree';
}

/**
 * What the manager tells the parent session's front ends. Children's loop events arrive wrapped
 * in `subagent_event` so no consumer mistakes them for the parent's own (its history, its usage).
 */
export type SubagentEvent =
  | {
      type: 'subagent_start';
      subSid: string;
      /** The parent's `agent` tool call this child answers (its row in a UI). */
      parentCallId: string;
      /** Set when the parent is itself a subagent. */
      parentSubSid?: string;
      depth: number;
      agentType: string;
      description: string;
      model: string;
      transcriptPath?: string;
      /** Set by the orchestrator: the task id this child runs. */
      label?: string;
    }
  | { type: 'subagent_event'; subSid: string; event: AgentEvent }
  | { type: 'subagent_end'; outcome: SubagentOutcome; parentCallId: string };
