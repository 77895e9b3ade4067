import { describe, expect, it } from 'vitest';
import { runLoop } from '../../../src/agent/loop.js';
import { toToolSchemas } from '../../../src/agent/tool-schema.js';
import type { AgentEvent, Tool } from '../../../src/agent/types.js';
import { z } from 'zod';
import { createCompactor } from '../../../src/runtime/compaction.js';
import { compactionSummaryMessage } from '../../../src/session/format.js';
import type { Message } from '../../../src/providers/types.js';
import { fakeStream } from '../../support/fake-stream.js';

const echo: Tool<{ text: string }> = {
  name: 'echo',
  description: 'echoes',
  schema: z.object({ text: z.string() }).strict(),
  readOnly: true,
  execute: async (args) => ({ content: `echo: ${args.text}` }),
};

describe('compaction inside the loop', () => {
  it('summarises between turns and continues from the summary alone', async () => {
    // The fake reports 110 tokens per response: over 0.85 of a 120-token window.
    const stream = fakeStream([
      { toolCalls: [{ name: 'echo', arguments: { text: 'one' } }] },
      { toolCalls: [{ name: 'echo', arguments: { text: 'two' } }] },
      { text: 'THE BRIEF' },
      { text: 'finished' },
    ]);
    const history: Message[] = [];
    const events: AgentEvent[] = [];
    const tools = [echo as Tool];
    const compactor = createCompactor({ stream, model: 'm', contextWindow: 120, env: {} });
    const result = await runLoop({
      stream,
      model: 'm',
      system: 'sys',
      tools,
      toolSchemas: toToolSchemas(tools),
      history,
      input: { role: 'user', content: 'do it' },
      maxTurns: 10,
      signal: new AbortController().signal,
      emit: (event) => events.push(event),
      cwd: process.cwd(),
      projectRoot: process.cwd(),
      compactIfNeeded: compactor.compactIfNeeded,
    });
    expect(result.reason).toBe('completed');
    // Turn 2 had only 3 messages (too few); turn 3 compacts the 5.
    expect(stream.requests.map((r) => r.tools.length)).toEqual([1, 1, 0, 1]);
    const summariser = stream.requests[2]!.messages[0]!;
    expect(summariser.role === 'user' && summariser.content).toContain('[called echo({"text":"two"})]');
    expect(stream.snapshots[3]).toContain(JSON.stringify(compactionSummaryMessage('THE BRIEF')));
    expect(history[0]).toEqual(compactionSummaryMessage('THE BRIEF'));
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant']);
    const compaction = events.find((e) => e.type === 'compaction');
    expect(compaction).toMatchObject({ type: 'compaction', turn: 3, reason: 'auto', summary: 'THE BRIEF', replacedMessages: 5, model: 'm' });
  });
});
