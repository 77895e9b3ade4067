/** Compact renderings of money and token counts for status lines, lists and summaries. */

/** How a cost that nobody priced is shown. */
export const UNKNOWN_COST = '—';

/**
 * Dollars: `$0.00` for zero, four decimals under one dollar (DeepSeek turns cost fractions of a
 * cent, so two decimals would show `$0.00` for real spend; below that, `<$0.0001`), two decimals
 * from one dollar on.
 * Non-finite or negative amounts (never produced by the catalog) render as `$0.00`. An unknown
 * cost (`known` false: a model without prices) renders as `—`, never as a made-up `$0.00`.
 */
export function formatCost(usd: number, known = true): string {
  if (!known) return UNKNOWN_COST;
  if (!Number.isFinite(usd) || usd <= 0) return '$0.00';
  if (usd < 0.0001) return '<$0.0001';
  if (usd < 1) return `$${usd.toFixed(4)}`;
  return `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/**
 * Token counts: `999`, `1.2k`, `12k`, `123k`, `1.2M`, `12M`. One decimal below ten units, none
 * above; a value that would round up to the next unit (999,999 → "1000k") moves to that unit.
 */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return '0';
  const count = Math.round(n);
  if (count < 1000) return String(count);
  const units: Array<[number, string]> = [
    [1e3, 'k'],
    [1e6, 'M'],
    [1e9, 'B'],
  ];
  for (let i = 0; i < units.length; i++) {
    const [size, suffix] = units[i] as [number, string];
    const text = scaled(count / size);
    if (Number(text) < 1000 || i === units.length - 1) return `${text}${suffix}`;
  }
  return String(count);
}

function scaled(value: number): string {
  if (value < 10) {
    const oneDecimal = (Math.round(value * 10) / 10).toFixed(1);
    return oneDecimal.endsWith('.0') ? oneDecimal.slice(0, -2) : oneDecimal;
  }
  return String(Math.round(value));
}

/** "85%" style share; 0..1 in. */
export function formatPercent(share: number): string {
  if (!Number.isFinite(share) || share <= 0) return '0%';
  return `${Math.round(Math.min(share, 1) * 100)}%`;
}
