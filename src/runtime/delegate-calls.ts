/**
 * delegate_tasks calls the session runs itself, outside the model loop: `seek run PLAN.yaml` (the
 * plan as the session's own call) and calls a crash interrupted, finished on `--resume` before the
 * next prompt. Each is recorded as the loop would: tool events, the result in history and the file.
 */
import type { ToolResult } from '../agent/types.js';
import type { Message, ToolCall, ToolResultMessage } from '../providers/types.js';
import type { TaskSpec } from '../orchestrator/types.js';
import type { SessionEvent } from './events.js';
import type { PreparedSession } from './prepare.js';
import { monotonicMs } from '../util/clock.js';

export interface DelegateCallDeps {
  prepared: Pick<PreparedSession, 'pendingCalls' | 'orchestration' | 'workspace'>;
  /** Appends a message to history, the session file and the front ends. */
  record: (message: Message) => void;
  emit: (event: SessionEvent) => void;
}

export class DelegateCalls {
  constructor(private readonly deps: DelegateCallDeps) {}

  /** Whether interrupted calls still wait for a result (a prompt must not follow them). */
  get pending(): boolean {
    return this.deps.prepared.pendingCalls.length > 0;
  }

  /**
   * Runs the interrupted calls again, which reuses their completed tasks, and records their
   * results, so the history is complete before the new prompt. A cancelled run leaves the rest for
   * the next prompt. Returns the last result.
   */
  async finishInterrupted(signal: AbortSignal): Promise<ToolResult | undefined> {
    const calls = this.deps.prepared.pendingCalls;
    let last: ToolResult | undefined;
    while (calls.length > 0 && !signal.aborted) {
      const call = calls[0]!;
      let args: { tasks?: unknown; goal?: unknown } = {};
      try {
        args = JSON.parse(call.arguments) as typeof args;
      } catch {
        // answered as interrupted below
      }
      const tasks = Array.isArray(args.tasks) ? (args.tasks as TaskSpec[]) : undefined;
      const result = await this.run(call, tasks, typeof args.goal === 'string' ? args.goal : undefined, signal);
      if (!result) return last; // cancelled again: the call stays pending, its finished tasks journalled
      calls.shift();
      last = result;
    }
    return last;
  }

  /** Runs one call as the loop would. Undefined (nothing recorded) when cancelled. */
  async run(call: ToolCall, tasks: TaskSpec[] | undefined, goal: string | undefined, signal: AbortSignal): Promise<ToolResult | undefined> {
    const { prepared, emit, record } = this.deps;
    const started = monotonicMs();
    emit({ type: 'tool_start', turn: 0, toolCall: call, args: { tasks, goal } });
    const ctx = { cwd: prepared.workspace.cwd, projectRoot: prepared.workspace.root, signal, callId: call.id };
    const result = tasks
      ? (await prepared.orchestration.run(tasks, ctx, goal)).result
      : { content: 'Interrupted: the session stopped before this tool call returned a result.', isError: true };
    if (signal.aborted) return undefined;
    const message: ToolResultMessage = { role: 'tool', toolCallId: call.id, toolName: call.name, content: result.content, isError: result.isError === true };
    emit({ type: 'tool_end', turn: 0, toolCall: call, result, durationMs: monotonicMs() - started, message });
    record(message);
    return result;
  }
}
