import type { HookRunner } from '../../../src/hooks/runner.js';
import type { Message, Usage } from '../../../src/providers/types.js';

/** A HookRunner that records the compaction events it is given (and nothing else runs). */
export function recordingHooks(log: string[] = []): HookRunner & { calls: Array<{ event: string; details: unknown }> } {
  const calls: Array<{ event: string; details: unknown }> = [];
  const record = (event: string) => async (details?: object) => {
    calls.push({ event, details });
    log.push(event);
  };
  return {
    calls,
    hooks: [],
    has: () => true,
    preTool: async () => ({}),
    postTool: async () => {},
    prePrompt: async () => {},
    sessionStart: async () => {},
    sessionEnd: async () => {},
    preCompact: record('pre_compact'),
    postCompact: record('post_compact'),
  };
}

export function usage(inputTokens: number, outputTokens = 0): Usage {
  return { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** A small coding session: a task, a read, its result, an edit, its result. */
export function sampleHistory(): Message[] {
  return [
    { role: 'user', content: 'Rename the heading in README.md to "demo project".' },
    { role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"README.md"}' }], stopReason: 'tool_calls' },
    { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: '# demo\n', isError: false },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'bash', arguments: '{"command":"npm test"}' }], stopReason: 'tool_calls' },
    { role: 'tool', toolCallId: 'c2', toolName: 'bash', content: 'exit code 1: 2 tests failed', isError: true },
  ];
}
