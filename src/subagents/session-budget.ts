/**
 * Budgets of a whole run rather than of one child: `--max-budget-usd` (dollars, the parent and
 * every child of this process counted, foreground and background) and
 * `subagents.session_budget_tokens` (prompt + completion tokens of all the children of this
 * process together). Both count from the moment the session opened in this process, so a
 * resumed session's earlier spending does not count again.
 *
 * Children see it as a SharedLimit (asked before each of their requests): once it is reached they
 * are told to wrap up and stopped with `budget_exceeded` if they do not. The parent asks
 * `parentReached` at each of its request boundaries and ends the run (`max_budget_usd`).
 * A dollar budget over work billed by a model without known prices cannot be enforced: it says so
 * once (`warn`) and does not stop anything.
 */
import type { CostTracker } from '../cost/tracker.js';
import type { Message } from '../providers/types.js';
import type { SharedLimit } from './types.js';

export interface SessionBudgetOptions {
  tracker: CostTracker;
  maxUsd?: number;
  childTokens?: number;
  warn: (text: string) => void;
}

export class SessionBudget implements SharedLimit {
  private readonly startUsd: number;
  private readonly startChildTokens: number;
  private warned = false;

  constructor(private readonly options: SessionBudgetOptions) {
    this.startUsd = options.tracker.cumulative().costUsd;
    this.startChildTokens = this.childTokens();
  }

  /** Whether there is anything to enforce. */
  get active(): boolean {
    return this.options.maxUsd !== undefined || this.options.childTokens !== undefined;
  }

  /** The SharedLimit of every child: either budget. */
  reached(): Promise<string | undefined> {
    return Promise.resolve(this.dollarsReached() ?? this.tokensReached());
  }

  /** The parent's check at a request boundary: the dollar budget only (the token budget is the children's). */
  parentReached(): string | undefined {
    return this.dollarsReached();
  }

  private dollarsReached(): string | undefined {
    const max = this.options.maxUsd;
    if (max === undefined) return undefined;
    const total = this.options.tracker.cumulative();
    if (!total.costKnown) {
      if (!this.warned) {
        this.warned = true;
        this.options.warn(`--max-budget-usd ${max} cannot be enforced: this run uses a model without known prices (set them under "models" in config.json); going on without the budget`);
      }
      return undefined;
    }
    const spent = total.costUsd - this.startUsd;
    return spent >= max ? `the run's dollar budget (--max-budget-usd ${max}) is spent: $${spent.toFixed(4)} so far, the parent and every subagent counted` : undefined;
  }

  private tokensReached(): string | undefined {
    const max = this.options.childTokens;
    if (max === undefined) return undefined;
    const spent = this.childTokens() - this.startChildTokens;
    return spent >= max ? `the session's subagent token budget (subagents.session_budget_tokens ${max}) is spent: ${spent} tokens by all subagents together` : undefined;
  }

  private childTokens(): number {
    let sum = 0;
    for (const child of this.options.tracker.children()) {
      const { usage } = child.cumulative();
      sum += usage.inputTokens + usage.outputTokens;
    }
    return sum;
  }
}

/** Both limits a child is under: the first reached says why. */
export function eitherLimit(a: SharedLimit | undefined, b: SharedLimit | undefined): SharedLimit | undefined {
  if (!a || !b) return a ?? b;
  return { reached: async () => (await a.reached()) ?? (await b.reached()) };
}

/** The child run's shared limit (the request's and the session's budgets) and, for a continued
 * child, the history it starts with: only the options that are there. */
export function childExtras(request: { sharedLimit?: SharedLimit; earlier?: readonly Message[] }, budget: SessionBudget | undefined): { sharedLimit?: SharedLimit; earlier?: readonly Message[] } {
  const limit = eitherLimit(request.sharedLimit, budget?.active ? budget : undefined);
  return { ...(limit ? { sharedLimit: limit } : {}), ...(request.earlier ? { earlier: request.earlier } : {}) };
}
