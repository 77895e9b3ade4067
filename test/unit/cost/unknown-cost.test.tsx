import { describe, expect, it } from 'vitest';
import { formatCost } from '../../../src/cost/format.js';
import { CostTracker } from '../../../src/cost/tracker.js';
import { isPriced } from '../../../src/providers/catalog.js';
import type { Usage } from '../../../src/providers/types.js';
import { StatusBar, type StatusInfo } from '../../../src/tui/components/StatusBar.js';
import { stripAnsi } from '../../../src/tui/markdown/ansi.js';
import { frameAtWidth } from '../tui/conversation/ink-at-width.js';

const usage = (input: number, output: number): Usage => ({ inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0 });

describe('a model without known prices has an unknown cost, never $0', () => {
  it('the catalog tells priced models (dated snapshots included) from unknown ones', () => {
    expect(isPriced('deepseek-v4-flash')).toBe(true);
    expect(isPriced('claude-sonnet-4-5-20250929')).toBe(true);
    expect(isPriced('llama3.1:8b')).toBe(false);
    expect(isPriced('moonshotai/kimi-k2')).toBe(false);
    expect(isPriced('gpt-4o-2024-08-06')).toBe(true);
    expect(isPriced('claude-3-5-haiku-latest')).toBe(true);
  });

  it('another model whose name merely starts with a catalog id does not inherit its prices', () => {
    expect(isPriced('o3')).toBe(true);
    expect(isPriced('o3-pro')).toBe(false); // priced 10x o3
    expect(isPriced('grok-4')).toBe(true);
    expect(isPriced('grok-4-fast-reasoning')).toBe(false); // a cheaper model
    expect(isPriced('claude-opus-4-9')).toBe(false); // not claude-opus-4's $15/$75
  });

  it('a turn on an unknown model makes every total that includes it unknown, and only those', () => {
    const parent = new CostTracker();
    parent.record({ usage: usage(1000, 100), costUsd: 0.5, model: 'deepseek-v4-flash' });
    expect(parent.lastTurn()?.costKnown).toBe(true);
    expect(parent.cumulative()).toMatchObject({ costUsd: 0.5, costKnown: true });

    const child = new CostTracker();
    child.record({ usage: usage(1000, 100), costUsd: 0, model: 'llama3.1:8b' });
    parent.adoptChild(child);
    expect(child.lastTurn()?.costKnown).toBe(false);
    expect(child.cumulative().costKnown).toBe(false);
    expect(parent.own()).toMatchObject({ costUsd: 0.5, costKnown: true });
    expect(parent.cumulative()).toMatchObject({ costUsd: 0.5, costKnown: false, turns: 2 });
  });

  it('a resumed base that was never priced keeps the totals unknown; an explicit costKnown wins', () => {
    const t = new CostTracker();
    t.setBase(usage(10, 1), 0, 1, false);
    t.record({ usage: usage(10, 1), costUsd: 0.01, model: 'gpt-5' });
    expect(t.cumulative()).toMatchObject({ costKnown: false, turns: 2 });
    const priced = new CostTracker();
    priced.record({ usage: usage(10, 1), costUsd: 0.02, costKnown: true, model: 'my-configured-model' });
    expect(priced.cumulative()).toMatchObject({ costUsd: 0.02, costKnown: true });
    // A positive cost only comes from real prices (config `models`), whatever the catalog says.
    const configured = new CostTracker();
    configured.record({ usage: usage(10, 1), costUsd: 0.03, model: 'not-in-catalog' });
    expect(configured.cumulative()).toMatchObject({ costUsd: 0.03, costKnown: true });
  });

  it('formats an unknown cost as "—" whatever the placeholder amount', () => {
    expect(formatCost(0, false)).toBe('—');
    expect(formatCost(1.5, false)).toBe('—');
    expect(formatCost(0)).toBe('$0.00');
  });

  it('the status bar shows "—" instead of $0.00 for an unknown cost', () => {
    const info: StatusInfo = {
      model: 'llama3.1:8b',
      contextTokens: 1000,
      contextWindow: 128_000,
      inputTokens: 1000,
      outputTokens: 100,
      cacheHitShare: 0,
      costUsd: 0,
      costKnown: false,
      mode: 'ask',
      running: false,
      compactions: 0,
      activeAgents: 0,
      queued: 0,
    };
    const parts = (shown: StatusInfo) => stripAnsi(frameAtWidth(<StatusBar info={shown} width={200} color={false} />, 200)).split(/ {2,}/)[0]!.split(' · ');
    expect(parts(info)).toContain('—');
    expect(parts(info)).not.toContain('$0.00');
    expect(parts({ ...info, costKnown: true })).toContain('$0.00');
  });
});
