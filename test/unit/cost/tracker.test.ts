import { describe, expect, it } from 'vitest';
import { CostTracker } from '../../../src/cost/tracker.js';
import type { Usage } from '../../../src/providers/types.js';

const usage = (input: number, output: number, cacheRead = 0): Usage => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: cacheRead,
  cacheWriteTokens: 0,
});

describe('CostTracker', () => {
  it('records turns and totals its own usage', () => {
    const t = new CostTracker();
    expect(t.lastTurn()).toBeUndefined();
    expect(t.own()).toMatchObject({ costUsd: 0, turns: 0, usage: { inputTokens: 0 } });
    t.record({ usage: usage(100, 10, 50), costUsd: 0.01, model: 'm' });
    t.record({ usage: usage(200, 20, 150), model: 'm' }); // unknown cost counts as 0, and is marked unknown
    expect(t.turns()).toHaveLength(2);
    expect(t.lastTurn()).toEqual({ usage: usage(200, 20, 150), costUsd: 0, costKnown: false, model: 'm' });
    expect(t.own()).toMatchObject({ turns: 2, costUsd: 0.01, usage: { inputTokens: 300, outputTokens: 30, cacheReadTokens: 200 } });
  });

  it('rolls up base and live children, counting turns children record after adoption', () => {
    const parent = new CostTracker();
    parent.record({ usage: usage(100, 10), costUsd: 1, model: 'm' });
    const child = new CostTracker();
    child.record({ usage: usage(50, 5), costUsd: 0.5, model: 'f' });
    parent.adoptChild(child);
    child.record({ usage: usage(50, 5), costUsd: 0.5, model: 'f' });
    expect(parent.cumulative()).toMatchObject({ turns: 3, costUsd: 2, usage: { inputTokens: 200, outputTokens: 20 } });
    expect(parent.own()).toMatchObject({ turns: 1, costUsd: 1 });
    expect(parent.lastTurn()?.model).toBe('m'); // own turns only (context window %)
    expect(parent.children()).toEqual([child]);
  });

  it('adds a resumed transcript as base, replacing any earlier base', () => {
    const t = new CostTracker();
    t.setBase(usage(1000, 100), 3, 4);
    t.setBase(usage(500, 50), 2, 2);
    t.record({ usage: usage(100, 10), costUsd: 1, model: 'm' });
    expect(t.cumulative()).toMatchObject({ turns: 3, costUsd: 3, usage: { inputTokens: 600, outputTokens: 60 } });
    expect(t.own()).toMatchObject({ turns: 1, costUsd: 1 });
  });

  it('ignores adopting itself or the same child twice', () => {
    const parent = new CostTracker();
    const child = new CostTracker();
    child.record({ usage: usage(10, 1), costUsd: 0.1, model: 'f' });
    parent.adoptChild(parent);
    parent.adoptChild(child);
    parent.adoptChild(child);
    expect(parent.children()).toHaveLength(1);
    expect(parent.cumulative().costUsd).toBeCloseTo(0.1, 12);
  });

  it('rolls a deeper tree up once per turn, keeps a child under one parent and refuses cycles', () => {
    const parent = new CostTracker();
    const child = new CostTracker();
    const grandchild = new CostTracker();
    child.adoptChild(grandchild);
    parent.adoptChild(child);
    parent.record({ usage: usage(10, 1, 0), costUsd: 0.01, model: 'm' });
    child.record({ usage: usage(20, 2, 0), costUsd: 0.02, model: 'm' });
    grandchild.record({ usage: usage(40, 4, 0), costUsd: 0.04, model: 'm' });
    expect(parent.cumulative().usage.inputTokens).toBe(70);
    expect(parent.cumulative().costUsd).toBeCloseTo(0.07, 12);
    expect(child.cumulative().usage.inputTokens).toBe(60);

    expect(() => new CostTracker().adoptChild(child)).toThrow(/already adopted by another/);
    expect(() => grandchild.adoptChild(parent)).toThrow(/ancestor/);
  });

  it('computes the cache hit share over cumulative usage', () => {
    const parent = new CostTracker();
    expect(parent.cacheHitShare()).toBe(0);
    parent.record({ usage: usage(100, 0, 90), model: 'm' });
    const child = new CostTracker();
    child.record({ usage: usage(100, 0, 10), model: 'f' });
    parent.adoptChild(child);
    expect(parent.cacheHitShare()).toBeCloseTo(0.5, 12);
  });
});
