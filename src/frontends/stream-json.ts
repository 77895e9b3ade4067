import type { Writable } from 'node:stream';
import { isCostKnown } from '../cost/tracker.js';
import type { Message } from '../providers/types.js';
import { unwrapProxyCall } from '../agent/tool-proxy.js';
import type { RunSummary, SessionEvent } from '../runtime/events.js';
import { costFields, exitCodeFor, orchestrationObject, resultObject, usageObject } from './result.js';

/** Cap on tool output copied into stream-json lines; the full text is in the session file. */
const MAX_TOOL_CONTENT = 4000;

/** `--output-format stream-json`: one JSON object a line as things happen, ending with the
 * result object. Subagent events carry `sub_sid`. Tool-call argument deltas are not streamed
 * (the complete call arrives in the assistant `message` and in `tool_start`). */
export function createStreamJsonRenderer(out: Writable) {
  const write = (line: Record<string, unknown>) => out.write(`${JSON.stringify(line)}\n`);
  return {
    onEvent(event: SessionEvent, subSid?: string): void {
      // A child's loop events come wrapped; unwrap them and tag them with the child's sub-sid.
      if (event.type === 'subagent_event') return this.onEvent(event.event, event.subSid);
      const line = toLine(event);
      if (line) write(subSid ? { ...line, sub_sid: subSid } : line);
    },
    finish(summary: RunSummary): number {
      write(resultObject(summary));
      return exitCodeFor(summary);
    },
  };
}

function toLine(event: SessionEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case 'session_start':
      return { type: 'system', subtype: 'init', session_id: event.sessionId, model: event.model, provider: event.provider, cwd: event.cwd, resumed: event.resumed };
    case 'turn_start':
      return { type: 'turn_start', turn: event.turn };
    case 'text_delta':
    case 'reasoning_delta':
      return { type: event.type, turn: event.turn, text: event.text };
    case 'retry':
      return { type: 'retry', turn: event.turn, attempt: event.attempt, max_attempts: event.maxAttempts, delay_ms: event.delayMs, error: event.error.message };
    case 'message':
      return { type: 'message', message: publicMessage(event.message) };
    case 'tool_start':
      return { type: 'tool_start', turn: event.turn, tool_call_id: event.toolCall.id, name: event.toolCall.name, args: event.args ?? event.toolCall.arguments };
    case 'tool_end':
      return {
        type: 'tool_end',
        turn: event.turn,
        tool_call_id: event.toolCall.id,
        name: event.toolCall.name,
        is_error: event.message.isError,
        ...(event.denied ? { denied: true } : {}),
        duration_ms: Math.round(event.durationMs),
        content: event.message.content.length > MAX_TOOL_CONTENT ? `${event.message.content.slice(0, MAX_TOOL_CONTENT)}…` : event.message.content,
        // Language-server errors after an edit (src/lsp), counted; the lines are in `content`.
        ...(event.result.display?.kind === 'diff' && event.result.display.diagnostics ? { diagnostics: event.result.display.diagnostics } : {}),
      };
    case 'usage':
      return { type: 'usage', turn: event.turn, model: event.model, usage: usageObject(event.usage), ...costFields(event.costUsd, isCostKnown(event.costUsd, event.model), 'cost_usd') };
    case 'turn_end':
      return { type: 'turn_end', turn: event.turn, stop_reason: event.message.stopReason };
    case 'error':
      return { type: 'error', turn: event.turn, kind: event.error.kind, message: event.error.message };
    case 'notice':
      return { type: 'notice', level: event.level, text: event.text };
    case 'subagent_start':
      return {
        type: 'subagent_start',
        sub_sid: event.subSid,
        parent_tool_call_id: event.parentCallId,
        ...(event.parentSubSid ? { parent_sub_sid: event.parentSubSid } : {}),
        agent_type: event.agentType,
        description: event.description,
        depth: event.depth,
        model: event.model,
        ...(event.transcriptPath ? { transcript_path: event.transcriptPath } : {}),
        ...(event.label ? { task_id: event.label } : {}),
      };
    case 'subagent_end':
      return {
        type: 'subagent_end',
        sub_sid: event.outcome.subSid,
        parent_tool_call_id: event.parentCallId,
        status: event.outcome.status,
        ...(event.outcome.reason ? { reason: event.outcome.reason } : {}),
        turns: event.outcome.turns,
        usage: usageObject(event.outcome.usage),
        ...costFields(event.outcome.costUsd, event.outcome.costKnown ?? true, 'cost_usd'),
      };
    case 'orchestration_start':
      return {
        type: 'orchestration_start',
        tool_call_id: event.callId,
        mode: event.mode,
        ...(event.goal ? { goal: event.goal } : {}),
        isolated_writers: event.isolatedWriters,
        tasks: event.tasks.map((task) => ({ id: task.id, role: task.role, task: task.task, depends_on: task.dependsOn })),
      };
    case 'orchestration_task':
      return { type: 'orchestration_task', tool_call_id: event.callId, task_id: event.taskId, status: event.status, ...(event.subSid ? { sub_sid: event.subSid } : {}) };
    case 'orchestration_end':
      return { ...orchestrationObject(event.summary), type: 'orchestration_end' };
    default:
      return undefined;
  }
}

export function publicMessage(message: Message): Record<string, unknown> {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, name: message.toolName, is_error: message.isError, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.reasoning ? { reasoning: message.reasoning } : {}),
        // A call through call_tool is shown as the tool it called (as its tool events show it).
        tool_calls: message.toolCalls.map(unwrapProxyCall).map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
        stop_reason: message.stopReason,
        ...(message.usage
          ? { usage: usageObject(message.usage), ...costFields(message.costUsd ?? 0, isCostKnown(message.costUsd, message.model ?? ''), 'cost_usd') }
          : {}),
      };
  }
}
