/**
 * The budgets of a whole run (session-budget.ts): dollars over the parent and every child, tokens
 * over the children, both counted from the session's opening; an unknown price warns once and
 * stops nothing; two limits combine, the first reached saying why.
 */
import { describe, expect, it } from 'vitest';
import { CostTracker } from '../../../src/cost/tracker.js';
import { childExtras, eitherLimit, SessionBudget } from '../../../src/subagents/session-budget.js';

const usage = (input: number, output = 0) => ({ inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0 });
const priced = (tracker: CostTracker, costUsd: number, input = 1000) => tracker.record({ usage: usage(input), costUsd, costKnown: true, model: 'm' });

describe('SessionBudget', () => {
  it('counts the parent and its children from its own start, not what a resumed session spent before', async () => {
    const parent = new CostTracker();
    parent.setBase(usage(5000), 10, 3); // an earlier run of the resumed session
    const budget = new SessionBudget({ tracker: parent, maxUsd: 1, warn: () => {} });
    priced(parent, 0.4);
    const child = new CostTracker();
    parent.adoptChild(child);
    priced(child, 0.5);
    expect(budget.parentReached()).toBeUndefined();
    expect(await budget.reached()).toBeUndefined();
    priced(child, 0.2);
    expect(budget.parentReached()).toMatch(/--max-budget-usd 1\) is spent: \$1\.1000 so far/);
    expect(await budget.reached()).toBe(budget.parentReached());
  });

  it('cannot enforce dollars over an unknown price: warns once, never reached', async () => {
    const parent = new CostTracker();
    const warnings: string[] = [];
    const budget = new SessionBudget({ tracker: parent, maxUsd: 0.01, warn: (text) => warnings.push(text) });
    parent.record({ usage: usage(1_000_000), costKnown: false, model: 'local' });
    expect(budget.parentReached()).toBeUndefined();
    expect(await budget.reached()).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('--max-budget-usd 0.01 cannot be enforced');
  });

  it('counts all children tokens together for the token budget; the parent is not held to it', async () => {
    const parent = new CostTracker();
    const budget = new SessionBudget({ tracker: parent, childTokens: 3000, warn: () => {} });
    expect(budget.active).toBe(true);
    priced(parent, 0, 100_000);
    const [a, b] = [new CostTracker(), new CostTracker()];
    parent.adoptChild(a);
    parent.adoptChild(b);
    priced(a, 0, 1500);
    expect(await budget.reached()).toBeUndefined();
    priced(b, 0, 1500);
    expect(await budget.reached()).toMatch(/session_budget_tokens 3000\) is spent: 3000 tokens/);
    expect(budget.parentReached()).toBeUndefined();
  });

  it('combines with a request limit, and is left out when it has nothing to enforce', async () => {
    const idle = new SessionBudget({ tracker: new CostTracker(), warn: () => {} });
    expect(idle.active).toBe(false);
    expect(childExtras({}, idle)).toEqual({});
    const first = { reached: async () => 'first' };
    const second = { reached: async () => 'second' };
    const never = { reached: async () => undefined };
    expect(await eitherLimit(first, second)!.reached()).toBe('first');
    expect(await eitherLimit(never, second)!.reached()).toBe('second');
    expect(eitherLimit(undefined, second)).toBe(second);
    expect(childExtras({ sharedLimit: never, earlier: [] }, idle)).toEqual({ sharedLimit: never, earlier: [] });
  });
});
