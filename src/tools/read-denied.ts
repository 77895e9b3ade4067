import type { ToolContext } from '../agent/types.js';

/**
 * The tools' side of the read guard (policy/read-guard.ts, handed to each call as
 * `ctx.readDenied`): what a call meets beyond the path it was judged on is left out when a deny
 * rule forbids reading it, its name included (a name can be the secret:
 * `keys/customer-acme-prod.pem`), and not counted (a count of what was left out would answer
 * questions about it: grep `SECRET=a`, `SECRET=b`…).
 */
export function withoutDenied<T>(ctx: Pick<ToolContext, 'readDenied'>, items: readonly T[], absPathOf: (item: T) => string): T[] {
  const denied = ctx.readDenied;
  return denied ? items.filter((item) => denied(absPathOf(item)) === undefined) : [...items];
}
