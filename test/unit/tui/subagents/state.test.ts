import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../src/runtime/events.js';
import { reduceConversation, initialConversation } from '../../../../src/tui/state/conversation.js';
import {
  childrenOfCall,
  initialSubagents,
  newestFirst,
  reduceSubagents,
  runningCount,
  TRANSCRIPT_LINES,
} from '../../../../src/tui/state/subagents.js';
import { end, fold, start, SUB_A, SUB_B, text, toolEnd, toolStart, turn, usage, wrap } from './events.js';

describe('subagents state', () => {
  it('adds a running child on subagent_start with what the event says', () => {
    const state = fold([start(SUB_A, { transcriptPath: '/t/a.jsonl' })], 500);
    expect(state.children).toHaveLength(1);
    expect(state.children[0]).toMatchObject({
      subSid: SUB_A,
      parentCallId: 'call-agent-1',
      depth: 1,
      type: 'explore',
      description: 'find the parser',
      model: 'deepseek-v4-flash',
      status: 'running',
      turns: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      startedAt: 500,
      transcriptPath: '/t/a.jsonl',
    });
    expect(runningCount(state)).toBe(1);
  });

  it('counts turns and sums usage of the wrapped events', () => {
    const state = fold([start(SUB_A), turn(SUB_A, 1), usage(SUB_A, 1000, 50, 0.001), turn(SUB_A, 2), usage(SUB_A, 2000, 70, 0.002)]);
    expect(state.children[0]).toMatchObject({ turns: 2, inputTokens: 3000, outputTokens: 120 });
    expect(state.children[0]!.costUsd).toBeCloseTo(0.003);
  });

  it('tracks the current tool with its key argument and clears it on its end', () => {
    let state = fold([start(SUB_A), turn(SUB_A, 1), toolStart(SUB_A, 't1', 'grep', { pattern: 'TODO', path: 'src' })]);
    expect(state.children[0]!.currentTool).toMatchObject({ name: 'grep', summary: 'TODO in src' });
    // A parallel call: the latest is current; when it ends the other one is again.
    state = reduceSubagents(state, toolStart(SUB_A, 't2', 'read', { path: 'src/a.ts' }), 2);
    expect(state.children[0]!.currentTool).toMatchObject({ name: 'read', summary: 'src/a.ts' });
    state = reduceSubagents(state, toolEnd(SUB_A, 't2', 'read'), 3);
    expect(state.children[0]!.currentTool).toMatchObject({ name: 'grep' });
    state = reduceSubagents(state, toolEnd(SUB_A, 't1', 'grep'), 4);
    expect(state.children[0]!.currentTool).toBeUndefined();
  });

  it('keeps a live transcript of text, tool calls and errors', () => {
    const state = fold([
      start(SUB_A),
      turn(SUB_A, 1),
      text(SUB_A, 'Looking for '),
      text(SUB_A, 'the parser.\nFirst a search'),
      toolStart(SUB_A, 't1', 'grep', { pattern: 'parse' }),
      toolEnd(SUB_A, 't1', 'grep'),
      toolStart(SUB_A, 't2', 'bash', { command: 'npm test' }),
      toolEnd(SUB_A, 't2', 'bash', 'exit 1\nmore', true),
      wrap(SUB_A, { type: 'error', turn: 1, error: { kind: 'server', message: 'HTTP 500' } }),
    ]);
    expect(state.children[0]!.transcript.map((line) => [line.kind, line.text, line.status])).toEqual([
      ['text', 'Looking for the parser.', undefined],
      ['text', 'First a search', undefined],
      ['tool', 'grep parse', 'done'],
      ['tool', 'bash npm test — exit 1', 'error'],
      ['error', 'HTTP 500', undefined],
    ]);
  });

  it('bounds the transcript to the last lines', () => {
    const many = Array.from({ length: TRANSCRIPT_LINES + 50 }, (_, index) => text(SUB_A, `line ${index}\n`));
    const transcript = fold([start(SUB_A), ...many, turn(SUB_A, 2)]).children[0]!.transcript;
    // The cap counted the empty line the last newline opened; closing the text dropped it.
    expect(transcript).toHaveLength(TRANSCRIPT_LINES - 1);
    expect(transcript[0]!.text).toBe('line 51');
    expect(transcript[transcript.length - 1]!.text).toBe(`line ${TRANSCRIPT_LINES + 49}`);
  });

  it('takes the outcome as final on subagent_end and ignores later wrapped events', () => {
    const state = fold(
      [
        start(SUB_A),
        turn(SUB_A, 1),
        toolStart(SUB_A, 't1', 'read', { path: 'a' }),
        usage(SUB_A, 10, 1, 0.5),
        end(SUB_A, { status: 'failed', reason: 'timeout', turns: 4, transcriptPath: '/t/a.jsonl' }),
        turn(SUB_A, 2),
      ],
      9_000,
    );
    expect(state.children[0]).toMatchObject({ status: 'failed', reason: 'timeout', turns: 4, inputTokens: 12_000, outputTokens: 345, costUsd: 0.0123, endedAt: 9_000, transcriptPath: '/t/a.jsonl' });
    expect(state.children[0]!.currentTool).toBeUndefined();
    expect(state.children[0]!.transcript.at(-1)).toEqual({ kind: 'error', text: 'failed (timeout) · 4 turns' });
    expect(state.lastEndedAt).toBe(9_000);
    expect(runningCount(state)).toBe(0);
  });

  it('keeps children apart, attaches them to their call, lists newest first', () => {
    const state = fold([
      start(SUB_A),
      start(SUB_B, { parentCallId: 'call-agent-2', agentType: 'plan' }),
      start('20261122-101700-999999', { parentCallId: 'call-agent-1', parentSubSid: SUB_A, depth: 2 }),
      turn(SUB_B, 1),
      usage(SUB_B, 100, 10, 0.01),
    ]);
    expect(state.children[0]).toMatchObject({ turns: 0, inputTokens: 0 });
    expect(state.children[1]).toMatchObject({ turns: 1, inputTokens: 100 });
    // The nested child's call id belongs to SUB_A's history: not the session's row.
    expect(childrenOfCall(state, 'call-agent-1').map((child) => child.subSid)).toEqual([SUB_A]);
    expect(childrenOfCall(state, 'call-agent-2').map((child) => child.subSid)).toEqual([SUB_B]);
    expect(newestFirst(state).map((child) => child.subSid)).toEqual(['20261122-101700-999999', SUB_B, SUB_A]);
    expect(runningCount(state)).toBe(3);
  });

  it('returns the same state for other events and for unknown children', () => {
    const state = fold([start(SUB_A)]);
    expect(reduceSubagents(state, { type: 'turn_start', turn: 1 }, 1)).toBe(state);
    expect(reduceSubagents(state, turn(SUB_B, 1), 1)).toBe(state);
    expect(reduceSubagents(state, end(SUB_B), 1)).toBe(state);
    expect(reduceSubagents(initialSubagents(), { type: 'notice', level: 'info', text: 'x' }, 1)).toEqual(initialSubagents());
  });

  it('leaves the parent conversation untouched by a child\'s events', () => {
    const events: SessionEvent[] = [start(SUB_A), turn(SUB_A, 1), text(SUB_A, 'child text'), usage(SUB_A, 999, 9, 1), end(SUB_A)];
    const before = initialConversation();
    expect(events.reduce(reduceConversation, before)).toBe(before);
  });
});
