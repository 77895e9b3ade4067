import type { AgentEvent } from '../../../../src/agent/types.js';
import type { SessionEvent } from '../../../../src/runtime/events.js';
import type { SubagentOutcome } from '../../../../src/subagents/types.js';
import { initialSubagents, reduceSubagentEvents, type SubagentsState } from '../../../../src/tui/state/subagents.js';

/** Session events about subagents, as the manager emits them (src/subagents/manager.ts). */

export const SUB_A = '20261122-101500-a1b2c3';
export const SUB_B = '20261122-101600-d4e5f6';

export function start(subSid: string, overrides: Partial<Extract<SessionEvent, { type: 'subagent_start' }>> = {}): SessionEvent {
  return { type: 'subagent_start', subSid, parentCallId: 'call-agent-1', depth: 1, agentType: 'explore', description: 'find the parser', model: 'deepseek-v4-flash', ...overrides };
}

export function wrap(subSid: string, event: AgentEvent): SessionEvent {
  return { type: 'subagent_event', subSid, event };
}

export const turn = (subSid: string, n: number) => wrap(subSid, { type: 'turn_start', turn: n });
export const text = (subSid: string, chunk: string) => wrap(subSid, { type: 'text_delta', turn: 1, text: chunk });

export function usage(subSid: string, inputTokens: number, outputTokens: number, costUsd: number): SessionEvent {
  return wrap(subSid, { type: 'usage', turn: 1, usage: { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd, model: 'deepseek-v4-flash' });
}

export function toolStart(subSid: string, id: string, name: string, args: Record<string, unknown>): SessionEvent {
  return wrap(subSid, { type: 'tool_start', turn: 1, toolCall: { id, name, arguments: JSON.stringify(args) }, args });
}

export function toolEnd(subSid: string, id: string, name: string, content = 'ok', isError = false): SessionEvent {
  return wrap(subSid, {
    type: 'tool_end',
    turn: 1,
    toolCall: { id, name, arguments: '{}' },
    result: { content, isError },
    durationMs: 12,
    message: { role: 'tool', toolCallId: id, toolName: name, content, isError },
  });
}

export function end(subSid: string, overrides: Partial<SubagentOutcome> = {}, parentCallId = 'call-agent-1'): SessionEvent {
  const outcome: SubagentOutcome = {
    subSid,
    type: 'explore',
    description: 'find the parser',
    status: 'completed',
    turns: 3,
    usage: { inputTokens: 12_000, outputTokens: 345, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0.0123,
    ...overrides,
  };
  return { type: 'subagent_end', outcome, parentCallId };
}

export function fold(events: SessionEvent[], now = 1_000): SubagentsState {
  return reduceSubagentEvents(initialSubagents(), events, now);
}
