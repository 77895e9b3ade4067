const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parses `90s`, `15m`, `48h`, `7d`, `1w`, `1h30m`, `1.5h`, or `0`, to milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const match of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) total += Number(match[1]) * UNITS[match[2]!]!;
  return total;
}
