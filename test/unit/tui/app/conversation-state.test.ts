import { describe, expect, it } from 'vitest';
import type { ToolDisplay, ToolResult } from '../../../../src/agent/types.js';
import type { AssistantMessage, Message, ToolCall, Usage } from '../../../../src/providers/types.js';
import type { SessionEvent } from '../../../../src/runtime/events.js';
import {
  addNotice,
  initialConversation,
  itemsFromHistory,
  reduceConversation,
  type ConversationState,
} from '../../../../src/tui/state/conversation.js';
import { keyArgument } from '../../../../src/tui/state/key-argument.js';
import type { ConversationItem } from '../../../../src/tui/types.js';

type Item<K extends ConversationItem['kind']> = Extract<ConversationItem, { kind: K }>;

const USAGE: Usage = { inputTokens: 12_000, outputTokens: 800, cacheReadTokens: 9_000, cacheWriteTokens: 0 };

function call(id: string, name: string, args: Record<string, unknown>): ToolCall {
  return { id, name, arguments: JSON.stringify(args) };
}

function assistant(content: string, toolCalls: ToolCall[] = [], reasoning?: string): AssistantMessage {
  return {
    role: 'assistant',
    content,
    toolCalls,
    stopReason: toolCalls.length ? 'tool_calls' : 'stop',
    ...(reasoning !== undefined ? { reasoning } : {}),
  };
}

/** The events the loop emits for one tool call finishing (see src/agent/tool-dispatch.ts). */
function toolEnd(toolCall: ToolCall, content: string, options: { isError?: boolean; display?: ToolDisplay; durationMs?: number } = {}): SessionEvent {
  const result: ToolResult = { content, ...(options.display ? { display: options.display } : {}), ...(options.isError ? { isError: true } : {}) };
  return {
    type: 'tool_end',
    turn: 1,
    toolCall,
    result,
    durationMs: options.durationMs ?? 42,
    message: { role: 'tool', toolCallId: toolCall.id, toolName: toolCall.name, content, isError: options.isError === true },
  };
}

function toolStart(toolCall: ToolCall, summary?: string): SessionEvent {
  return {
    type: 'tool_start',
    turn: 1,
    toolCall,
    args: JSON.parse(toolCall.arguments) as unknown,
    ...(summary ? { action: { kind: 'bash', paths: ['/p'], summary } } : {}),
  };
}

function reduceAll(events: SessionEvent[], state: ConversationState = initialConversation()): ConversationState {
  return events.reduce(reduceConversation, state);
}

/** Applies events one by one and returns every intermediate state (index i = after events[i]). */
function trace(events: SessionEvent[], state: ConversationState = initialConversation()): ConversationState[] {
  const states: ConversationState[] = [];
  let current = state;
  for (const event of events) {
    current = reduceConversation(current, event);
    states.push(current);
  }
  return states;
}

const kinds = (items: readonly ConversationItem[]): string[] => items.map((item) => item.kind);
const all = (state: ConversationState): ConversationItem[] => [...state.committed, ...state.live];

function only<K extends ConversationItem['kind']>(items: readonly ConversationItem[], kind: K): Item<K>[] {
  return items.filter((item): item is Item<K> => item.kind === kind);
}

const userMessage = (content: string): SessionEvent => ({ type: 'message', message: { role: 'user', content } });

describe('reduceConversation: a streamed answer', () => {
  const answer = assistant('Hello there, world.', [], 'think, then answer');
  const events: SessionEvent[] = [
    userMessage('say hello'),
    { type: 'turn_start', turn: 1 },
    { type: 'reasoning_delta', turn: 1, text: 'think, ' },
    { type: 'reasoning_delta', turn: 1, text: 'then answer' },
    { type: 'text_delta', turn: 1, text: 'Hello' },
    { type: 'text_delta', turn: 1, text: ' there,' },
    { type: 'text_delta', turn: 1, text: ' world.' },
    { type: 'message', message: answer },
    { type: 'usage', turn: 1, usage: USAGE, costUsd: 0.001, model: 'deepseek-chat' },
    { type: 'turn_end', turn: 1, message: answer },
    { type: 'loop_end', reason: 'completed', turns: 1, finalText: answer.content },
  ];
  const states = trace(events);

  it('commits the user message at once and marks the run as running', () => {
    const first = states[0]!;
    expect(first.running).toBe(true);
    expect(first.committed).toEqual([{ kind: 'user', id: 'i1', text: 'say hello' }]);
    expect(first.live).toEqual([]);
  });

  it('accumulates text deltas and reasoning deltas separately in one live assistant item', () => {
    const afterDeltas = states[6]!;
    expect(afterDeltas.live).toHaveLength(1);
    const item = afterDeltas.live[0] as Item<'assistant'>;
    expect(item).toMatchObject({ kind: 'assistant', turn: 1, text: 'Hello there, world.', reasoning: 'think, then answer', streaming: true });
    // Intermediate states saw the text grow, never the reasoning mixed into it.
    expect((states[4]!.live[0] as Item<'assistant'>).text).toBe('Hello');
    expect((states[3]!.live[0] as Item<'assistant'>).text).toBe('');
    expect((states[3]!.live[0] as Item<'assistant'>).reasoning).toBe('think, then answer');
  });

  it('keeps the assistant item live until turn_end, then commits it finished', () => {
    for (const state of states.slice(1, 9)) {
      expect(kinds(state.committed)).toEqual(['user']);
      expect(kinds(state.live)).toEqual(['assistant']);
    }
    const ended = states[9]!;
    expect(ended.live).toEqual([]);
    expect(kinds(ended.committed)).toEqual(['user', 'assistant']);
    expect(ended.committed[1]).toMatchObject({ text: 'Hello there, world.', reasoning: 'think, then answer', streaming: false });
    expect(ended.running).toBe(true);
  });

  it('takes the usage as the context fill and ends the run without a notice', () => {
    expect(states[8]!.contextTokens).toBe(12_800);
    const last = states[10]!;
    expect(last.running).toBe(false);
    expect(kinds(all(last))).toEqual(['user', 'assistant']);
  });

  it('replaces items instead of mutating them', () => {
    const before = states[5]!;
    const snapshot = JSON.stringify(before);
    reduceConversation(before, { type: 'text_delta', turn: 1, text: ' more' });
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  it('ignores events it has nothing to show for', () => {
    const state = states[5]!;
    expect(reduceConversation(state, { type: 'toolcall_delta', turn: 1, index: 0, argumentsDelta: '{"pa' })).toBe(state);
    expect(
      reduceConversation(state, { type: 'session_start', sessionId: 's', model: 'm', provider: 'p', cwd: '/', resumed: false }),
    ).toBe(state);
  });
});

describe('reduceConversation: tool calls', () => {
  const slow = call('call_a', 'bash', { command: 'npm test' });
  const fast = call('call_b', 'read_file', { path: 'src/a.ts' });
  const turn = assistant('Running both.', [slow, fast]);
  const events: SessionEvent[] = [
    userMessage('test and read'),
    { type: 'turn_start', turn: 1 },
    { type: 'text_delta', turn: 1, text: 'Running both.' },
    { type: 'message', message: turn },
    { type: 'turn_end', turn: 1, message: turn },
    toolStart(slow, 'bash: npm test'),
    toolStart(fast),
    toolEnd(fast, 'export const a = 1;\n', { display: { kind: 'file', path: 'src/a.ts', lines: 1, truncated: false }, durationMs: 3 }),
    toolEnd(slow, 'all tests passed', { durationMs: 2_100 }),
  ];
  const states = trace(events);

  it('shows running tools live with their summary (the action, else the key argument)', () => {
    const state = states[6]!;
    expect(kinds(state.committed)).toEqual(['user', 'assistant']);
    expect(state.live).toEqual([
      { kind: 'tool', id: 'call_a', name: 'bash', summary: 'bash: npm test', status: 'running' },
      { kind: 'tool', id: 'call_b', name: 'read_file', summary: 'src/a.ts', status: 'running' },
    ]);
  });

  it('does not commit a finished tool that sits behind a running one', () => {
    const state = states[7]!;
    expect(kinds(state.committed)).toEqual(['user', 'assistant']);
    expect(state.live.map((item) => item.kind === 'tool' && item.status)).toEqual(['running', 'done']);
    const fastItem = state.live[1] as Item<'tool'>;
    expect(fastItem).toMatchObject({ durationMs: 3, output: 'export const a = 1;\n', display: { kind: 'file', lines: 1 } });
  });

  it('commits both, in call order, once the running one finishes', () => {
    const state = states[8]!;
    expect(state.live).toEqual([]);
    const tools = only(state.committed, 'tool');
    expect(tools.map((item) => [item.id, item.status, item.durationMs])).toEqual([
      ['call_a', 'done', 2_100],
      ['call_b', 'done', 3],
    ]);
    expect(tools[0]!.output).toBe('all tests passed');
    expect(tools[0]!.display).toBeUndefined();
  });

  it('keeps only the tail of streamed partial output and drops it when the call ends', () => {
    const bash = call('call_c', 'bash', { command: 'yes | head -n 5000' });
    let state = reduceAll([toolStart(bash)]);
    state = reduceConversation(state, { type: 'tool_update', turn: 1, toolCallId: 'call_c', partial: 'first\n' });
    state = reduceConversation(state, { type: 'tool_update', turn: 1, toolCallId: 'call_c', partial: 'second\n' });
    expect((state.live[0] as Item<'tool'>).partial).toBe('first\nsecond\n');

    const chunk = `${'x'.repeat(3_000)}\n`;
    state = reduceConversation(state, { type: 'tool_update', turn: 1, toolCallId: 'call_c', partial: chunk });
    state = reduceConversation(state, { type: 'tool_update', turn: 1, toolCallId: 'call_c', partial: `${'y'.repeat(2_000)}END` });
    const partial = (state.live[0] as Item<'tool'>).partial ?? '';
    expect(partial).toHaveLength(4_000);
    expect(partial.endsWith('yyyEND')).toBe(true);
    expect(partial).not.toContain('first');

    // An update for an unknown call changes nothing visible.
    const same = reduceConversation(state, { type: 'tool_update', turn: 1, toolCallId: 'nope', partial: 'zzz' });
    expect(same.live).toEqual(state.live);

    state = reduceConversation(state, toolEnd(bash, 'y\ny\n'));
    const finished = state.committed[0] as Item<'tool'>;
    expect(finished.status).toBe('done');
    expect(finished.partial).toBeUndefined();
  });

  it('marks refused calls denied and other failures error', () => {
    const cases: Array<[string, 'denied' | 'error']> = [
      ['The user declined: write src/a.ts. Do not retry it unchanged; ask the user what they want instead.', 'denied'],
      ['[denied by pre_tool hook "guard"] no writes on Fridays', 'denied'],
      ['write src/a.ts is not allowed in this mode: run with --yolo to allow it', 'denied'],
      ['Not run: the user declined an earlier call of this turn and stopped it, to say what to do instead.', 'denied'],
      ['bash failed: spawn ENOENT', 'error'],
      ['Cannot write src: EACCES', 'error'],
      ['Interrupted: the user cancelled before this call ran.', 'error'],
    ];
    for (const [content, status] of cases) {
      const toolCall = call('call_x', 'write_file', { path: 'src/a.ts', content: '' });
      const state = reduceAll([toolStart(toolCall), toolEnd(toolCall, content, { isError: true })]);
      const item = state.committed[0] as Item<'tool'>;
      expect([content, item.status]).toEqual([content, status]);
      expect(item.output).toBe(content);
    }
    // The same text is no denial when the tool succeeded.
    const ok = call('call_y', 'read_file', { path: 'notes.md' });
    const state = reduceAll([toolStart(ok), toolEnd(ok, 'The user declined nothing here')]);
    expect((state.committed[0] as Item<'tool'>).status).toBe('done');
  });

  it('leaves no assistant item for a tool-call-only turn', () => {
    const grep = call('call_g', 'grep', { pattern: 'TODO', path: 'src' });
    const turn = assistant('', [grep]);
    const state = reduceAll([
      userMessage('find todos'),
      { type: 'turn_start', turn: 1 },
      { type: 'toolcall_delta', turn: 1, index: 0, id: 'call_g', name: 'grep', argumentsDelta: '' },
      { type: 'message', message: turn },
      { type: 'turn_end', turn: 1, message: turn },
      toolStart(grep),
    ]);
    expect(kinds(state.committed)).toEqual(['user']);
    expect(state.live).toEqual([{ kind: 'tool', id: 'call_g', name: 'grep', summary: 'TODO in src', status: 'running' }]);
  });

  it('keeps a turn that only reasoned before its tool call', () => {
    const turn = assistant('', [call('c', 'glob', { pattern: '*.ts' })], 'look for files');
    const state = reduceAll([
      { type: 'turn_start', turn: 1 },
      { type: 'reasoning_delta', turn: 1, text: 'look for files' },
      { type: 'message', message: turn },
      { type: 'turn_end', turn: 1, message: turn },
    ]);
    expect(state.committed).toEqual([{ kind: 'assistant', id: 'i1', turn: 1, text: '', reasoning: 'look for files', streaming: false }]);
  });
});

describe('reduceConversation: retries, errors, cancellation', () => {
  it('a retry voids the partial text and reports the attempt until text flows again', () => {
    let state = reduceAll([
      userMessage('hi'),
      { type: 'turn_start', turn: 1 },
      { type: 'reasoning_delta', turn: 1, text: 'half a thought' },
      { type: 'text_delta', turn: 1, text: 'Half an ans' },
      {
        type: 'retry',
        turn: 1,
        attempt: 2,
        maxAttempts: 4,
        delayMs: 1_000,
        error: { kind: 'stream_cut', message: 'the stream ended early', retryable: true },
      },
    ]);
    expect(state.retry).toEqual({ attempt: 2, maxAttempts: 4, message: 'the stream ended early' });
    expect(state.live[0]).toMatchObject({ kind: 'assistant', text: '', reasoning: '', streaming: true });

    state = reduceConversation(state, { type: 'text_delta', turn: 1, text: 'A whole answer.' });
    expect(state.retry).toBeUndefined();
    expect(state.live[0]).toMatchObject({ text: 'A whole answer.' });
  });

  it('a retry before any turn item still sets retry, and turn_start clears it', () => {
    let state = reduceConversation(initialConversation(), {
      type: 'retry',
      turn: 1,
      attempt: 1,
      maxAttempts: 3,
      delayMs: 10,
      error: { kind: 'rate_limit', message: 'HTTP 429', retryable: true },
    });
    expect(state.retry?.message).toBe('HTTP 429');
    state = reduceConversation(state, { type: 'turn_start', turn: 2 });
    expect(state.retry).toBeUndefined();
  });

  it('loop_end aborted while a turn streams finishes the text and adds one "cancelled" notice', () => {
    let state = reduceAll([
      userMessage('explain'),
      { type: 'turn_start', turn: 1 },
      { type: 'reasoning_delta', turn: 1, text: 'hmm' },
      { type: 'text_delta', turn: 1, text: 'Partial ans' },
    ]);
    expect(state.running).toBe(true);
    expect(kinds(state.live)).toEqual(['assistant']);

    state = reduceConversation(state, { type: 'loop_end', reason: 'aborted', turns: 1, finalText: '', errorMessage: 'cancelled by the user' });
    expect(state.running).toBe(false);
    expect(state.live).toEqual([]);
    expect(kinds(state.committed)).toEqual(['user', 'assistant', 'notice']);
    expect(state.committed[1]).toMatchObject({ kind: 'assistant', text: 'Partial ans', reasoning: 'hmm', streaming: false });
    expect(state.committed[2]).toMatchObject({ kind: 'notice', level: 'warn', text: 'cancelled' });
  });

  it('loop_end aborted while tools run marks the running ones error and commits everything', () => {
    const bash = call('call_b', 'bash', { command: 'sleep 100' });
    const read = call('call_r', 'read_file', { path: 'a.ts' });
    const turn = assistant('Let me wait.', [bash, read]);
    let state = reduceAll([
      userMessage('wait'),
      { type: 'turn_start', turn: 1 },
      { type: 'text_delta', turn: 1, text: 'Let me wait.' },
      { type: 'message', message: turn },
      { type: 'turn_end', turn: 1, message: turn },
      toolStart(bash),
      toolStart(read),
      toolEnd(read, 'const a = 1;'),
      { type: 'tool_update', turn: 1, toolCallId: 'call_b', partial: 'waiting' },
      {
        type: 'retry',
        turn: 1,
        attempt: 1,
        maxAttempts: 3,
        delayMs: 10,
        error: { kind: 'server', message: 'HTTP 503', retryable: true },
      },
    ]);
    expect(kinds(state.live)).toEqual(['tool', 'tool']);

    state = reduceConversation(state, { type: 'loop_end', reason: 'aborted', turns: 1, finalText: '', errorMessage: 'cancelled by the user' });
    expect(state.running).toBe(false);
    expect(state.retry).toBeUndefined();
    expect(state.live).toEqual([]);
    expect(kinds(state.committed)).toEqual(['user', 'assistant', 'tool', 'tool', 'notice']);
    expect(state.committed[2]).toMatchObject({ kind: 'tool', id: 'call_b', status: 'error', output: 'interrupted' });
    expect(state.committed[3]).toMatchObject({ kind: 'tool', id: 'call_r', status: 'done', output: 'const a = 1;' });
    expect(only(state.committed, 'notice').map((item) => item.text)).toEqual(['cancelled']);
  });

  it('an error ending shows the error message once', () => {
    const state = reduceAll([
      userMessage('hi'),
      { type: 'turn_start', turn: 1 },
      { type: 'error', turn: 1, error: { kind: 'auth', message: 'DeepSeek API returned HTTP 401', retryable: false } },
      { type: 'loop_end', reason: 'error', turns: 1, finalText: '', errorMessage: 'DeepSeek API returned HTTP 401' },
    ]);
    const notices = only(all(state), 'notice');
    expect(notices.map((item) => [item.level, item.text])).toEqual([['error', 'DeepSeek API returned HTTP 401']]);
    // The failed turn produced no text: whatever is left of it is finished and has nothing to show.
    expect(only(all(state), 'assistant').every((item) => !item.streaming && item.text === '' && item.reasoning === '')).toBe(true);
    expect(state.running).toBe(false);
    expect(state.live).toEqual([]);
  });

  it('other endings (max_turns) explain themselves with the loop message', () => {
    const state = reduceAll([
      userMessage('go'),
      { type: 'loop_end', reason: 'max_turns', turns: 5, finalText: '', errorMessage: 'stopped after 5 turns' },
    ]);
    expect(state.committed[1]).toMatchObject({ kind: 'notice', level: 'error', text: 'stopped after 5 turns' });
  });

  it('session notices and addNotice append committed notices with fresh ids', () => {
    let state = reduceConversation(initialConversation(), { type: 'notice', level: 'warn', text: 'AGENTS.md is large' });
    state = addNotice(state, 'info', 'model set to deepseek-reasoner');
    state = reduceConversation(state, userMessage('next'));
    expect(state.committed.map((item) => item.id)).toEqual(['i1', 'i2', 'i3']);
    expect(state.committed.slice(0, 2)).toEqual([
      { kind: 'notice', id: 'i1', level: 'warn', text: 'AGENTS.md is large' },
      { kind: 'notice', id: 'i2', level: 'info', text: 'model set to deepseek-reasoner' },
    ]);
  });
});

describe('reduceConversation: context', () => {
  it('usage sets contextTokens from the latest response', () => {
    let state = reduceConversation(initialConversation(), { type: 'usage', turn: 1, usage: USAGE, costUsd: 0, model: 'm' });
    expect(state.contextTokens).toBe(12_800);
    state = reduceConversation(state, {
      type: 'usage',
      turn: 2,
      usage: { inputTokens: 20_000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      model: 'm',
    });
    expect(state.contextTokens).toBe(20_100);
  });

  it('a compaction adds a compaction item, counts it and resets the context fill', () => {
    let state = reduceAll([userMessage('long task'), { type: 'usage', turn: 1, usage: USAGE, costUsd: 0, model: 'm' }]);
    state = reduceConversation(state, { type: 'compaction', turn: 2, reason: 'auto', summary: 'We fixed the parser.', replacedMessages: 37 });
    expect(state.compactions).toBe(1);
    expect(state.contextTokens).toBe(0);
    expect(state.committed[1]).toEqual({ kind: 'compaction', id: 'i2', reason: 'auto', replacedMessages: 37, summary: 'We fixed the parser.' });
    state = reduceConversation(state, { type: 'compaction', turn: 0, reason: 'manual', summary: 's', replacedMessages: 3 });
    expect(state.compactions).toBe(2);
  });

  it('strips the plan-mode reminder from user text', () => {
    const content =
      'plan the refactor\n\n<system-reminder>Plan mode: read-only. Investigate with read-only tools and propose a plan; do not modify files or run mutating commands.</system-reminder>';
    const state = reduceConversation(initialConversation(), userMessage(content));
    expect(state.committed[0]).toMatchObject({ kind: 'user', text: 'plan the refactor' });
    // Text that merely mentions the tag inline is kept.
    const inline = reduceConversation(initialConversation(), userMessage('what is <system-reminder>?'));
    expect(inline.committed[0]).toMatchObject({ text: 'what is <system-reminder>?' });
  });
});

describe('itemsFromHistory', () => {
  const read = call('r1', 'read_file', { path: 'src/a.ts' });
  const write = call('w1', 'write_file', { path: 'src/b.ts', content: 'x' });
  const bash = call('b1', 'bash', { command: 'rm -rf build' });
  const failed = call('h1', 'bash', { command: 'git push' });
  const lost = call('l1', 'grep', { pattern: 'foo' });
  const history: Message[] = [
    {
      role: 'user',
      content: 'fix it\n\n<system-reminder>Plan mode: read-only.</system-reminder>',
    },
    assistant('', [read], 'read first'),
    { role: 'tool', toolCallId: 'r1', toolName: 'read_file', content: 'export const a = 1;', isError: false },
    assistant('Writing the fix.', [write, bash, failed, lost]),
    // Results arrive in any order; they are matched by id.
    { role: 'tool', toolCallId: 'b1', toolName: 'bash', content: 'bash: rm -rf build is not allowed in this mode: use --yolo', isError: true },
    { role: 'tool', toolCallId: 'w1', toolName: 'write_file', content: 'The user declined: create src/b.ts.', isError: true },
    { role: 'tool', toolCallId: 'h1', toolName: 'bash', content: 'git push failed: exit 1', isError: true },
    assistant('   '),
    assistant('Done.'),
  ];
  const items = itemsFromHistory(history);

  it('rebuilds finished items in order, skipping empty assistant text', () => {
    expect(items.map((item) => `${item.kind}:${item.id}`)).toEqual([
      'user:h0',
      'assistant:h1',
      'tool:r1',
      'assistant:h2',
      'tool:w1',
      'tool:b1',
      'tool:h1',
      'tool:l1',
      'assistant:h3',
    ]);
    expect(items[0]).toEqual({ kind: 'user', id: 'h0', text: 'fix it' });
    expect(items[1]).toEqual({ kind: 'assistant', id: 'h1', turn: 0, text: '', reasoning: 'read first', streaming: false });
    expect(items.every((item) => item.kind !== 'assistant' || !item.streaming)).toBe(true);
  });

  it('matches tool results to calls and derives their status', () => {
    const tools = only(items, 'tool');
    expect(tools.map((item) => [item.id, item.summary, item.status])).toEqual([
      ['r1', 'src/a.ts', 'done'],
      ['w1', 'src/b.ts', 'denied'],
      ['b1', 'rm -rf build', 'denied'],
      ['h1', 'git push', 'error'],
      ['l1', 'foo', 'error'],
    ]);
    expect(tools[0]!.output).toBe('export const a = 1;');
    expect(tools[4]).not.toHaveProperty('output'); // no result was ever recorded
  });
});

describe('keyArgument', () => {
  it('picks the argument that says what each tool is about', () => {
    expect(keyArgument('bash', { command: 'npm test -- --run', timeout: 10 })).toBe('npm test -- --run');
    expect(keyArgument('grep', { pattern: 'TODO', path: 'src' })).toBe('TODO in src');
    expect(keyArgument('grep', { pattern: 'TODO' })).toBe('TODO');
    expect(keyArgument('glob', { pattern: '**/*.ts', path: 'test' })).toBe('**/*.ts in test');
    expect(keyArgument('git', { subcommand: 'log', args: ['--oneline', '-n', 5] })).toBe('log --oneline -n 5');
    expect(keyArgument('git', { subcommand: 'status' })).toBe('status');
    expect(keyArgument('read_file', { path: 'src/index.ts', offset: 10 })).toBe('src/index.ts');
    expect(keyArgument('agent', { description: 'review the diff', prompt: 'long…' })).toBe('review the diff');
    expect(keyArgument('web_search', { query: 'ink testing' })).toBe('ink testing');
    expect(keyArgument('some_new_tool', { name: 'x', path: 'p' })).toBe('p');
    expect(keyArgument('some_new_tool', { count: 3 })).toBe('');
  });

  it('parses raw JSON argument strings', () => {
    expect(keyArgument('bash', '{"command":"ls -la"}')).toBe('ls -la');
    expect(keyArgument('grep', '{"pattern":"foo","path":"lib"}')).toBe('foo in lib');
    expect(keyArgument('read_file', JSON.stringify({ path: 'README.md' }))).toBe('README.md');
  });

  it('falls back to the raw text for malformed or non-object JSON', () => {
    expect(keyArgument('bash', '{"command": "ls -la"')).toBe('{"command": "ls -la"');
    expect(keyArgument('read_file', '"just a string"')).toBe('"just a string"');
    expect(keyArgument('read_file', null)).toBe('');
    expect(keyArgument('read_file', undefined)).toBe('');
  });

  it('keeps the result on one line and caps it at 200 columns', () => {
    expect(keyArgument('bash', { command: 'cd src\n  && npm test' })).toBe('cd src ⏎ && npm test');
    // A trailing newline (common at the end of a heredoc) is no extra line.
    expect(keyArgument('bash', { command: '  npm test\n' })).toBe('npm test');
    expect(keyArgument('bash', { command: 'cat <<EOF\nhi\nEOF\n' })).toBe('cat <<EOF ⏎ hi ⏎ EOF');
    const long = keyArgument('bash', { command: `echo ${'a'.repeat(300)}` });
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('streaming answers commit their completed blocks early', () => {
  const start = (): ConversationState => {
    let state = initialConversation();
    state = reduceConversation(state, { type: 'message', message: { role: 'user', content: 'go' } });
    return reduceConversation(state, { type: 'turn_start', turn: 1 });
  };
  const delta = (state: ConversationState, text: string) => reduceConversation(state, { type: 'text_delta', turn: 1, text });
  const answerText = (state: ConversationState) =>
    [...state.committed, ...state.live].filter((item) => item.kind === 'assistant').map((item) => (item.kind === 'assistant' ? item.text : ''));

  it('moves finished paragraphs to committed and keeps only the last block live', () => {
    let state = start();
    state = delta(state, '# Title\n\nFirst para');
    state = delta(state, 'graph.\n\nSecond');
    expect(answerText(state)).toEqual(['# Title', 'First paragraph.', 'Second']);
    expect(state.live).toHaveLength(1);
    expect(state.live[0]).toMatchObject({ kind: 'assistant', text: 'Second', continued: true, streaming: true });
  });

  it('never splits inside a code fence', () => {
    let state = start();
    state = delta(state, 'Code:\n\n```ts\nconst a = 1;\n\nconst b = 2;\n');
    expect(answerText(state)).toEqual(['Code:', '```ts\nconst a = 1;\n\nconst b = 2;\n']);
    state = delta(state, '```\n\nAfter.');
    expect(answerText(state)).toEqual(['Code:', '```ts\nconst a = 1;\n\nconst b = 2;\n```', 'After.']);
  });

  it('takes the final message as authoritative for the live part only', () => {
    let state = start();
    state = delta(state, 'One.\n\nTwo');
    state = reduceConversation(state, {
      type: 'message',
      message: { role: 'assistant', content: 'One.\n\nTwo, finished.', toolCalls: [], stopReason: 'stop' },
    });
    state = reduceConversation(state, { type: 'turn_end', turn: 1, message: { role: 'assistant', content: 'One.\n\nTwo, finished.', toolCalls: [], stopReason: 'stop' } });
    expect(answerText(state)).toEqual(['One.', 'Two, finished.']);
    expect(state.live).toEqual([]);
  });
});

describe('injected context', () => {
  it('memory and worktree context messages never show as user bubbles, live or from history', () => {
    const context: Message[] = [
      { role: 'user', content: '<context source="memory.index">\nProject memory index …\n- a: b\n</context>' },
      { role: 'user', content: '<context source="worktree">The worktree … no longer exists.</context>' },
    ];
    let state = initialConversation();
    for (const message of [...context, { role: 'user', content: 'hello' } as Message]) state = reduceConversation(state, { type: 'message', message });
    const shown = [...state.committed, ...state.live].filter((item) => item.kind === 'user');
    expect(shown.map((item) => (item as Item<'user'>).text)).toEqual(['hello']);
    expect(itemsFromHistory([...context, { role: 'user', content: 'hello' }]).map((item) => item.kind)).toEqual(['user']);
  });
});
