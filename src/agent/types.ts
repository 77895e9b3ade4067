import type { ToolImage } from '../providers/types.js';
import type { ZodType } from 'zod';
import type {
  AssistantMessage,
  Message,
  ProviderError,
  ToolCall,
  ToolResultMessage,
  Usage,
} from '../providers/types.js';

/** What a tool result shows on a screen, separate from what the model reads. Front ends render
 * these; they never parse the model-facing text. */
export type ToolDisplay =
  | { kind: 'text'; text: string }
  | { kind: 'diff'; path: string; diff: string; added: number; removed: number; diagnostics?: { errors: number; warnings: number } }
  | { kind: 'file'; path: string; lines: number; truncated: boolean }
  | { kind: 'command'; command: string; cwd: string; exitCode: number | null; output: string }
  | { kind: 'list'; title: string; items: string[]; truncated: boolean }
  | { kind: 'todos'; items: TodoItem[] };

export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export interface ToolResult {
  /** What the model sees. */
  content: string;
  /** What a screen shows; defaults to the content as text. */
  display?: ToolDisplay;
  isError?: boolean;
  /** Images for the model, where its provider takes them in tool results (`content` names them). */
  images?: ToolImage[];
}

/** Kinds of action the permission policy reasons about. */
export type ActionKind = 'read' | 'write' | 'edit' | 'bash' | 'git' | 'memory' | 'agent' | 'worktree' | 'other';

/** A tool's description of what one call would do, for the permission policy and for prompts.
 * Tools describe; they never decide. */
export interface ActionRequest {
  kind: ActionKind;
  /** Absolute paths the action touches (resolved against the tool context's cwd). */
  paths: string[];
  /** The shell command, for bash. */
  command?: string;
  /** The host a web action reaches (web_fetch), for `WebFetch(domain:…)` rules (policy/web-rules.ts). */
  host?: string;
  /** Render-only preview for a permission prompt (e.g. a unified diff of a write). */
  preview?: ToolDisplay;
  /** One-line summary: "write src/a.ts", "bash: npm test". */
  summary: string;
  /** bash asked to run outside the OS sandbox: only a person's yes (or yolo) can allow that. */
  unsandboxed?: boolean;
  /** The tool declares it changes nothing (an MCP tool's readOnlyHint). Not trusted on its own: in
   * plan mode it lets an allow rule from a config file or the user apply (see the policy). */
  readOnlyHint?: boolean;
}

/** One program start, before or after sandbox wrapping. */
export interface CommandSpawn {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Files the spawner opens read-only and hands to the program as descriptors 3, 4, … in this
   * order, closing its own copies once the program has started (bubblewrap reads its seccomp
   * filter from one). A spawner that cannot honour this must not start the program. */
  inheritFiles?: string[];
  /** Called once when the command has ended (exit, kill or timeout): checks what it left behind
   * and returns lines for its result (the sandbox's git-metadata audit). Never throws. */
  afterExit?: () => Promise<string[]>;
  /** `afterExit` without awaiting, for a command still running when seek exits (a background
   * job killed in the exit handler, where no promise settles). Call one of the two, once. */
  afterExitSync?: () => string[];
}

/**
 * The OS sandbox one call's commands must run in, chosen by the permission gate (the policy
 * names the profile; src/sandbox builds it). A tool that starts programs and receives one in its
 * context must start them through `wrap`, never directly.
 */
export interface CommandSandbox {
  readonly profile: 'read-only' | 'workspace-write';
  /** What the sandbox allows, in one line (shown to the model when a sandboxed command fails). */
  readonly summary: string;
  /** The spawn that runs `spec` inside the sandbox (program, arguments and a reduced environment). */
  wrap(spec: CommandSpawn): CommandSpawn;
}

export interface ToolContext {
  /** Working directory the tool resolves relative paths against (a worktree for isolated agents). */
  cwd: string;
  /** The project root (git top level, else the starting directory). */
  projectRoot: string;
  signal: AbortSignal;
  callId: string;
  /** Streams partial output to front ends (long bash runs). Optional. */
  onUpdate?: (partial: string) => void;
  /** Set by the permission gate when this call's commands must run in the OS sandbox. */
  sandbox?: CommandSandbox;
  /** Set by the permission gate for a call that writes files: judges the file a write really lands
   * on (absolute, links resolved at the moment of writing), since a link put on the way after the
   * decision would send it elsewhere. A refusal's text, or undefined to write. */
  checkWrite?: WriteCheck;
  /** Set by the permission gate when deny rules forbid reading some files (policy/read-guard.ts):
   * the rule's text for a path whose content must not reach the model. A tool that meets files
   * beyond the path it was judged on (grep or glob over a folder, list_dir, git's diffs) leaves
   * those out. Absent: nothing is denied. */
  readDenied?: (absPath: string) => string | undefined;
}

export type WriteCheck = (target: string) => string | undefined;

/**
 * A tool the model can call. One file per tool under src/tools/.
 * Contract: `execute` resolves for every failure the model could correct (missing file, non-unique
 * edit, non-zero exit) with `isError: true`; a throw is treated the same way by the loop, never fatal.
 */
export interface Tool<Args = unknown> {
  readonly name: string;
  readonly description: string;
  /** A few words for the catalog of tools loaded on demand (src/tools/on-demand.ts); tools that
   * share one are listed together. Absent: the description's first sentence. */
  readonly summary?: string;
  /** Validates the model's arguments. Built-in tools build it on first read (a getter over
   * src/util/lazy.ts), so no zod schema is constructed at start-up. */
  readonly schema: ZodType<Args>;
  /** The JSON schema the model sees, when precomputed (src/tools/tool-schemas.generated.ts, for
   * built-in tools whose schema no option changes); it must be what `schema` converts to (a unit
   * test checks). Absent: derived from `schema` (src/agent/tool-schema.ts). */
  readonly parameters?: Record<string, unknown>;
  /** Read-only calls run concurrently within a turn; the others run one at a time, in order. */
  readonly readOnly: boolean;
  /** Describes the action for the permission policy. Absent means the tool needs no permission. */
  describe?(args: Args, ctx: ToolContext): ActionRequest | Promise<ActionRequest>;
  /** The name one call goes by for permission rules and hooks, when it is not the tool's own
   * (mcp_call acts as `mcp__<server>__<tool>`). */
  callName?(args: Args): string;
  execute(args: Args, ctx: ToolContext): Promise<ToolResult>;
  /** Rewrites a pre_tool hook's denial into this tool's own result format (the agent tool's
   * `[agent: failed reason=hooks_denied] …`). Absent: the gate's generic denial text. */
  hookDenialResult?(message: string): string;
}

/** The gate the loop calls before running a validated tool call: policy, hooks, user approval.
 * Returning `{ allow: false }` makes `reason` the tool result (isError) and the loop goes on;
 * with `stopTurn` (the user said no and wants to say what to do next) the calls of the turn not yet
 * started are answered "not run", and the run ends ('completed') once the results are in history,
 * without asking the model again: the next request comes with the user's next message. */
export type BeforeToolCall = (call: {
  toolCall: ToolCall;
  tool: Tool;
  args: unknown;
  ctx: ToolContext;
  /** What `tool.describe(args, ctx)` returned when the dispatcher asked it for the tool_start
   * event (absent when it threw or the tool has no describe): the same question, not asked twice. */
  described?: Awaited<ReturnType<NonNullable<Tool['describe']>>>;
}) => Promise<{ allow: true; args?: unknown; sandbox?: CommandSandbox; checkWrite?: WriteCheck } | { allow: false; reason: string; stopTurn?: boolean }>;

export type AfterToolCall = (call: {
  toolCall: ToolCall;
  tool: Tool;
  args: unknown;
  result: ToolResult;
  durationMs: number;
}) => Promise<void>;

/** 'refusal': the model (or the provider's content filter) declined to answer; see runLoop. */
export type LoopStopReason = 'completed' | 'max_turns' | 'error' | 'aborted' | 'repeated_tool_call' | 'refusal';

/** Events the loop emits. Every front end (print, json, stream-json, TUI) consumes only these. */
export type AgentEvent =
  | { type: 'turn_start'; turn: number }
  | { type: 'text_delta'; turn: number; text: string }
  | { type: 'reasoning_delta'; turn: number; text: string }
  | { type: 'toolcall_delta'; turn: number; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'retry'; turn: number; attempt: number; maxAttempts: number; delayMs: number; error: ProviderError }
  /** A complete message appended to history: assistant replies and tool results. Persist on this. */
  | { type: 'message'; message: Message }
  | { type: 'tool_start'; turn: number; toolCall: ToolCall; args: unknown; action?: ActionRequest }
  | { type: 'tool_update'; turn: number; toolCallId: string; partial: string }
  | {
      type: 'tool_end';
      turn: number;
      toolCall: ToolCall;
      result: ToolResult;
      durationMs: number;
      message: ToolResultMessage;
      /** The gate refused the call (the policy, a rule, a hook, the user's no): it never ran. */
      denied?: true;
    }
  | { type: 'usage'; turn: number; usage: Usage; costUsd: number; model: string }
  | { type: 'turn_end'; turn: number; message: AssistantMessage }
  /** The history was replaced by a summary (context compaction) before this turn's request. */
  | {
      type: 'compaction';
      turn: number;
      reason: 'auto' | 'manual';
      summary: string;
      replacedMessages: number;
      usage?: Usage;
      costUsd?: number;
      model?: string;
    }
  | { type: 'error'; turn: number; error: ProviderError | { kind: string; message: string } }
  | { type: 'loop_end'; reason: LoopStopReason; turns: number; finalText: string; errorMessage?: string };

export type EmitFn = (event: AgentEvent) => void;

/** The result of compacting a history: what replaces it. */
export interface Compaction {
  messages: Message[];
  summary: string;
  replacedMessages: number;
  /** What the summarising request cost, so it is billed like any turn (no hidden bill). */
  usage?: Usage;
  costUsd?: number;
  model?: string;
}

/**
 * Asked before every request after the first: may return a compacted history (for example when
 * the last response used most of the model's window). This is the one sanctioned rewrite of
 * history; it trades one prefix-cache miss for room to go on.
 */
export type CompactIfNeeded = (context: {
  history: readonly Message[];
  lastUsage: Usage | undefined;
  signal: AbortSignal;
}) => Promise<Compaction | undefined>;
