import type { AssistantMessage, ToolCall, ToolResultMessage, UserMessage } from '../../../src/providers/types.js';
import type { NewSessionHeader } from '../../../src/session/format.js';

export function header(id: string, extra: Partial<NewSessionHeader> = {}): NewSessionHeader {
  return {
    id,
    cwd: '/repo/src',
    project_root: '/repo',
    project_id: '0123456789abcdef',
    provider: 'deepseek',
    model: 'deepseek-v4-flash',
    system_prompt: 'You are seek.\nToday is 2025-01-01.\n',
    tools_hash: 'abcdabcdabcdabcd',
    seek_version: '0.1.0',
    ...extra,
  };
}

export const user = (content: string): UserMessage => ({ role: 'user', content });

export function assistant(content: string, toolCalls: ToolCall[] = [], input = 1000, cached = 800, cost = 0.001): AssistantMessage {
  return {
    role: 'assistant',
    content,
    toolCalls,
    stopReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    usage: { inputTokens: input, outputTokens: 100, cacheReadTokens: cached, cacheWriteTokens: 0 },
    costUsd: cost,
    model: 'deepseek-v4-flash',
  };
}

export const call = (id: string, name = 'read_file', args = '{"path":"a.ts"}'): ToolCall => ({ id, name, arguments: args });

export const result = (toolCallId: string, content = 'ok', toolName = 'read_file'): ToolResultMessage => ({
  role: 'tool',
  toolCallId,
  toolName,
  content,
  isError: false,
});
