import type { ZodError } from 'zod';
import type { ToolCall, ToolCallView, ToolResultMessage } from '../providers/types.js';
import { keptDisplay } from './tool-view.js';
import { repairArguments } from './argument-repair.js';
import { toToolSchema } from './tool-schema.js';
import { unwrapProxyCall } from './tool-proxy.js';
import type { ActionRequest, AfterToolCall, BeforeToolCall, EmitFn, Tool, ToolContext, ToolResult } from './types.js';
import { acceptsAsIs } from './fast-accept.js';
import { monotonicMs } from '../util/clock.js';

export interface DispatchOptions {
  tools: readonly Tool[];
  emit: EmitFn;
  signal: AbortSignal;
  cwd: string;
  projectRoot: string;
  /** When set, asked per call for the working directory and root (they move into a worktree). */
  workspace?: () => { cwd: string; projectRoot: string };
  turn: number;
  /** Tools known by name only when called (an MCP server's `mcp__<server>__<tool>`), asked when
   * `tools` has no tool of that name. */
  resolveTool?: (name: string) => Tool | undefined;
  beforeToolCall?: BeforeToolCall;
  afterToolCall?: AfterToolCall;
}

/** A call that passed lookup, JSON parsing and schema validation. */
interface PreparedCall {
  call: ToolCall;
  tool: Tool;
  args: unknown;
  /** Corrections made to the arguments (see argument-repair.ts), stated in the result. */
  notes?: string[];
}

type Prepared = { ok: true; prepared: PreparedCall } | { ok: false; call: ToolCall; error: string };

/** Whether any tool has run in this process: the launcher's code cache is serialised again after
 * the first run that ran tools, so their code starts compiled (src/launch/code-cache.ts). */
let toolsRan = false;
export function anyToolRan(): boolean {
  return toolsRan;
}

/**
 * Runs the tool calls of one assistant turn and returns their results in call order.
 * Consecutive read-only calls run concurrently; a mutating call runs alone, after everything
 * before it finished and before anything after it starts, so reads never race a write.
 * Invalid calls (unknown tool, arguments that are not JSON or fail the schema) get a corrective
 * error result; a throwing tool becomes an error result. A `call_tool` proxy call runs as the call
 * it stands for (see tool-proxy.ts): every event and result carries the real name and arguments. Once the signal aborts, calls not yet
 * started are answered with an "interrupted" result so no call is left without a result.
 */
export async function executeToolCalls(calls: readonly ToolCall[], options: DispatchOptions): Promise<DispatchResult> {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const lookup = (name: string): Tool | undefined => byName.get(name) ?? options.resolveTool?.(name);
  const prepared = calls.map((call) => prepare(call, lookup, byName));
  const results: ToolResultMessage[] = new Array(calls.length);
  const stop: StopFlag = { stopped: false };

  let index = 0;
  while (index < prepared.length) {
    const batch = [index];
    if (isReadOnly(prepared[index]!)) {
      while (index + batch.length < prepared.length && isReadOnly(prepared[index + batch.length]!)) {
        batch.push(index + batch.length);
      }
    }
    await Promise.all(
      batch.map(async (position) => {
        results[position] = await runOne(prepared[position]!, options, stop);
      }),
    );
    index += batch.length;
  }
  return { results, stopped: stop.stopped };
}

/** The results in call order; `stopped` when the gate asked to end the turn after them. */
export interface DispatchResult {
  results: ToolResultMessage[];
  stopped: boolean;
}

/** Set once a call's denial stops the turn: the calls not yet started are not run. */
interface StopFlag {
  stopped: boolean;
}

const NOT_RUN_AFTER_STOP = 'Not run: the user declined an earlier call of this turn and stopped it, to say what to do instead.';

function isReadOnly(entry: Prepared): boolean {
  // Invalid calls do nothing, so they never need to wait for or block others.
  return !entry.ok || entry.prepared.tool.readOnly;
}

function prepare(modelCall: ToolCall, lookup: (name: string) => Tool | undefined, byName: ReadonlyMap<string, Tool>): Prepared {
  const call = unwrapProxyCall(modelCall);
  const proxied = call !== modelCall;
  const tool = lookup(call.name);
  if (!tool) {
    const known = [...byName.keys()].join(', ');
    return { ok: false, call, error: `Unknown tool "${call.name}". Available tools: ${known}.` };
  }
  let raw: unknown;
  try {
    raw = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      call,
      error: `The arguments for ${call.name} are not valid JSON (${reason}). Send the call again with a single JSON object as arguments.`,
    };
  }
  // Arguments that plainly match the precomputed schema need no zod (fast-accept.ts).
  if (tool.parameters !== undefined && acceptsAsIs(tool.parameters, raw)) return { ok: true, prepared: { call, tool, args: raw } };
  const parsed = tool.schema.safeParse(raw);
  if (!parsed.success) {
    const repaired = repairArguments(raw, parsed.error, tool.schema);
    if (repaired) return { ok: true, prepared: { call, tool, args: repaired.args, notes: repaired.notes } };
    // Through the proxy the model may not have loaded the definition: it gets the parameters.
    const parameters = proxied ? ` Its parameters: ${JSON.stringify(toToolSchema(tool).parameters)}` : '';
    return { ok: false, call, error: `Invalid arguments for ${call.name}: ${describeIssues(parsed.error)}. Fix the arguments and call the tool again.${parameters}` };
  }
  return { ok: true, prepared: { call, tool, args: parsed.data } };
}

function describeIssues(error: ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

async function runOne(entry: Prepared, options: DispatchOptions, stop: StopFlag): Promise<ToolResultMessage> {
  const { emit, turn } = options;
  const call = entry.ok ? entry.prepared.call : entry.call;
  const started = monotonicMs();
  // What the call is about, once described (before the gate): recorded with the result's view.
  let action: ActionRequest | undefined;
  const finish = (outcome: ToolResult, denied = false): ToolResultMessage => {
    const notes = entry.ok ? entry.prepared.notes : undefined;
    const result = notes ? { ...outcome, content: `${outcome.content}\n(Arguments corrected: ${notes.join('; ')}. Use the schema's names and types.)` } : outcome;
    const durationMs = monotonicMs() - started;
    const message: ToolResultMessage = {
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: result.content,
      isError: result.isError === true,
      ...(result.images?.length ? { images: result.images } : {}),
      view: callView(action, result, durationMs),
    };
    emit({ type: 'tool_end', turn, toolCall: call, result, durationMs, message, ...(denied ? { denied: true as const } : {}) });
    return message;
  };

  if (!entry.ok) {
    emit({ type: 'tool_start', turn, toolCall: call, args: undefined });
    return finish({ content: entry.error, isError: true });
  }
  if (options.signal.aborted) {
    emit({ type: 'tool_start', turn, toolCall: call, args: entry.prepared.args });
    return finish({ content: 'Interrupted: the user cancelled before this call ran.', isError: true });
  }
  if (stop.stopped) {
    emit({ type: 'tool_start', turn, toolCall: call, args: entry.prepared.args });
    return finish({ content: NOT_RUN_AFTER_STOP, isError: true });
  }

  const { tool } = entry.prepared;
  let args = entry.prepared.args;
  // Read per call: entering a worktree mid-run moves the calls that follow.
  const where = options.workspace?.() ?? options;
  const ctx: ToolContext = {
    cwd: where.cwd,
    projectRoot: where.projectRoot,
    signal: options.signal,
    callId: call.id,
    onUpdate: (partial) => emit({ type: 'tool_update', turn, toolCallId: call.id, partial }),
  };
  try {
    action = tool.describe ? await tool.describe(args, ctx) : undefined;
  } catch {
    action = undefined;
  }
  emit({ type: 'tool_start', turn, toolCall: call, args, ...(action ? { action } : {}) });

  if (options.beforeToolCall) {
    let verdict: Awaited<ReturnType<BeforeToolCall>>;
    try {
      verdict = await options.beforeToolCall({ toolCall: call, tool, args, ctx, ...(action ? { described: action } : {}) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      verdict = { allow: false, reason: `Not run: the permission check failed (${reason}).` };
    }
    if (!verdict.allow) {
      if (verdict.stopTurn === true) stop.stopped = true;
      return finish({ content: verdict.reason, isError: true }, true);
    }
    if (verdict.args !== undefined) args = verdict.args;
    if (verdict.sandbox !== undefined) ctx.sandbox = verdict.sandbox;
    if (verdict.checkWrite !== undefined) ctx.checkWrite = verdict.checkWrite;
  }

  let result: ToolResult;
  toolsRan = true;
  try {
    result = await tool.execute(args, ctx);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    result = { content: `${tool.name} failed: ${reason}`, isError: true };
  }
  if (options.signal.aborted && !result.isError) {
    result = { ...result, content: `${result.content}\n(The user cancelled the run after this call finished.)` };
  }
  const message = finish(result);
  if (options.afterToolCall) {
    try {
      await options.afterToolCall({ toolCall: call, tool, args, result, durationMs: monotonicMs() - started });
    } catch {
      // Observers must not break the run.
    }
  }
  return message;
}

/** How the call looked (see ToolCallView): kept on its result message for resumed sessions. */
function callView(action: ActionRequest | undefined, result: ToolResult, durationMs: number): ToolCallView {
  const command = action?.kind === 'bash' || action?.kind === 'git';
  const diff = !result.isError && result.display?.kind === 'diff';
  return {
    ...(action ? { title: action.summary } : {}),
    ...(action && !command && action.paths.length > 0 ? { paths: action.paths } : {}),
    ...(diff && result.content.startsWith('Created ') ? { created: true } : {}),
    durationMs,
    ...(result.display ? { display: keptDisplay(result.display, result.content) } : {}),
  };
}
