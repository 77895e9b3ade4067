import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INTERRUPTED_MARK, runLoop, type LoopOptions } from '../../../src/agent/loop.js';
import { toToolSchemas } from '../../../src/agent/tool-schema.js';
import type { AgentEvent, Tool } from '../../../src/agent/types.js';
import type { Message, ToolResultMessage } from '../../../src/providers/types.js';
import { fakeStream, type FakeReply } from '../../support/fake-stream.js';

/** Records when each call started and finished, to check what ran concurrently. */
function timelineTool(name: string, readOnly: boolean, timeline: string[], delayMs = 20): Tool<{ id: string }> {
  return {
    name,
    description: `${name} test tool`,
    schema: z.object({ id: z.string() }).strict(),
    readOnly,
    async execute(args, ctx) {
      timeline.push(`start ${args.id}`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      timeline.push(`end ${args.id}`);
      if (ctx.signal.aborted) return { content: 'stopped', isError: true };
      return { content: `${name} ${args.id} done` };
    },
  };
}

function setup(replies: FakeReply[], tools: Tool[] = [], overrides: Partial<LoopOptions> = {}) {
  const stream = fakeStream(replies);
  const events: AgentEvent[] = [];
  const history: Message[] = [];
  const controller = new AbortController();
  const options: LoopOptions = {
    stream,
    model: 'test-model',
    system: 'You are a test.',
    tools,
    toolSchemas: toToolSchemas(tools),
    history,
    input: { role: 'user', content: 'go' },
    maxTurns: 20,
    signal: controller.signal,
    emit: (event) => events.push(event),
    cwd: process.cwd(),
    projectRoot: process.cwd(),
    ...overrides,
  };
  return { stream, events, history, controller, options };
}

const toolResults = (history: Message[]) => history.filter((m): m is ToolResultMessage => m.role === 'tool');

describe('runLoop', () => {
  it('ends after a text-only answer and emits events in order', async () => {
    const { options, events, history } = setup([{ reasoning: 'hmm', text: 'Hello there' }]);
    const result = await runLoop(options);
    expect(result).toEqual({ reason: 'completed', turns: 1, finalText: 'Hello there' });
    expect(events.map((e) => e.type)).toEqual(['message', 'turn_start', 'reasoning_delta', 'text_delta', 'message', 'usage', 'turn_end', 'loop_end']);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('runs a tool, feeds the result back and continues', async () => {
    const timeline: string[] = [];
    const { options, history, stream } = setup(
      [{ toolCalls: [{ name: 'look', arguments: { id: 'a' } }] }, { text: 'Found it' }],
      [timelineTool('look', true, timeline)],
    );
    const result = await runLoop(options);
    expect(result.reason).toBe('completed');
    expect(result.finalText).toBe('Found it');
    expect(toolResults(history)).toHaveLength(1);
    expect(toolResults(history)[0]!.content).toBe('look a done');
    const second = JSON.parse(`${stream.snapshots[1]}]}`) as { messages: Message[] };
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: 'look a done' });
  });

  it('runs read-only calls concurrently, mutating calls alone, results in call order', async () => {
    const timeline: string[] = [];
    const tools = [timelineTool('read', true, timeline), timelineTool('write', false, timeline)];
    const { options, history } = setup(
      [
        {
          toolCalls: [
            { name: 'read', arguments: { id: 'r1' } },
            { name: 'read', arguments: { id: 'r2' } },
            { name: 'write', arguments: { id: 'w1' } },
            { name: 'read', arguments: { id: 'r3' } },
          ],
        },
        { text: 'ok' },
      ],
      tools,
    );
    await runLoop(options);
    expect(timeline).toEqual(['start r1', 'start r2', 'end r1', 'end r2', 'start w1', 'end w1', 'start r3', 'end r3']);
    expect(toolResults(history).map((r) => r.content)).toEqual(['read r1 done', 'read r2 done', 'write w1 done', 'read r3 done']);
  });

  it('answers malformed JSON, unknown tools and schema failures with corrective errors and goes on', async () => {
    const timeline: string[] = [];
    const { options, history } = setup(
      [
        {
          toolCalls: [
            { name: 'look', arguments: '{"id": "a"' },
            { name: 'nope', arguments: {} },
            { name: 'look', arguments: { id: 7 } },
          ],
        },
        { text: 'recovered' },
      ],
      [timelineTool('look', true, timeline)],
    );
    const result = await runLoop(options);
    expect(result.reason).toBe('completed');
    const [bad, unknown, invalid] = toolResults(history);
    expect(bad!.isError).toBe(true);
    expect(bad!.content).toMatch(/not valid JSON/);
    expect(unknown!.content).toMatch(/Unknown tool "nope"\. Available tools: look/);
    expect(invalid!.content).toMatch(/Invalid arguments for look: id:/);
    expect(timeline).toEqual([]);
  });

  it('accepts unambiguous argument variants (another agent\'s parameter name, booleans as strings) and says so', async () => {
    const seen: unknown[] = [];
    const tool: Tool<{ path: string; replace_all?: boolean }> = {
      name: 'touch',
      description: 'test',
      schema: z.object({ path: z.string(), replace_all: z.boolean().optional() }).strict(),
      readOnly: true,
      async execute(args) {
        seen.push(args);
        return { content: 'touched' };
      },
    };
    const { options, history } = setup(
      [
        { toolCalls: [{ name: 'touch', arguments: { file_path: 'a.txt', replace_all: 'true' } }, { name: 'touch', arguments: { path: 'b', replace_all: 'maybe' } }] },
        { text: 'done' },
      ],
      [tool],
    );
    await runLoop(options);
    const [repaired, refused] = toolResults(history);
    expect(seen).toEqual([{ path: 'a.txt', replace_all: true }]);
    expect(repaired!.isError).toBe(false);
    expect(repaired!.content).toMatch(/^touched\n\(Arguments corrected: .*\. Use the schema's names and types\.\)$/);
    expect(repaired!.content).toContain('read `file_path` as `path`');
    expect(repaired!.content).toContain('read replace_all: "true" as true');
    expect(refused!.isError).toBe(true);
    expect(refused!.content).toMatch(/Invalid arguments for touch: replace_all:/);
  });

  it('stops when the same call repeats three times in a row, answering every call', async () => {
    const timeline: string[] = [];
    const same = { toolCalls: [{ name: 'look', arguments: { id: 'x' } }] };
    const { options, history } = setup([same, same, same, { text: 'never' }], [timelineTool('look', true, timeline, 1)]);
    const result = await runLoop(options);
    expect(result.reason).toBe('repeated_tool_call');
    expect(result.errorMessage).toMatch(/repeated 3 times/);
    expect(toolResults(history)).toHaveLength(3);
    expect(toolResults(history)[2]!.content).toMatch(/^Not run:/);
    expect(timeline.filter((t) => t.startsWith('start'))).toHaveLength(2);
  });

  it('stops at max turns', async () => {
    const timeline: string[] = [];
    const replies = [1, 2, 3].map((n) => ({ toolCalls: [{ name: 'look', arguments: { id: String(n) } }] }));
    const { options } = setup(replies, [timelineTool('look', true, timeline, 1)], { maxTurns: 2 });
    const result = await runLoop(options);
    expect(result.reason).toBe('max_turns');
    expect(result.turns).toBe(2);
  });

  it('drops a failed response without appending it and reports the error', async () => {
    const { options, history, events } = setup([{ error: { kind: 'server', message: 'HTTP 500 after 4 attempts' } }]);
    const result = await runLoop(options);
    expect(result).toMatchObject({ reason: 'error', errorMessage: 'HTTP 500 after 4 attempts' });
    expect(history.map((m) => m.role)).toEqual(['user']);
    expect(events.some((e) => e.type === 'error')).toBe(true);
  });

  it('on abort during tools answers every call and leaves no dangling call', async () => {
    const timeline: string[] = [];
    const tools = [timelineTool('write', false, timeline, 50)];
    const { options, history, controller } = setup(
      [{ toolCalls: [{ name: 'write', arguments: { id: 'w1' } }, { name: 'write', arguments: { id: 'w2' } }] }, { text: 'never' }],
      tools,
    );
    setTimeout(() => controller.abort(), 20);
    const result = await runLoop(options);
    expect(result.reason).toBe('aborted');
    const results = toolResults(history);
    expect(results).toHaveLength(2);
    expect(results[1]!.content).toMatch(/^Interrupted/);
    expect(timeline).toEqual(['start w1', 'end w1']);
  });

  it('lets the gate deny a call: the reason becomes the result', async () => {
    const timeline: string[] = [];
    const { options, history } = setup(
      [{ toolCalls: [{ name: 'write', arguments: { id: 'w' } }] }, { text: 'ok' }],
      [timelineTool('write', false, timeline)],
      { beforeToolCall: async () => ({ allow: false, reason: 'write is not allowed: re-run with --yolo' }) },
    );
    await runLoop(options);
    expect(toolResults(history)[0]).toMatchObject({ isError: true, content: 'write is not allowed: re-run with --yolo' });
    expect(timeline).toEqual([]);
  });

  it('a denial that stops the turn: the reason is the result, later calls are not run, and the model is not asked again', async () => {
    const timeline: string[] = [];
    const { options, history, stream } = setup(
      [{ toolCalls: [{ name: 'write', arguments: { id: 'a' } }, { name: 'write', arguments: { id: 'b' } }] }, { text: 'never requested' }],
      [timelineTool('write', false, timeline)],
      { beforeToolCall: async () => ({ allow: false, reason: 'The user declined: write a. They said: use b', stopTurn: true }) },
    );
    const result = await runLoop(options);
    expect(result).toMatchObject({ reason: 'completed', turns: 1 });
    const results = toolResults(history);
    expect(results.map((r) => r.content)).toEqual(['The user declined: write a. They said: use b', expect.stringMatching(/^Not run: the user declined an earlier call/)]);
    expect(timeline).toEqual([]);
    expect(stream.requests).toHaveLength(1); // the next request waits for the user's next message
  });

  it('turns a throwing tool into an error result', async () => {
    const boom: Tool<Record<string, never>> = {
      name: 'boom',
      description: 'throws',
      schema: z.object({}).strict(),
      readOnly: false,
      execute: async () => {
        throw new Error('disk on fire');
      },
    };
    const { options, history } = setup([{ toolCalls: [{ name: 'boom', arguments: {} }] }, { text: 'ok' }], [boom]);
    const result = await runLoop(options);
    expect(result.reason).toBe('completed');
    expect(toolResults(history)[0]).toMatchObject({ isError: true, content: 'boom failed: disk on fire' });
  });

  it('sends byte-identical system and tools and an append-only history on every request', async () => {
    const timeline: string[] = [];
    const replies: FakeReply[] = Array.from({ length: 9 }, (_, n) => ({ toolCalls: [{ name: 'look', arguments: { id: `n${n}` } }] }));
    const { options, stream } = setup([...replies, { text: 'done' }], [timelineTool('look', true, timeline, 1)]);
    await runLoop(options);
    expect(stream.snapshots).toHaveLength(10);
    for (let i = 1; i < stream.snapshots.length; i++) {
      expect(stream.snapshots[i]!.startsWith(stream.snapshots[i - 1]!)).toBe(true);
      expect(stream.requests[i]!.tools).toBe(stream.requests[0]!.tools);
    }
  });
});

describe('runLoop: a response the user cancels', () => {
  /** Streams `text` and the start of a tool call, then waits for the abort and fails as aborted. */
  function cutStream(text: string): LoopOptions['stream'] {
    return async function* (_request, signal) {
      yield { type: 'text_delta', text };
      yield { type: 'toolcall_start', index: 0, id: 'call_cut', name: 'bash' };
      await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve()));
      yield { type: 'error', error: { kind: 'aborted', message: 'aborted', retryable: false }, message: { role: 'assistant', content: '', toolCalls: [], stopReason: 'aborted' } };
    };
  }

  it('keeps the streamed text, marked as interrupted, without the partial tool call; the next request carries it', async () => {
    const { options, history, controller, events } = setup([], [], { stream: cutStream('The answer starts like') });
    const run = runLoop(options);
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect((await run).reason).toBe('aborted');
    expect(history).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: `The answer starts like\n\n${INTERRUPTED_MARK}`, toolCalls: [], stopReason: 'aborted', model: 'test-model' },
    ]);
    expect(events.filter((e) => e.type === 'message')).toHaveLength(2); // recorded like any message (the session file)

    const next = fakeStream([{ text: 'carrying on' }]);
    await runLoop({ ...options, stream: next, signal: new AbortController().signal, input: { role: 'user', content: 'go on' } });
    // What the request held when it was sent (the loop goes on appending to the same array).
    expect(next.snapshots[0]).toContain(JSON.stringify(`The answer starts like\n\n${INTERRUPTED_MARK}`));
    expect(history.map((m) => m.content)).toEqual(['go', `The answer starts like\n\n${INTERRUPTED_MARK}`, 'go on', 'carrying on']);
  });

  it('adds nothing when the cancelled response had no text yet', async () => {
    const { options, history, controller } = setup([{ delayMs: 10_000, text: 'never' }]);
    const run = runLoop(options);
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect((await run).reason).toBe('aborted');
    expect(history.map((m) => m.role)).toEqual(['user']);
  });
});
