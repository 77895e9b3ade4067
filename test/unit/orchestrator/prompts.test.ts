import { describe, expect, it } from 'vitest';
import { capSummary, CHANGES_HEADING, fitSections, parseVerdict, RESULTS_HEADING, taskPrompt } from '../../../src/orchestrator/prompts.js';
import { formatResult } from '../../../src/orchestrator/result.js';
import { totalsOf } from '../../../src/orchestrator/orchestrator.js';
import { MAX_PROMPT_BYTES } from '../../../src/subagents/result-format.js';
import type { PlanTask, TaskRecord } from '../../../src/orchestrator/types.js';

const task = (over: Partial<PlanTask> = {}): PlanTask => ({ id: 't3', index: 2, task: 'Check the change', role: 'reviewer', kind: 'reader', reviews: false, dependsOn: [], ...over });
const record = (over: Partial<TaskRecord>): TaskRecord => ({
  id: 't1',
  role: 'explorer',
  status: 'completed',
  summary: 'found it',
  turns: 2,
  modelCalls: 2,
  toolCalls: 3,
  tokens: { prompt: 1000, completion: 100, cache_hit: 600 },
  costUsd: 0.001,
  ...over,
});

describe('taskPrompt', () => {
  it('gives the goal, the task, then earlier results under the seed heading in plan order', () => {
    const prompt = taskPrompt({ goal: 'Ship it', task: task({ reviews: false }), inputs: [record({ id: 't1', summary: 'A' }), record({ id: 't2', role: 'editor', summary: 'B' })] });
    expect(prompt).toBe(['## Goal', 'Ship it', '', '## Your task (t3, reviewer)', 'Check the change', '', RESULTS_HEADING, '', '### t1 (explorer)\nA\n\n### t2 (editor)\nB'].join('\n'));
  });

  it('gives a reviewer the diffs of the editors it depends on, and the verdict rule', () => {
    const editor = record({ id: 'e', role: 'editor', summary: 'changed a.ts', diff: ' a.ts | 2 +-\n\n-old\n+new\n', merge: { commit: 'abcdef1234567890' } });
    const prompt = taskPrompt({ task: task({ reviews: true }), inputs: [editor], changes: [editor] });
    expect(prompt).toContain(`${CHANGES_HEADING}\n\n### e (editor) merged as abcdef123456\n a.ts | 2 +-`);
    expect(prompt.endsWith('each with path:line and a suggested fix.')).toBe(true);
  });

  it('stays under the child prompt limit, cutting the long inputs and keeping the short ones whole', () => {
    const long = 'x'.repeat(40_000);
    const prompt = taskPrompt({ task: task({ reviews: true }), inputs: [record({ id: 'a', summary: 'short one' }), record({ id: 'b', summary: long })], changes: [record({ id: 'c', role: 'editor', diff: long })] });
    expect(Buffer.byteLength(prompt)).toBeLessThanOrEqual(MAX_PROMPT_BYTES);
    expect(prompt).toContain('### a (explorer)\nshort one');
    expect(prompt.match(/… \(cut to fit;/g)).toHaveLength(2);
  });

  it('fitSections shares the budget: small sections whole, the rest equally', () => {
    const out = fitSections(
      [
        { title: 'A', body: 'a'.repeat(10), whole: 'w' },
        { title: 'B', body: 'b'.repeat(1000), whole: 'w' },
        { title: 'C', body: 'c'.repeat(1000), whole: 'w' },
      ],
      600,
    );
    expect(out[0]).toBe(`A\n${'a'.repeat(10)}`);
    for (const section of out.slice(1)) expect(Buffer.byteLength(section) + 2).toBeLessThanOrEqual(Math.floor((600 - 14) / 2));
  });

  it('caps summaries at 4096 bytes with a pointer to the transcript', () => {
    const capped = capSummary('é'.repeat(5000), '/t.jsonl');
    expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(4096);
    expect(capped.endsWith('…(truncated) full text: /t.jsonl')).toBe(true);
  });
});

describe('parseVerdict', () => {
  it('reads approve, counts listed problems, and says none without a verdict line', () => {
    expect(parseVerdict('Looks fine.\nVERDICT: approve')).toEqual({ kind: 'approve' });
    expect(parseVerdict('**VERDICT: Approved**')).toEqual({ kind: 'approve' });
    expect(parseVerdict('VERDICT: problems\n1. a.ts:3 off by one\n2. no test\n- b.ts:9 typo')).toEqual({ kind: 'problems', count: 3 });
    expect(parseVerdict('VERDICT: problems')).toEqual({ kind: 'problems', count: 1 });
    expect(parseVerdict('all good')).toEqual({ kind: 'none' });
  });
});

describe('formatResult', () => {
  it('says the status, one key=value line per task, each body, then totals without reused work', () => {
    const records = [
      record({ id: 'find', reused: true }),
      record({ id: 'fix', role: 'editor', summary: 'edited', worktree: { path: '/wt', branch: 'seek/wt/x', kept: false }, merge: { commit: 'c0ffee' } }),
      record({ id: 'check', role: 'reviewer', summary: 'VERDICT: approve', verdict: { kind: 'approve' } }),
      record({ id: 'boom', role: 'editor', status: 'failed', reason: 'timeout', hint: 'ran out of time', summary: undefined }),
      { ...record({ id: 'after', status: 'skipped', hint: 'boom failed', summary: undefined }), turns: 0, modelCalls: 0, toolCalls: 0, tokens: { prompt: 0, completion: 0, cache_hit: 0 }, costUsd: 0 },
    ];
    const text = formatResult({ callId: 'c', mode: 'graph', status: 'partial', records, totals: totalsOf(records) });
    expect(text.split('\n').slice(0, 6)).toEqual([
      '[delegate_tasks: partial] 5 tasks (graph): 3 completed, 1 failed, 1 skipped',
      'find explorer completed turns=2 model_calls=2 tool_calls=3 tokens=1100 reused',
      'fix editor completed turns=2 model_calls=2 tool_calls=3 tokens=1100',
      'check reviewer completed verdict=approve turns=2 model_calls=2 tool_calls=3 tokens=1100',
      'boom editor failed reason=timeout turns=2 model_calls=2 tool_calls=3 tokens=1100',
      'after explorer skipped (boom failed)',
    ]);
    expect(text).toContain('## fix (editor) completed\nedited\n— merged branch seek/wt/x as c0ffee');
    expect(text).toContain('## boom (editor) failed\nran out of time');
    expect(text).toContain('## after (explorer) skipped\nnot run: its dependency boom failed');
    expect(text.endsWith('totals: turns=6 model_calls=6 tool_calls=9 tokens=3300')).toBe(true);
  });
});
