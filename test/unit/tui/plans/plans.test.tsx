import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../../src/orchestrator/plan.js';
import { reviewRequest, type PlanDecision, type PlanReviewRequest } from '../../../../src/orchestrator/review.js';
import { roleCatalog } from '../../../../src/orchestrator/roles.js';
import type { OrchestrationEvent, TaskRecord, TaskSpec } from '../../../../src/orchestrator/types.js';
import type { SessionEvent } from '../../../../src/runtime/events.js';
import { BUILTIN_SUBAGENT_TYPES } from '../../../../src/subagents/builtin-types.js';
import { planLines } from '../../../../src/tui/commands/cost.js';
import { AgentsPanel } from '../../../../src/tui/components/AgentsPanel.js';
import { PlanReviewPrompt } from '../../../../src/tui/components/PlanReviewPrompt.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { initialSubagents, reduceSubagentEvents } from '../../../../src/tui/state/subagents.js';
import { flush, KEYS, renderAttached } from '../input/helpers.js';

const catalog = roleCatalog(BUILTIN_SUBAGENT_TYPES);
const SPECS: TaskSpec[] = [
  { id: 'a', task: 'look left', role: 'explorer' },
  { id: 'b', task: 'look right', role: 'explorer' },
  { id: 'fix', task: 'change it', role: 'editor', depends_on: ['a', 'b'] },
  { id: 'check', task: 'review it', role: 'reviewer', depends_on: ['fix'] },
];
const build = (specs: TaskSpec[]) => buildPlan(specs, catalog.resolve, catalog.names);
const request = (specs: TaskSpec[]): PlanReviewRequest => reviewRequest(build(specs), false, catalog.names, (next) => request(next));

const record = (id: string, role: string, over: Partial<TaskRecord> = {}): TaskRecord => ({
  id,
  role,
  status: 'completed',
  turns: 2,
  modelCalls: 2,
  toolCalls: 4,
  tokens: { prompt: 2000, completion: 500, cache_hit: 0 },
  costUsd: 0.002,
  ...over,
});

const START: OrchestrationEvent = {
  type: 'orchestration_start',
  callId: 'call-1',
  mode: 'graph',
  isolatedWriters: false,
  tasks: SPECS.map((spec) => ({ id: spec.id!, role: spec.role, task: spec.task, dependsOn: spec.depends_on ?? [] })),
};
const child = (subSid: string, label: string): SessionEvent => ({
  type: 'subagent_start',
  subSid,
  parentCallId: 'call-1',
  depth: 1,
  agentType: 'explorer',
  description: `${label}: x`,
  model: 'm',
  label,
});
const task = (taskId: string, status: 'running' | 'completed' | 'failed' | 'skipped', record?: TaskRecord): OrchestrationEvent => ({
  type: 'orchestration_task',
  callId: 'call-1',
  taskId,
  status,
  ...(record ? { record } : {}),
});

describe('plans in the terminal UI', () => {
  it('folds orchestration events into task statuses and links each task to its child', () => {
    const state = reduceSubagentEvents(
      initialSubagents(),
      [START, task('a', 'running'), child('20261122-000000-aaaaaa', 'a'), task('a', 'completed', record('a', 'explorer')), task('b', 'failed', record('b', 'explorer', { status: 'failed', reason: 'timeout' })), task('fix', 'skipped', record('fix', 'editor', { status: 'skipped', hint: 'b failed' }))],
      0,
    );
    const plan = state.plans[0]!;
    expect(plan.tasks.map((t) => [t.id, t.status, t.subSid ?? '', t.reason ?? ''])).toEqual([
      ['a', 'completed', '20261122-000000-aaaaaa', ''],
      ['b', 'failed', '', 'timeout'],
      ['fix', 'skipped', '', 'b failed'],
      ['check', 'pending', '', ''],
    ]);
  });

  it('/agents shows the latest plan as a graph with live status above the children', async () => {
    const state = reduceSubagentEvents(initialSubagents(), [START, task('a', 'completed', record('a', 'explorer')), task('b', 'running')], 0);
    const view = await renderAttached(<AgentsPanel state={state} width={90} color={false} onKill={() => true} onClose={() => {}} />);
    const lines = stripAnsi(view.lastFrame() ?? '').split('\n').map((line) => line.replace(/^│ /, '').replace(/ *│$/, ''));
    expect(lines.slice(2, 7)).toEqual([
      'Plan · graph · 1/4 done',
      '  ✓ a     explorer look left',
      '  ⟳ b     explorer look right',
      '  ◌ fix   editor   change it  ← a, b',
      '  ◌ check reviewer review it  ← fix',
    ]);
  });

  it('the review prompt runs the plan as shown on Enter', async () => {
    const decisions: PlanDecision[] = [];
    const view = await renderAttached(<PlanReviewPrompt request={request(SPECS)} width={90} color={false} onDecide={(d) => decisions.push(d)} />);
    const frame = stripAnsi(view.lastFrame() ?? '');
    expect(frame).toContain('Run this plan? (4 subagent tasks)');
    expect(frame).toContain('runs as: [a ∥ b] → fix → check');
    view.stdin.write(KEYS.enter);
    await flush();
    // A graph keeps every task's depends_on, an empty one too (see specsOf).
    expect(decisions).toEqual([{ kind: 'run', tasks: SPECS.map(({ id, task, role, depends_on }) => ({ id, task, role, depends_on: depends_on ?? [] })) }]);
  });

  it('d drops the selected task (its dependants stop waiting for it), r changes a role, n rejects', async () => {
    const decisions: PlanDecision[] = [];
    const view = await renderAttached(<PlanReviewPrompt request={request(SPECS)} width={90} color={false} onDecide={(d) => decisions.push(d)} />);
    view.stdin.write(KEYS.down); // b
    await flush();
    view.stdin.write('d');
    await flush();
    expect(stripAnsi(view.lastFrame() ?? '')).toContain('dropped b');
    expect(stripAnsi(view.lastFrame() ?? '')).toContain('runs as: a → fix → check');
    view.stdin.write(KEYS.down); // fix (b is gone, the cursor stays at row 2)
    await flush();
    view.stdin.write('r');
    await flush();
    expect(stripAnsi(view.lastFrame() ?? '')).toContain('check is now general-purpose');
    view.stdin.write('y');
    await flush();
    expect(decisions[0]).toEqual({
      kind: 'run',
      tasks: [
        { id: 'a', task: 'look left', role: 'explorer', depends_on: [] },
        { id: 'fix', task: 'change it', role: 'editor', depends_on: ['a'] },
        { id: 'check', task: 'review it', role: 'general-purpose', depends_on: ['fix'] },
      ],
    });
    const second = await renderAttached(<PlanReviewPrompt request={request(SPECS)} width={90} color={false} onDecide={(d) => decisions.push(d)} />);
    second.stdin.write('n');
    await flush();
    expect(decisions[1]).toEqual({ kind: 'reject' });
  });

  it('/cost lists every task of an ended plan with its calls, tokens and cost', () => {
    const records = [record('a', 'explorer'), record('b', 'explorer', { reused: true }), record('fix', 'editor', { status: 'failed', reason: 'merge_conflict' }), record('check', 'reviewer', { status: 'skipped' })];
    const state = reduceSubagentEvents(
      initialSubagents(),
      [START, { type: 'orchestration_end', summary: { callId: 'call-1', mode: 'graph', status: 'partial', records, totals: { tasks: 4, completed: 2, failed: 1, skipped: 1, canceled: 0, turns: 6, modelCalls: 6, toolCalls: 12, tokens: { prompt: 6000, completion: 1500, cache_hit: 0 }, costUsd: 0.006 } } }],
      0,
    );
    expect(planLines(state)).toEqual([
      'Plans (delegate_tasks)',
      '  graph plan, partial: 2/4 completed · 6 model calls · 12 tool calls · 7.5k tok · $0.0060',
      '    a explorer completed: 2 model calls · 4 tool calls · 2.5k tok · $0.0020',
      '    b explorer completed: reused from an earlier run',
      '    fix editor failed (merge_conflict): 2 model calls · 4 tool calls · 2.5k tok · $0.0020',
      '    check reviewer skipped: not run',
    ]);
  });
});
