import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Message } from '../providers/types.js';
import { isInjectedContext } from '../session/context.js';
import { unwrapProxyCall } from '../agent/tool-proxy.js';
import { textContent, toolKind, toolTitle } from './tool-calls.js';

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
      for (const call of message.toolCalls.map(unwrapProxyCall)) {
        const result = results.get(call.id);
        const args = parseArgs(call.arguments);
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: call.id,
          title: toolTitle(call.name, args),
          kind: toolKind(call.name),
          status: !result || result.isError ? 'failed' : 'completed',
          rawInput: args,
          ...(result ? { content: [textContent(result.content)] } : {}),
        });
      }
    }
  }
  return updates;
}

function parseArgs(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}
