/**
 * Usage and cost of one agent (a session or a subagent), rolled up with its children so the user
 * sees everything a run billed ("no hidden bill").
 *
 * Trackers form a tree that mirrors the agent tree (children, and grandchildren when
 * `subagents.max_depth` allows). `cumulative() = own + base + Σ child.cumulative()` counts every
 * turn exactly once because each tracker has at most one parent and the tree has no cycles; both
 * are checked when adopting. Children are live objects summed on read, so turns a child records
 * after adoption are counted too.
 */
import { isPriced } from '../providers/catalog.js';
import { addUsage, ZERO_USAGE, type Usage } from '../providers/types.js';

export interface TurnRecord {
  usage: Usage;
  /** Fixed when recorded (model and price at that moment), never recomputed. */
  costUsd: number;
  /** False when the model's prices are unknown: `costUsd` is then a placeholder 0, not a price. */
  costKnown: boolean;
  model: string;
}

export interface CostTotals {
  usage: Usage;
  /** The sum of the known parts. */
  costUsd: number;
  /** False if any part is unknown: the real total is then more than `costUsd`, by an unknown
   * amount, and must be shown as unknown ("—", or null in JSON). */
  costKnown: boolean;
  /** Model responses counted in these totals. */
  turns: number;
}

export class CostTracker {
  private readonly ownTurns: TurnRecord[] = [];
  private readonly adopted: CostTracker[] = [];
  private base: CostTotals = emptyTotals();
  private parent: CostTracker | undefined;

  /**
   * Records one model response. Its cost is known when given and either positive (only real prices
   * produce one) or from a model whose prices are known (configured or in the catalog); `costKnown`
   * overrides that. An unknown cost counts as 0 in sums and makes every total including it unknown.
   */
  record(turn: { usage: Usage; costUsd?: number; costKnown?: boolean; model: string }): void {
    const costKnown = turn.costKnown ?? isCostKnown(turn.costUsd, turn.model);
    this.ownTurns.push({ usage: { ...turn.usage }, costUsd: turn.costUsd ?? 0, costKnown, model: turn.model });
  }

  /** Own turns, oldest first (base and children excluded). */
  turns(): readonly TurnRecord[] {
    return this.ownTurns;
  }

  /** The last own turn; its input tokens give the context-window fill. */
  lastTurn(): TurnRecord | undefined {
    return this.ownTurns[this.ownTurns.length - 1];
  }

  /** Totals of own turns only. */
  own(): CostTotals {
    return this.ownTurns.reduce<CostTotals>(
      (sum, t) => ({
        usage: addUsage(sum.usage, t.usage),
        costUsd: sum.costUsd + t.costUsd,
        costKnown: sum.costKnown && t.costKnown,
        turns: sum.turns + 1,
      }),
      emptyTotals(),
    );
  }

  /**
   * Sets what this agent billed before this process started (the resumed transcript's totals).
   * Replaces any earlier base. Whatever the base covers must not also be adopted as children, or
   * it would be counted twice. `costKnown` false: part of that cost was never priced.
   */
  setBase(usage: Usage, costUsd: number, turns = 0, costKnown = true): void {
    this.base = { usage: { ...usage }, costUsd, costKnown, turns };
  }

  /** own + base + Σ children, read live. */
  cumulative(): CostTotals {
    let total = sumTotals(this.own(), this.base);
    for (const child of this.adopted) total = sumTotals(total, child.cumulative());
    return total;
  }

  /**
   * Adds `child`'s usage (now and later) to this tracker's cumulative totals.
   * - No-op for `this` and for a child this tracker already adopted (resume paths may adopt twice).
   * - Throws if another tracker adopted the child (it would be billed twice in any total that
   *   includes both parents) or if the child is an ancestor of this tracker (a cycle).
   */
  adoptChild(child: CostTracker): void {
    if (child === this || child.parent === this) return;
    if (child.parent !== undefined) {
      throw new Error('CostTracker.adoptChild: the child was already adopted by another tracker.');
    }
    for (let ancestor = this.parent; ancestor; ancestor = ancestor.parent) {
      if (ancestor === child) throw new Error('CostTracker.adoptChild: the child is an ancestor of this tracker.');
    }
    child.parent = this;
    this.adopted.push(child);
  }

  children(): readonly CostTracker[] {
    return this.adopted;
  }

  /** Share of prompt tokens served from cache, over cumulative totals; 0 before any input. */
  cacheHitShare(): number {
    const { usage } = this.cumulative();
    return usage.inputTokens > 0 ? usage.cacheReadTokens / usage.inputTokens : 0;
  }
}

/** Whether a response's cost is a real price: given, and positive (only real prices produce one)
 * or from a model whose prices are known (configured or in the catalog). */
export function isCostKnown(costUsd: number | undefined, model: string): boolean {
  return costUsd !== undefined && (costUsd > 0 || isPriced(model));
}

function emptyTotals(): CostTotals {
  return { usage: { ...ZERO_USAGE }, costUsd: 0, costKnown: true, turns: 0 };
}

function sumTotals(a: CostTotals, b: CostTotals): CostTotals {
  return {
    usage: addUsage(a.usage, b.usage),
    costUsd: a.costUsd + b.costUsd,
    costKnown: a.costKnown && b.costKnown,
    turns: a.turns + b.turns,
  };
}
