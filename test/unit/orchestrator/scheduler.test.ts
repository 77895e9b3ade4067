/**
 * The scheduler with fake children and fake git: what runs when, what each child is told, and how
 * failures, merges, the journal and cancellation shape the outcome.
 */
import { describe, expect, it } from 'vitest';
import { runPlan, type ChangeTracking, type ChildRequest, type Journal } from '../../../src/orchestrator/orchestrator.js';
import { buildPlan } from '../../../src/orchestrator/plan.js';
import { roleCatalog } from '../../../src/orchestrator/roles.js';
import type { OrchestrationEvent, TaskRecord, TaskSpec } from '../../../src/orchestrator/types.js';
import type { ChildReport } from '../../../src/subagents/child-report.js';
import { BUILTIN_SUBAGENT_TYPES } from '../../../src/subagents/builtin-types.js';
import type { CleanupOutcome } from '../../../src/worktree/types.js';

const catalog = roleCatalog(BUILTIN_SUBAGENT_TYPES);
const plan = (specs: TaskSpec[]) => buildPlan(specs, catalog.resolve, catalog.names);
const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

function report(summary: string, over: Partial<ChildReport> = {}): ChildReport {
  return {
    result: { content: `[agent: completed] ${summary}` },
    status: 'completed',
    summary,
    subSid: `sub-${summary}`,
    turns: 1,
    modelCalls: 1,
    toolCalls: 2,
    tokens: { prompt: 100, completion: 10, cache_hit: 0 },
    costUsd: 0.01,
    ...over,
  };
}
const failedReport = (reason: 'timeout'): ChildReport => ({
  result: { content: `[agent: failed reason=${reason}] out of time`, isError: true },
  status: 'failed',
  reason,
  turns: 3,
  modelCalls: 3,
  toolCalls: 1,
  tokens: { prompt: 5, completion: 5, cache_hit: 0 },
  costUsd: 0,
});

function harness(child: (request: ChildRequest) => Promise<ChildReport>, extra: { changes?: ChangeTracking; journal?: Journal } = {}) {
  const prompts = new Map<string, string>();
  const events: OrchestrationEvent[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const options = {
    catalog,
    runChild: async (request: ChildRequest) => {
      prompts.set(request.task.id, request.prompt);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await child(request);
      } finally {
        inFlight--;
      }
    },
    emit: (event: OrchestrationEvent) => events.push(event),
    ...extra,
  };
  return { options, prompts, events, max: () => maxInFlight };
}

describe('runPlan', () => {
  it('runs a serial plan in order, each prompt holding every earlier result', async () => {
    const h = harness(async (request) => report(`result of ${request.task.id}`));
    const summary = await runPlan(plan([{ task: 'one', role: 'explorer' }, { task: 'two', role: 'explorer' }, { task: 'three', role: 'explorer' }]), 'call', new AbortController().signal, h.options);
    expect(summary.status).toBe('completed');
    expect(h.max()).toBe(1);
    expect(h.prompts.get('t1')).not.toContain('## Results of earlier tasks');
    expect(h.prompts.get('t2')).toContain('## Results of earlier tasks\n\n### t1 (explorer)\nresult of t1');
    expect(h.prompts.get('t3')).toContain('### t1 (explorer)\nresult of t1\n\n### t2 (explorer)\nresult of t2');
    expect(summary.totals).toMatchObject({ tasks: 3, completed: 3, modelCalls: 3, toolCalls: 6, tokens: { prompt: 300, completion: 30 } });
  });

  it('runs independent tasks together; a dependant gets only its dependencies, after them', async () => {
    const h = harness(async (request) => {
      await tick(20);
      return report(`result of ${request.task.id}`);
    });
    await runPlan(
      plan([
        { id: 'a', task: 'x', role: 'explorer' },
        { id: 'b', task: 'y', role: 'explorer' },
        { id: 'c', task: 'z', role: 'explorer' },
        { id: 'r', task: 'v', role: 'reviewer', depends_on: ['a', 'b'] },
      ]),
      'call',
      new AbortController().signal,
      h.options,
    );
    expect(h.max()).toBe(3);
    const review = h.prompts.get('r')!;
    expect(review).toContain('### a (explorer)\nresult of a\n\n### b (explorer)\nresult of b');
    expect(review).not.toContain('result of c');
    const order = h.events.filter((e) => e.type === 'orchestration_task').map((e) => e.type === 'orchestration_task' && `${e.taskId}:${e.status}`);
    expect(order.indexOf('r:running')).toBeGreaterThan(Math.max(order.indexOf('a:completed'), order.indexOf('b:completed')));
  });

  it('a failed task skips its dependants (and theirs), while independent branches go on', async () => {
    const h = harness(async (request) => (request.task.id === 'bad' ? failedReport('timeout') : report(request.task.id)));
    const summary = await runPlan(
      plan([
        { id: 'bad', task: 'x', role: 'explorer' },
        { id: 'ok', task: 'y', role: 'explorer' },
        { id: 'after-bad', task: 'z', role: 'explorer', depends_on: ['bad'] },
        { id: 'after-after', task: 'w', role: 'explorer', depends_on: ['after-bad'] },
        { id: 'after-ok', task: 'v', role: 'explorer', depends_on: ['ok'] },
      ]),
      'call',
      new AbortController().signal,
      h.options,
    );
    expect(summary.status).toBe('partial');
    expect(summary.records.map((r) => [r.id, r.status, r.reason ?? r.hint ?? ''])).toEqual([
      ['bad', 'failed', 'timeout'],
      ['ok', 'completed', ''],
      ['after-bad', 'skipped', 'bad failed'],
      ['after-after', 'skipped', 'after-bad skipped'],
      ['after-ok', 'completed', ''],
    ]);
    expect([...h.prompts.keys()].sort()).toEqual(['after-ok', 'bad', 'ok']);
  });

  it('reuses completed tasks from the journal and records new ones', async () => {
    const p = plan([{ task: 'one', role: 'explorer' }, { task: 'two', role: 'explorer' }]);
    const done: TaskRecord = { id: 't1', role: 'explorer', status: 'completed', summary: 'old result', turns: 4, modelCalls: 4, toolCalls: 4, tokens: { prompt: 9, completion: 9, cache_hit: 0 }, costUsd: 1 };
    const written: TaskRecord[] = [];
    const journal: Journal = {
      completed: (hash) => (hash === p.hash ? new Map([['t1', done]]) : new Map()),
      record: (_hash, _call, record) => written.push(record),
    };
    const h = harness(async (request) => report(`fresh ${request.task.id}`), { journal });
    const summary = await runPlan(p, 'call', new AbortController().signal, h.options);
    expect([...h.prompts.keys()]).toEqual(['t2']);
    expect(h.prompts.get('t2')).toContain('### t1 (explorer)\nold result');
    expect(summary.records[0]).toMatchObject({ id: 't1', reused: true });
    expect(written.map((r) => r.id)).toEqual(['t2']);
    expect(summary.totals.modelCalls).toBe(1); // the reused task is not billed again
  });

  it('gives overlapping writers worktrees, merges them in plan order, and fails a conflict without running dependants', async () => {
    const merges: string[] = [];
    const changes: ChangeTracking = {
      snapshotTree: async (dir) => `tree-of-${dir ?? 'main'}`,
      diffTrees: async (from, to) => `diff ${from}..${to}`,
      treeChanges: async () => 0,
      cleanup: async (path, how): Promise<CleanupOutcome> => {
        merges.push(`${how}:${path}`);
        if (path === '/wt/e2') return { kind: 'merge_conflict', result: '[worktree: merge_conflict files=1]\nx.ts', report: { files: ['x.ts'], hunks: [], message: 'conflict' } };
        return { kind: 'merged', result: '[worktree: merged]', branch: 'b', commit: path === '/wt/e1' ? 'e1e1e1e1e1e1e1e1' : 'e2e2e2e2e2e2e2e2' };
      },
    };
    const isolatedFlags: boolean[] = [];
    const h = harness(
      async (request) => {
        isolatedFlags.push(request.isolate);
        await tick(request.task.id === 'e1' ? 40 : 5); // e1 finishes last but merges first
        return report(request.task.id, { worktree: { id: request.task.id, path: `/wt/${request.task.id}`, branch: `seek/wt/${request.task.id}`, base: 'base' } });
      },
      { changes },
    );
    const summary = await runPlan(
      plan([
        { id: 'e1', task: 'x', role: 'editor' },
        { id: 'e2', task: 'y', role: 'editor' },
        { id: 'r', task: 'z', role: 'reviewer', depends_on: ['e1'] },
        { id: 'r2', task: 'w', role: 'reviewer', depends_on: ['e2'] },
      ].map((spec, i) => (i < 2 ? { ...spec, depends_on: [] } : spec)) as TaskSpec[]),
      'call',
      new AbortController().signal,
      h.options,
    );
    expect(isolatedFlags.slice(0, 2)).toEqual([true, true]);
    expect(merges).toEqual(['merge:/wt/e1', 'merge:/wt/e2']);
    const byId = Object.fromEntries(summary.records.map((r) => [r.id, r]));
    expect(byId.e1).toMatchObject({ status: 'completed', merge: { commit: 'e1e1e1e1e1e1e1e1' }, diff: 'diff base..tree-of-/wt/e1' });
    expect(byId.e2).toMatchObject({ status: 'failed', reason: 'merge_conflict', worktree: { path: '/wt/e2', kept: true } });
    expect(byId.r2).toMatchObject({ status: 'skipped', hint: 'e2 failed' });
    expect(h.prompts.get('r')).toContain('## Changes to review\n\n### e1 (editor) merged as e1e1e1e1e1e1\ndiff base..tree-of-/wt/e1');
  });

  it('runs writers one at a time in the working tree when there is no git, diffing nothing', async () => {
    const h = harness(async (request) => {
      await tick(10);
      return report(request.task.id);
    });
    await runPlan(plan([{ id: 'a', task: 'x', role: 'editor', depends_on: [] }, { id: 'b', task: 'y', role: 'editor', depends_on: [] }, { id: 'c', task: 'z', role: 'explorer', depends_on: [] }].map((s) => ({ ...s, depends_on: s.id === 'c' ? ['a'] : [] }))), 'call', new AbortController().signal, h.options);
    expect(h.max()).toBe(2); // b waits for a (writers take turns); the explorer c may overlap b
  });

  it('on cancel, running children end cancelled and tasks not started are reported as cancelled', async () => {
    const controller = new AbortController();
    const h = harness(async (request) => {
      if (request.task.id === 't1') {
        controller.abort();
        return { ...failedReport('timeout'), reason: 'canceled', status: 'failed' } as ChildReport;
      }
      return report(request.task.id);
    });
    const summary = await runPlan(plan([{ task: 'one', role: 'explorer' }, { task: 'two', role: 'explorer' }]), 'call', controller.signal, h.options);
    expect(summary.status).toBe('canceled');
    expect(summary.records.map((r) => [r.status, r.hint])).toEqual([
      ['canceled', 'out of time'],
      ['canceled', 'not started: the orchestration was cancelled'],
    ]);
  });
});
