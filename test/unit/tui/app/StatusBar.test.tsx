import { describe, expect, it } from 'vitest';
import { StatusBar, type StatusInfo } from '../../../../src/tui/components/StatusBar.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { frameAtWidth, widestLine } from '../conversation/ink-at-width.js';

const INFO: StatusInfo = {
  model: 'deepseek-v4-flash',
  contextTokens: 52_000,
  contextWindow: 128_000,
  inputTokens: 12_345,
  outputTokens: 3_400,
  cacheHitShare: 0.8,
  costUsd: 0.0123,
  mode: 'ask',
  running: false,
  compactions: 0,
  activeAgents: 0,
  queued: 0,
};

/** The parts in priority order (most important first), as the bar writes them for INFO. */
const PARTS = ['ask', 'deepseek-v4-flash', 'ctx 41%', '$0.0123', '↑12k ↓3.4k', 'cache 80%'];
const IDLE_HINT = 'shift+tab mode · /help';

function bar(info: Partial<StatusInfo>, width: number): { frame: string; parts: string[]; hint: string | undefined } {
  const frame = frameAtWidth(<StatusBar info={{ ...INFO, ...info }} width={width} color={false} />, width);
  const lines = stripAnsi(frame).split('\n');
  expect(lines).toHaveLength(1);
  // The parts sit left, the hint right, with at least two spaces between (see StatusBar).
  const [left = '', right] = lines[0]!.trimEnd().split(/ {2,}/);
  return { frame, parts: left.split(' · '), hint: right };
}

describe('StatusBar', () => {
  it('shows mode, model, context, cost, tokens and cache share, with the hint, at width 200', () => {
    const { frame, parts, hint } = bar({}, 200);
    expect(parts).toEqual(PARTS);
    expect(hint).toBe(IDLE_HINT);
    expect(widestLine(frame)).toBe(200); // the hint is pushed to the right edge
    expect(stripAnsi(frame).endsWith(IDLE_HINT)).toBe(true);
  });

  it('computes the context share from contextTokens / contextWindow, capped at 100%', () => {
    const ctx = (info: Partial<StatusInfo>) => bar(info, 200).parts[2];
    expect(ctx({ contextTokens: 0 })).toBe('ctx 0%');
    expect(ctx({ contextTokens: 64_000 })).toBe('ctx 50%');
    expect(ctx({ contextTokens: 127_999 })).toBe('ctx 100%');
    expect(ctx({ contextTokens: 300_000 })).toBe('ctx 100%');
    expect(ctx({ contextTokens: 5_000, contextWindow: 0 })).toBe('ctx 0%'); // unknown window
  });

  it('formats cost and tokens compactly', () => {
    const { parts } = bar({ costUsd: 12.5, inputTokens: 1_250_000, outputTokens: 999, cacheHitShare: 0 }, 200);
    expect(parts.slice(3)).toEqual(['$12.50', '↑1.3M ↓999', 'cache 0%']);
  });

  it('drops the least important parts first as the width shrinks, keeping mode and model', () => {
    let previous = PARTS.length;
    const seen = new Set<number>();
    for (let width = 200; width >= 40; width--) {
      const { frame, parts } = bar({}, width);
      expect(widestLine(frame)).toBeLessThanOrEqual(width);
      // What is left is always the most important prefix: cache goes first, then tokens, cost, ctx.
      expect(parts).toEqual(PARTS.slice(0, parts.length));
      expect(parts.length).toBeGreaterThanOrEqual(2);
      expect(parts.length).toBeLessThanOrEqual(previous);
      previous = parts.length;
      seen.add(parts.length);
    }
    expect([...seen].sort()).toEqual([2, 3, 4, 5, 6]);
  });

  it('at width 60 keeps mode, model and context and still fits the hint', () => {
    const { frame, parts, hint } = bar({}, 60);
    expect(parts).toEqual(['ask', 'deepseek-v4-flash', 'ctx 41%']);
    expect(hint).toBe(IDLE_HINT);
    expect(widestLine(frame)).toBe(60);
  });

  it('gives up the hint, not the model, when even mode and model leave no room for it', () => {
    for (const [mode, label] of [
      ['ask', 'ask'],
      ['plan', 'plan (read-only)'],
      ['plan_execute', 'plan: executing'],
    ] as const) {
      const { frame, parts, hint } = bar({ mode, model: 'claude-sonnet-4-6' }, 40);
      expect(parts.slice(0, 2)).toEqual([label, 'claude-sonnet-4-6']);
      expect(hint).toBeUndefined();
      expect(widestLine(frame)).toBeLessThanOrEqual(40);
    }
    // A model name too long for the line is cut at the edge, never wrapped onto a second line.
    const model = 'org/very-long-fine-tuned-model-name-2025-01-01-preview';
    const frame = stripAnsi(frameAtWidth(<StatusBar info={{ ...INFO, model }} width={40} color={false} />, 40));
    expect(frame.split('\n')).toHaveLength(1);
    expect(frame.startsWith('ask · org/very-long')).toBe(true);
    expect(frame.endsWith('…')).toBe(true);
    expect(widestLine(frame)).toBe(40);
  });

  it('says "esc to cancel" while running', () => {
    expect(bar({ running: true }, 200).hint).toBe('esc to cancel');
    expect(bar({ running: true }, 60).hint).toBe('esc to cancel');
  });

  it('shows running agents right after the mode, only when there are some', () => {
    expect(bar({ activeAgents: 0 }, 200).parts).toEqual(PARTS);
    expect(bar({ activeAgents: 1 }, 200).parts.slice(0, 3)).toEqual(['ask', '⤴ 1 agent', 'deepseek-v4-flash']);
    expect(bar({ activeAgents: 3 }, 200).parts[1]).toBe('⤴ 3 agents');
  });

  it('shows the worktree branch right after the mode while the session works in one, and keeps it when narrow', () => {
    expect(bar({ worktreeBranch: 'seek/wt/20261122-101500-a1b2c3' }, 200).parts.slice(0, 3)).toEqual(['ask', '⎇ seek/wt/20261122-101500-a1b2c3', 'deepseek-v4-flash']);
    expect(bar({ worktreeBranch: 'feature/x' }, 50).parts).toEqual(['ask', '⎇ feature/x', 'deepseek-v4-flash']);
    expect(bar({}, 200).parts.some((part) => part.startsWith('⎇'))).toBe(false);
  });

  it('shows ⤴ 2 agents and, briefly, ✓ agent done', () => {
    expect(bar({ activeAgents: 2 }, 80).parts.slice(0, 3)).toEqual(['ask', '⤴ 2 agents', 'deepseek-v4-flash']);
    expect(bar({ agentDone: true }, 200).parts.slice(0, 3)).toEqual(['ask', '✓ agent done', 'deepseek-v4-flash']);
    expect(bar({ activeAgents: 1, agentDone: true }, 200).parts.slice(0, 3)).toEqual(['ask', '⤴ 1 agent', '✓ agent done']);
  });

  it('shows compactions next to the context share and queued messages at the end', () => {
    const { parts } = bar({ compactions: 2, contextTokens: 12_800, queued: 2 }, 200);
    expect(parts[2]).toBe('ctx 10% (compacted ×2)');
    expect(parts[parts.length - 1]).toBe('2 queued');
  });

  it('names every mode', () => {
    const label = (mode: StatusInfo['mode']) => bar({ mode }, 200).parts[0];
    expect(['deny', 'ask', 'yolo', 'plan', 'plan_execute'].map((mode) => label(mode as StatusInfo['mode']))).toEqual([
      'deny',
      'ask',
      'yolo',
      'plan (read-only)',
      'plan: executing',
    ]);
  });
});
