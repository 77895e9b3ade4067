import { describe, expect, it } from 'vitest';
import { formatResult } from '../../../../src/orchestrator/result.js';
import type { OrchestrationSummary, TaskRecord } from '../../../../src/orchestrator/types.js';
import { toolRowLines, type ToolItem } from '../../../../src/tui/components/conversation/index.js';
import { parsePlanResult } from '../../../../src/tui/components/conversation/plan-lines.js';
import { linesToString } from '../../../../src/tui/markdown/ansi.js';

const STATS = { turns: 2, modelCalls: 2, toolCalls: 3, tokens: { prompt: 900, completion: 100, cache_hit: 0 }, costUsd: 0.01 };

function record(overrides: Partial<TaskRecord> & Pick<TaskRecord, 'id' | 'role' | 'status'>): TaskRecord {
  return { ...STATS, ...overrides };
}

const SUMMARY: OrchestrationSummary = {
  callId: 'call-plan',
  mode: 'graph',
  status: 'partial',
  records: [
    record({ id: 'map-parser', role: 'explorer', status: 'completed', summary: 'The parser lives in src/parse.ts.\nMore detail follows.', subSid: 'x-a1b2c3' }),
    record({ id: 'fix', role: 'coder', status: 'failed', reason: 'timeout', hint: 'ran out of time after 10 minutes' }),
    record({ id: 'review', role: 'reviewer', status: 'skipped', hint: 'fix failed', turns: 0 }),
  ],
  totals: { tasks: 3, completed: 1, failed: 1, skipped: 1, canceled: 0, turns: 4, modelCalls: 4, toolCalls: 6, tokens: { prompt: 1800, completion: 200, cache_hit: 0 }, costUsd: 0.02 },
};

describe('a finished delegate_tasks row', () => {
  it('summarises the plan by task: id, role, status and the first line of its result', () => {
    const item: ToolItem = { kind: 'tool', id: 'call-plan', name: 'delegate_tasks', summary: 'map and fix the parser', status: 'done', durationMs: 62_000, output: formatResult(SUMMARY) };
    const rows = linesToString(toolRowLines(item, { width: 100, detail: false, color: false }), false).split('\n');
    expect(rows).toEqual([
      '✓ delegate_tasks map and fix the parser  1m 2s',
      '  └ partial · 3 tasks (graph): 1 completed, 1 failed, 1 skipped',
      '    ✓ map-parser explorer  The parser lives in src/parse.ts.',
      '    ✗ fix        coder     failed reason=timeout · ran out of time after 10 minutes',
      '    ⊘ review     reviewer  skipped · not run: its dependency fix failed',
    ]);
  });

  it('is not taken for a plan when the output is something else', () => {
    expect(parsePlanResult('The user declined: delegate_tasks.')).toBeNull();
  });
});
