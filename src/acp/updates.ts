import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { AgentEvent, TodoItem } from '../agent/types.js';
import type { SessionEvent } from '../runtime/events.js';
import { diffContent, firstChangedLine, textContent, toolKind, toolLocations, toolTitle } from './tool-calls.js';

/** The ACP id of a subagent's tool call: its own id under the child's sub-sid, so ids of different
 * agents never collide (the permission bridge names calls the same way). */
export function childCallId(subSid: string, callId: string): string {
  return `${subSid}/${callId}`;
}

/** The `plan` update of a todo list: the client replaces its plan with each one. */
export function planUpdate(items: readonly TodoItem[]): SessionUpdate {
  return { sessionUpdate: 'plan', entries: items.map((item) => ({ content: item.content, status: item.status, priority: 'medium' })) };
}

/** Where a subagent's calls nest: the tool call that started it. */
interface Child {
  parentToolCallId: string;
  description: string;
}

/** Cap on the live output of a running command kept for its tool call (the tail is shown). */
const LIVE_OUTPUT_CHARS = 4000;

/**
 * Turns a session's typed events into `session/update` payloads, in order: text and reasoning as
 * message and thought chunks, tool calls with kind, status, locations and diffs, todo lists as
 * plans, subagents' tool calls nested under the call that started them (`_meta.seek`), and
 * delegate_tasks progress as the content of its call. Stateful: one mapper per ACP session.
 */
export class UpdateMapper {
  private readonly children = new Map<string, Child>();
  /** Running calls' live output (bash), by ACP id. */
  private readonly live = new Map<string, string>();
  /** Calls whose command runs in an editor's terminal: the terminal id, by ACP id. */
  private readonly terminals = new Map<string, string>();
  /** The file each running write or edit changes (absolute), by ACP id. */
  private readonly edited = new Map<string, string>();
  /** The session's own delegate_tasks call announced last (the plan review asks about it). */
  lastDelegateCall: string | undefined;
  /** delegate_tasks calls: their tasks and each task's status, by ACP id. */
  private readonly plans = new Map<string, Map<string, { label: string; status: string }>>();

  /** A call's command now runs in the editor's terminal `terminalId` (client-terminal.ts): the
   * update that embeds it, so the editor shows it live; the finished call keeps it above its result. */
  attachTerminal(callId: string, terminalId: string): SessionUpdate {
    this.terminals.set(callId, terminalId);
    return { sessionUpdate: 'tool_call_update', toolCallId: callId, status: 'in_progress', content: [{ type: 'terminal', terminalId }] };
  }

  map(event: SessionEvent): SessionUpdate[] {
    switch (event.type) {
      case 'text_delta':
        return event.text ? [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } }] : [];
      case 'reasoning_delta':
        return event.text ? [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } }] : [];
      case 'error':
        return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n[error] ${event.error.message}\n` } }];
      case 'subagent_start': {
        const parent = event.parentSubSid ? childCallId(event.parentSubSid, event.parentCallId) : event.parentCallId;
        this.children.set(event.subSid, { parentToolCallId: parent, description: event.description });
        if (this.plans.has(parent)) return []; // delegate_tasks shows its tasks instead
        return [{ sessionUpdate: 'tool_call_update', toolCallId: parent, status: 'in_progress', content: [textContent(`${event.agentType} subagent (${event.model}): ${event.description}`)] }];
      }
      case 'subagent_event':
        return this.mapChildEvent(event.subSid, event.event);
      case 'orchestration_start':
        this.plans.set(event.callId, new Map(event.tasks.map((task) => [task.id, { label: `${task.id} (${task.role}): ${task.task}`, status: 'pending' }])));
        return [this.planProgress(event.callId)];
      case 'orchestration_task': {
        const task = this.plans.get(event.callId)?.get(event.taskId);
        if (!task) return [];
        task.status = event.status;
        return [this.planProgress(event.callId)];
      }
      case 'subagent_end':
      case 'orchestration_end':
      case 'session_start':
      case 'notice':
        return [];
      default:
        return this.mapToolEvent(event);
    }
  }

  /** A child's own tool calls, nested; its text and reasoning stay in its transcript. */
  private mapChildEvent(subSid: string, event: AgentEvent): SessionUpdate[] {
    const child = this.children.get(subSid);
    if (!child) return [];
    const meta = { seek: { parentToolCallId: child.parentToolCallId, subagent: subSid } };
    return this.mapToolEvent(event, subSid).map((update) => {
      if (update.sessionUpdate === 'tool_call') return { ...update, title: `[${child.description}] ${update.title}`, _meta: meta };
      if (update.sessionUpdate === 'tool_call_update') return { ...update, _meta: meta };
      return update;
    });
  }

  private mapToolEvent(event: AgentEvent, subSid?: string): SessionUpdate[] {
    const id = (callId: string): string => (subSid ? childCallId(subSid, callId) : callId);
    switch (event.type) {
      case 'tool_start': {
        const { toolCall, args, action } = event;
        if (toolCall.name === 'todo_write') return []; // shown as the plan
        if (toolCall.name === 'delegate_tasks' && !subSid) this.lastDelegateCall = toolCall.id;
        const created = action?.summary.startsWith('create ') === true; // write_file's summary for a new file
        if ((action?.kind === 'write' || action?.kind === 'edit') && action.paths[0]) this.edited.set(id(toolCall.id), action.paths[0]);
        const diffs = action ? diffContent(action.paths[0] ?? '', action.preview, created) : [];
        const line = firstChangedLine(action?.preview);
        const locations = toolLocations(toolCall.name, args, action).map((location) => (line !== undefined && diffs.length > 0 ? { ...location, line } : location));
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: id(toolCall.id),
            title: toolTitle(toolCall.name, args ?? toolCall.arguments, action),
            kind: toolKind(toolCall.name),
            status: 'pending',
            rawInput: args ?? toolCall.arguments,
            ...(locations.length > 0 ? { locations } : {}),
            ...(diffs.length > 0 ? { content: diffs } : {}),
          },
        ];
      }
      case 'tool_update': {
        const key = id(event.toolCallId);
        const output = `${this.live.get(key) ?? ''}${event.partial}`.slice(-LIVE_OUTPUT_CHARS);
        this.live.set(key, output);
        return [{ sessionUpdate: 'tool_call_update', toolCallId: key, status: 'in_progress', content: [textContent(output)] }];
      }
      case 'tool_end': {
        const { toolCall, result } = event;
        const key = id(toolCall.id);
        this.live.delete(key);
        if (toolCall.name === 'todo_write' && !result.isError) return result.display?.kind === 'todos' && !subSid ? [planUpdate(result.display.items)] : [];
        // A todo_write that failed (invalid arguments, refused) was never announced (the plan
        // stands for it): it is shown as a failed call of its own, so the editor sees the fault.
        if (toolCall.name === 'todo_write') {
          return [{ sessionUpdate: 'tool_call', toolCallId: key, title: toolTitle(toolCall.name, toolCall.arguments), kind: toolKind(toolCall.name), status: 'failed', rawInput: toolCall.arguments, content: [textContent(result.content)] }];
        }
        const status = result.isError ? 'failed' : 'completed';
        const terminalId = this.terminals.get(key);
        const content: ToolCallContent[] = [...(terminalId ? [{ type: 'terminal' as const, terminalId }] : []), ...this.resultContent(key, toolCall.name, event)];
        this.plans.delete(key);
        this.terminals.delete(key);
        this.edited.delete(key);
        return [{ sessionUpdate: 'tool_call_update', toolCallId: key, status, content }];
      }
      default:
        return [];
    }
  }

  /** What a finished call shows: an applied edit as its diff, anything else as its result text. */
  private resultContent(key: string, name: string, event: Extract<AgentEvent, { type: 'tool_end' }>): ToolCallContent[] {
    const { result } = event;
    if (!result.isError && (name === 'write_file' || name === 'edit_file') && result.display?.kind === 'diff') {
      const absPath = this.edited.get(key);
      const diffs = absPath ? diffContent(absPath, result.display, result.content.startsWith('Created ')) : [];
      // The language server's errors after the edit (src/lsp) go with the diff, as the model read them.
      const lsp = result.content.indexOf('\n\nLSP');
      if (diffs.length > 0) return lsp >= 0 ? [...diffs, textContent(result.content.slice(lsp + 2))] : diffs;
    }
    const plan = this.plans.get(key);
    const progress = plan ? [textContent([...plan.values()].map((task) => `${task.status.padEnd(9)} ${task.label}`).join('\n'))] : [];
    return [...progress, textContent(result.content)];
  }

  private planProgress(callId: string): SessionUpdate {
    const tasks = [...(this.plans.get(callId)?.values() ?? [])];
    return { sessionUpdate: 'tool_call_update', toolCallId: callId, status: 'in_progress', content: [textContent(tasks.map((task) => `${task.status.padEnd(9)} ${task.label}`).join('\n'))] };
  }
}
