/**
 * The types of `seek-agent/sdk`: the options of a query and the messages seek writes with
 * `--output-format stream-json` (schemas/stream-json.schema.json describes the same lines). They
 * are declared here, not imported: the SDK is a client of the `seek` process and imports nothing of
 * seek's internals.
 */

/** Claude Code's permission modes, and seek's own names for them. */
export type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan' | 'ask' | 'auto' | 'yolo';

/** The answer to a permission question (Claude Code's PermissionResult). */
export type PermissionResult =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown> }
  | { behavior: 'deny'; message?: string; interrupt?: boolean };

export interface CanUseToolContext {
  /** Aborted when the turn that asked ends before the answer (interrupted). */
  signal: AbortSignal;
  toolUseId: string;
  /** Why seek asks ("bash needs approval"). */
  reason?: string;
  /** What the call does, in one line ("bash: npm test"). */
  description?: string;
  /** Set when a subagent asks: its sub-sid. */
  agentId?: string;
}

/** Asked for every action seek's policy would ask a person about; the answer is final (deny rules
 * and the OS sandbox still apply to what it allows). */
export type CanUseTool = (toolName: string, input: Record<string, unknown>, context: CanUseToolContext) => Promise<PermissionResult>;

/** A user message of a conversation (Claude Code's SDKUserMessage shape). */
export interface UserMessage {
  type: 'user';
  message: { role: 'user'; content: string | ContentBlock[] };
  session_id?: string;
  parent_tool_use_id?: string | null;
}

/** Images are base64 (`image` with a base64 source, or `image_url` with a `data:` URL); seek refuses remote URLs. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } }
  | { type: 'image_url'; image_url: { url: string } | string };

export interface QueryOptions {
  /** The project directory seek works in (default: this process's working directory). */
  cwd?: string;
  model?: string;
  provider?: 'deepseek' | 'openai' | 'anthropic' | 'openai-compatible';
  permissionMode?: PermissionMode;
  /** Answers permission questions; without it, what needs approval is denied (as in `seek -p`). */
  canUseTool?: CanUseTool;
  /** Aborting it stops seek (the turn in progress ends cleanly, the session is saved). */
  abortController?: AbortController;
  /** A session id (or unique prefix) to continue. */
  resume?: string;
  maxTurns?: number;
  /** The environment of the seek process (default: this process's). */
  env?: Record<string, string | undefined>;
  /** Another seek launcher (bin/seek.js) than this package's own. */
  pathToSeekExecutable?: string;
  /** Called with what seek writes on stderr. */
  stderr?: (text: string) => void;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens?: number;
}

/** Present on the lines of a subagent's events: its sub-sid. */
interface Tagged {
  sub_sid?: string;
}

export interface SystemInitMessage extends Tagged {
  type: 'system';
  subtype: 'init';
  session_id: string;
  model: string;
  provider: string;
  cwd: string;
  resumed: boolean;
}

export interface ToolCallInfo {
  id: string;
  name: string;
  arguments: string;
}

export type PublicMessage =
  | { role: 'user'; content: string }
  | { role: 'tool'; tool_call_id: string; name: string; is_error?: boolean; content: string }
  | { role: 'assistant'; content: string; reasoning?: string; tool_calls: ToolCallInfo[]; stop_reason: string; usage?: Usage; cost_usd?: number | null; cost_known?: boolean };

export interface MessageLine extends Tagged {
  type: 'message';
  message: PublicMessage;
}
export interface TurnStartMessage extends Tagged {
  type: 'turn_start';
  turn: number;
}
export interface DeltaMessage extends Tagged {
  type: 'text_delta' | 'reasoning_delta';
  turn: number;
  text: string;
}
export interface RetryMessage extends Tagged {
  type: 'retry';
  turn: number;
  attempt: number;
  max_attempts: number;
  delay_ms: number;
  error: string;
}
export interface ToolStartMessage extends Tagged {
  type: 'tool_start';
  turn: number;
  tool_call_id: string;
  name: string;
  args: unknown;
}
export interface ToolEndMessage extends Tagged {
  type: 'tool_end';
  turn: number;
  tool_call_id: string;
  name: string;
  is_error?: boolean;
  denied?: boolean;
  duration_ms: number;
  content: string;
}
export interface UsageMessage extends Tagged {
  type: 'usage';
  turn: number;
  model: string;
  usage: Usage;
  cost_usd: number | null;
  cost_known: boolean;
}
export interface TurnEndMessage extends Tagged {
  type: 'turn_end';
  turn: number;
  stop_reason: string;
}
/** A model error (`turn`, `kind`) or, with `kind: "invalid_input"`, a stdin line seek skipped. */
export interface ErrorMessage extends Tagged {
  type: 'error';
  kind: string;
  message: string;
  turn?: number;
  line?: number;
}
export interface NoticeMessage extends Tagged {
  type: 'notice';
  level: 'info' | 'warn';
  text: string;
}
/** Subagents and delegate_tasks runs: their fields are documented in docs/headless-and-sdk.md. */
export interface SubagentMessage extends Tagged {
  type: 'subagent_start' | 'subagent_end' | 'orchestration_start' | 'orchestration_task' | 'orchestration_end';
  [field: string]: unknown;
}

export interface ResultMessage {
  type: 'result';
  subtype: 'success' | 'error_max_turns' | 'error_max_budget_usd' | 'error';
  is_error: boolean;
  result: string;
  session_id: string;
  num_turns: number;
  duration_ms: number;
  usage: Usage;
  total_cost_usd: number | null;
  cost_known: boolean;
  subagents: Array<{ id: string; type: string; status: string; description: string; num_turns: number; usage: Usage; total_cost_usd: number | null; reason?: string }>;
  orchestrations: unknown[];
  error?: string;
  /** completed, max_turns, error, aborted… */
  stop_reason: string;
}

/** One line of seek's stream-json output (control lines are the SDK's own business). */
export type SeekMessage =
  | SystemInitMessage
  | MessageLine
  | TurnStartMessage
  | DeltaMessage
  | RetryMessage
  | ToolStartMessage
  | ToolEndMessage
  | UsageMessage
  | TurnEndMessage
  | ErrorMessage
  | NoticeMessage
  | SubagentMessage
  | ResultMessage;
