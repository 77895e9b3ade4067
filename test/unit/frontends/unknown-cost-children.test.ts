/**
 * Children and orchestration tasks billed by a model without known prices: the JSON result and
 * stream-json give `null` with `cost_known: false`, never a 0 that reads as a price; a known
 * model's child still gives its number.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createStreamJsonRenderer } from '../../../src/frontends/stream-json.js';
import { resultObject } from '../../../src/frontends/result.js';
import { runPlan } from '../../../src/orchestrator/orchestrator.js';
import { buildPlan } from '../../../src/orchestrator/plan.js';
import { roleCatalog } from '../../../src/orchestrator/roles.js';
import type { RunSummary } from '../../../src/runtime/events.js';
import { BUILTIN_SUBAGENT_TYPES } from '../../../src/subagents/builtin-types.js';
import type { ChildReport } from '../../../src/subagents/child-report.js';
import type { SubagentOutcome } from '../../../src/subagents/types.js';

const USAGE = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 };

function summary(over: Partial<RunSummary>): RunSummary {
  return { sessionId: 's', reason: 'completed', finalText: 'done', turns: 1, durationMs: 5, usage: USAGE, costUsd: 0.02, subagents: [], orchestrations: [], ...over };
}

function report(id: string, costUsd: number, costKnown: boolean): ChildReport {
  return {
    result: { content: `[agent: completed] ${id}` },
    status: 'completed',
    summary: id,
    subSid: `sub-${id}`,
    turns: 1,
    modelCalls: 1,
    toolCalls: 0,
    tokens: { prompt: 100, completion: 10, cache_hit: 0 },
    costUsd,
    costKnown,
  };
}

describe('unknown-cost children in the JSON result', () => {
  it('gives null and cost_known false for an unknown-model child, the number for a known one', () => {
    const base = { type: 'explore', status: 'completed' as const, description: 'd', turns: 1, usage: USAGE };
    const object = resultObject(summary({ subagents: [{ ...base, id: 'unknown', costUsd: 0, costKnown: false }, { ...base, id: 'known', costUsd: 0.0123, costKnown: true }] }));
    const children = object.subagents as Array<Record<string, unknown>>;
    expect(children[0]).toMatchObject({ id: 'unknown', total_cost_usd: null, cost_known: false });
    expect(children[1]).toMatchObject({ id: 'known', total_cost_usd: 0.0123, cost_known: true });
  });

  it('carries an unknown task cost from the child report to its task and the plan totals', async () => {
    const catalog = roleCatalog(BUILTIN_SUBAGENT_TYPES);
    const plan = buildPlan([{ task: 'one', role: 'explorer' }, { task: 'two', role: 'explorer' }], catalog.resolve, catalog.names);
    const costs: Record<string, ChildReport> = { t1: report('t1', 0, false), t2: report('t2', 0.5, true) };
    const run = await runPlan(plan, 'call', new AbortController().signal, { catalog, runChild: async (request) => costs[request.task.id]!, emit: () => {} });
    const object = resultObject(summary({ orchestrations: [run] }));
    const [orchestration] = object.orchestrations as Array<{ tasks: Array<Record<string, unknown>>; totals: Record<string, unknown> }>;
    expect(orchestration!.tasks[0]).toMatchObject({ id: 't1', total_cost_usd: null, cost_known: false });
    expect(orchestration!.tasks[1]).toMatchObject({ id: 't2', total_cost_usd: 0.5, cost_known: true });
    expect(orchestration!.totals).toMatchObject({ total_cost_usd: null, cost_known: false });
  });

  it('gives known plan totals their number', async () => {
    const catalog = roleCatalog(BUILTIN_SUBAGENT_TYPES);
    const plan = buildPlan([{ task: 'one', role: 'explorer' }], catalog.resolve, catalog.names);
    const run = await runPlan(plan, 'call', new AbortController().signal, { catalog, runChild: async () => report('t1', 0.25, true), emit: () => {} });
    const [orchestration] = resultObject(summary({ orchestrations: [run] })).orchestrations as Array<{ totals: Record<string, unknown> }>;
    expect(orchestration!.totals).toMatchObject({ total_cost_usd: 0.25, cost_known: true });
  });
});

describe('unknown-cost children in stream-json', () => {
  it('gives subagent_end cost_usd null for an unknown model and the number for a known one', () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const renderer = createStreamJsonRenderer(out);
    const outcome = (subSid: string, costUsd: number, costKnown: boolean): SubagentOutcome => ({ subSid, type: 'explore', description: 'd', status: 'completed', turns: 1, usage: USAGE, costUsd, costKnown });
    renderer.onEvent({ type: 'subagent_end', outcome: outcome('unknown', 0, false), parentCallId: 'c1' });
    renderer.onEvent({ type: 'subagent_end', outcome: outcome('known', 0.0042, true), parentCallId: 'c2' });
    const lines = chunks.join('').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: 'subagent_end', sub_sid: 'unknown', cost_usd: null, cost_known: false });
    expect(lines[1]).toMatchObject({ type: 'subagent_end', sub_sid: 'known', cost_usd: 0.0042, cost_known: true });
  });
});
