import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { TodoItem } from '../agent/types.js';
import type { Message, ToolCall, ToolResultMessage } from '../providers/types.js';
import { isInjectedContext } from '../session/context.js';
import { unwrapProxyCall } from '../agent/tool-proxy.js';
import { diffContent, firstChangedLine, textContent, toolKind, toolTitle } from './tool-calls.js';
import { planUpdate } from './updates.js';

/** Where seek appends its mode reminder to a prompt (not the user's words). */
const REMINDER = '\n\n<system-reminder>';

/**
 * A saved session's history as the `session/update` notifications `session/load` replays before
 * it answers: the user's prompts as user message chunks, the model's reasoning and answers as
 * thought and message chunks, each tool call with its final status and result. Context seek
 * injected (memory, worktree notes) and mode reminders are left out: they were never shown.
 */
export function replayUpdates(history: readonly Message[]): SessionUpdate[] {
  const results = new Map<string, Extract<Message, { role: 'tool' }>>();
  for (const message of history) if (message.role === 'tool') results.set(message.toolCallId, message);
  const updates: SessionUpdate[] = [];
  for (const message of history) {
    if (message.role === 'user') {
      if (isInjectedContext(message)) continue;
      const at = message.content.indexOf(REMINDER);
      const text = at === -1 ? message.content : message.content.slice(0, at);
      updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
    } else if (message.role === 'assistant') {
      if (message.reasoning) updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: message.reasoning } });
      if (message.content) updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: message.content } });
      // A call through call_tool shows as the tool it called, as it did live.
      for (const call of message.toolCalls.map(unwrapProxyCall)) updates.push(...replayCall(call, results.get(call.id)));
    }
  }
  return updates;
}

/**
 * One call as it ended live: the title, files and diffs its result message kept (`view`, written
 * when it ran: the file has changed since, so nothing is recomputed), the result text otherwise; a
 * todo list that was set as the plan, as the plan. Calls from before views were kept fall back to
 * the tool's name and key argument.
 */
function replayCall(call: ToolCall, result: ToolResultMessage | undefined): SessionUpdate[] {
  const args = parseArgs(call.arguments);
  const todos = call.name === 'todo_write' && result && !result.isError ? todoItems(args) : undefined;
  if (todos) return [planUpdate(todos)];
  const view = result?.view;
  const path = view?.paths?.[0];
  const diff = result && !result.isError ? viewDiff(view?.display) : undefined;
  const shown = diff !== undefined && path ? { kind: 'diff' as const, path, diff, added: 0, removed: 0 } : undefined;
  const diffs = shown ? diffContent(shown.path, shown, view?.created === true) : [];
  const line = shown && diffs.length > 0 ? firstChangedLine(shown) : undefined;
  const locations = (view?.paths ?? []).map((at) => ({ path: at, ...(line !== undefined ? { line } : call.name === 'read_file' && typeof (args as { offset?: unknown })?.offset === 'number' ? { line: (args as { offset: number }).offset } : {}) }));
  return [
    {
      sessionUpdate: 'tool_call',
      toolCallId: call.id,
      title: view?.title ?? toolTitle(call.name, args),
      kind: toolKind(call.name),
      status: !result || result.isError ? 'failed' : 'completed',
      rawInput: args,
      ...(locations.length > 0 ? { locations } : {}),
      ...(diffs.length > 0 ? { content: diffs } : result ? { content: [textContent(result.content)] } : {}),
    },
  ];
}

function todoItems(args: unknown): TodoItem[] | undefined {
  const items = (args as { items?: unknown } | undefined)?.items;
  return Array.isArray(items) ? (items as TodoItem[]) : undefined;
}

function parseArgs(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/** The unified diff a view's display holds (a ToolDisplay of kind `diff`), if it is one. */
function viewDiff(display: unknown): string | undefined {
  if (typeof display !== 'object' || display === null) return undefined;
  const { kind, diff } = display as { kind?: unknown; diff?: unknown };
  return kind === 'diff' && typeof diff === 'string' ? diff : undefined;
}
