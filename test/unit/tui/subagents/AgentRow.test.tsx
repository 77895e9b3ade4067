import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { completedResult, failedResult } from '../../../../src/subagents/result-format.js';
import { ConversationItemView, type ToolItem } from '../../../../src/tui/components/conversation/index.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { childrenOfCall, type SubagentsState } from '../../../../src/tui/state/subagents.js';
import type { ItemViewOptions } from '../../../../src/tui/types.js';
import { frameAtWidth, widestLine } from '../conversation/ink-at-width.js';
import { end, fold, start, SUB_A, SUB_B, toolStart, turn, usage } from './events.js';

const OPTIONS: ItemViewOptions = { width: 80, detail: false, color: false };

function agentRow(overrides: Partial<ToolItem>): ToolItem {
  return { kind: 'tool', id: 'call-agent-1', name: 'agent', summary: 'find the parser', status: 'running', ...overrides };
}

function lines(item: ToolItem, state: SubagentsState, options: ItemViewOptions = OPTIONS): string[] {
  const view = render(<ConversationItemView item={item} options={options} agents={childrenOfCall(state, item.id)} />);
  const frame = stripAnsi(view.lastFrame() ?? '');
  view.unmount();
  return frame.split('\n');
}

const DONE = completedResult({ summary: 'Parser is in src/parse.ts\n\nDetails…', subSid: SUB_A, turns: 3, tokens: 12_345 });

describe('agent tool row', () => {
  it('shows what a running child does: type, turn, current tool and its key argument', () => {
    const state = fold([start(SUB_A), turn(SUB_A, 1), turn(SUB_A, 2), toolStart(SUB_A, 't1', 'grep', { pattern: 'parse', path: 'src' })]);
    expect(lines(agentRow({}), state)).toEqual(['⋯ agent find the parser', '  ⤷ a1b2c3 explore · turn 2 · grep parse in src']);
  });

  it('says thinking… between tools, starting… before the first turn', () => {
    expect(lines(agentRow({}), fold([start(SUB_A), turn(SUB_A, 1)]))[1]).toBe('  ⤷ a1b2c3 explore · turn 1 · thinking…');
    expect(lines(agentRow({}), fold([start(SUB_A)]))[1]).toBe('  ⤷ a1b2c3 explore · starting…');
  });

  it('updates the live row as the child moves on (memo follows the child)', () => {
    const item = agentRow({});
    const first = fold([start(SUB_A), turn(SUB_A, 1)]);
    const view = render(<ConversationItemView item={item} options={OPTIONS} agents={childrenOfCall(first, item.id)} />);
    const later = fold([start(SUB_A), turn(SUB_A, 1), toolStart(SUB_A, 't1', 'read', { path: 'src/parse.ts' })]);
    view.rerender(<ConversationItemView item={item} options={OPTIONS} agents={childrenOfCall(later, item.id)} />);
    expect(stripAnsi(view.lastFrame() ?? '').split('\n')[1]).toBe('  ⤷ a1b2c3 explore · turn 1 · read src/parse.ts');
    view.unmount();
  });

  it('shows a finished child: status, turns, tokens and cost', () => {
    const state = fold([start(SUB_A), turn(SUB_A, 1), usage(SUB_A, 5, 5, 0.1), end(SUB_A)]);
    const done = agentRow({ status: 'done', durationMs: 12_300, output: DONE });
    expect(lines(done, state)).toEqual(['✓ agent find the parser  12.3s', '  └ completed · 3 turns · 12k tokens · $0.0123']);
  });

  it('shows a failed child with its reason', () => {
    const state = fold([start(SUB_A), end(SUB_A, { status: 'failed', reason: 'timeout', turns: 7, costUsd: 0.2 })]);
    const failed = agentRow({ status: 'error', durationMs: 600_000, output: failedResult('timeout', 'ran out of time', SUB_A) });
    expect(lines(failed, state)[1]).toBe('  └ failed reason=timeout · 7 turns · 12k tokens · $0.2000');
  });

  it('reads turns and tokens from the result footer when the child is unknown (a resumed session)', () => {
    expect(lines(agentRow({ status: 'done', output: DONE }), fold([]))[1]).toBe('  └ completed · 3 turns · 12k tokens');
    const killed = agentRow({ status: 'error', output: failedResult('killed', 'stopped by the user', SUB_A) });
    expect(lines(killed, fold([]))[1]).toBe('  └ failed reason=killed');
  });

  it('keeps the generic hint for a denied call', () => {
    const denied = agentRow({ status: 'denied', output: '[denied] not allowed' });
    expect(lines(denied, fold([]))[1]).toBe('  └ [denied] not allowed');
  });

  it('fits 80 columns with a long description and a long current tool', () => {
    const long = 'x'.repeat(200);
    const state = fold([start(SUB_A, { agentType: 'general-purpose' }), turn(SUB_A, 1), turn(SUB_A, 2), toolStart(SUB_A, 't1', 'bash', { command: `npm run ${long}` })]);
    const item = agentRow({ summary: long });
    const frame = frameAtWidth(<ConversationItemView item={item} options={OPTIONS} agents={childrenOfCall(state, item.id)} />, 80);
    expect(frame.split('\n')).toHaveLength(2);
    expect(widestLine(frame)).toBeLessThanOrEqual(80);
    expect(stripAnsi(frame).split('\n')[1]).toMatch(/^ {2}⤷ a1b2c3 general-purpose: find the parser · turn 2 · bash npm run x+…$/);
  });

  it('tells two children of the same role apart: each says its task id and description', () => {
    const state = fold([
      start(SUB_A, { label: 't1', description: 'map the parser' }),
      start(SUB_B, { label: 't2', description: 'map the lexer' }),
      turn(SUB_A, 1),
      turn(SUB_A, 2),
      turn(SUB_B, 1),
      turn(SUB_B, 2),
    ]);
    const item = agentRow({ name: 'delegate_tasks', summary: 'map the front end' });
    expect(lines(item, state).slice(1)).toEqual(['  ⤷ t1 explore: map the parser · turn 2 · thinking…', '  ⤷ t2 explore: map the lexer · turn 2 · thinking…']);
  });
});
