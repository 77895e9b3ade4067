/**
 * The `subagents` section of `~/.seek/config.json`:
 *
 *   { "subagents": { "max_concurrent": 4, "max_depth": 1, "timeout_seconds": 1800,
 *                    "max_turns": 200, "budget_tokens": 400000, "session_budget_tokens": 2000000 } }
 *
 * Out-of-range values are clamped and reported, never fatal: a typo in a limit must not stop seek.
 */
import { lazySchema } from '../util/zod.js';

export interface SubagentSettings {
  /** Children running at once in this process, the whole tree counted; more fail fast. */
  maxConcurrent: number;
  /** 1: children cannot spawn; up to 3 levels (each level tightens again). */
  maxDepth: number;
  /** Wall clock per child; 0 = none. */
  timeoutSeconds: number;
  maxTurns: number;
  /** Prompt + completion tokens per child run; undefined = no budget. */
  budgetTokens: number | undefined;
  /** Prompt + completion tokens of all the children of one run together (session-budget.ts); undefined = none. */
  sessionBudgetTokens: number | undefined;
}

export const DEFAULT_SUBAGENT_SETTINGS: SubagentSettings = {
  maxConcurrent: 4,
  maxDepth: 1,
  timeoutSeconds: 1800,
  maxTurns: 200,
  budgetTokens: undefined,
  sessionBudgetTokens: undefined,
};

export const MAX_SUBAGENT_DEPTH = 3;
const MAX_CONCURRENT_CEILING = 16;

const sectionSchema = lazySchema((z) =>
  z.looseObject({
    max_concurrent: z.number().int().optional(),
    max_depth: z.number().int().optional(),
    timeout_seconds: z.number().optional(),
    max_turns: z.number().int().optional(),
    budget_tokens: z.number().int().optional(),
    session_budget_tokens: z.number().int().optional(),
  }),
);

export function subagentSettings(config: Readonly<Record<string, unknown>>): { settings: SubagentSettings; notices: string[] } {
  const notices: string[] = [];
  const settings = { ...DEFAULT_SUBAGENT_SETTINGS };
  if (config.subagents === undefined) return { settings, notices };
  const parsed = sectionSchema().safeParse(config.subagents);
  if (!parsed.success) {
    notices.push(`config.json: "subagents" is not an object of numbers (${parsed.error.issues[0]?.message ?? 'invalid'}); using the defaults`);
    return { settings, notices };
  }
  const section = parsed.data;
  const clamp = (name: string, value: number | undefined, min: number, max: number, fallback: number): number => {
    if (value === undefined) return fallback;
    const bounded = Math.min(max, Math.max(min, value));
    if (bounded !== value) notices.push(`config.json: subagents.${name} ${value} is outside ${min}–${max}; using ${bounded}`);
    return bounded;
  };
  settings.maxConcurrent = clamp('max_concurrent', section.max_concurrent, 1, MAX_CONCURRENT_CEILING, settings.maxConcurrent);
  settings.maxDepth = clamp('max_depth', section.max_depth, 1, MAX_SUBAGENT_DEPTH, settings.maxDepth);
  settings.timeoutSeconds = clamp('timeout_seconds', section.timeout_seconds, 0, 24 * 3600, settings.timeoutSeconds);
  settings.maxTurns = clamp('max_turns', section.max_turns, 1, 10_000, settings.maxTurns);
  if (section.budget_tokens !== undefined) settings.budgetTokens = clamp('budget_tokens', section.budget_tokens, 1000, 1e9, 1000);
  if (section.session_budget_tokens !== undefined) settings.sessionBudgetTokens = clamp('session_budget_tokens', section.session_budget_tokens, 1000, 1e10, 1000);
  return { settings, notices };
}
