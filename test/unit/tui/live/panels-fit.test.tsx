import { afterEach, describe, expect, it } from 'vitest';
import type { EntryInput, MemoryEntry } from '../../../../src/memory/entry.js';
import { DistillReview } from '../../../../src/tui/components/DistillReview.js';
import { MemoryPanel } from '../../../../src/tui/components/MemoryPanel.js';
import { Picker } from '../../../../src/tui/components/Picker.js';
import { TodoPanel } from '../../../../src/tui/components/TodoPanel.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import type { MemoryPanelSource, MemoryRow } from '../../../../src/tui/state/memory.js';
import { flush, KEYS, renderAttached, waitFor } from '../input/helpers.js';
import { render } from 'ink-testing-library';
import { buildPlan } from '../../../../src/orchestrator/plan.js';
import { reviewRequest, type PlanReviewRequest } from '../../../../src/orchestrator/review.js';
import { roleCatalog } from '../../../../src/orchestrator/roles.js';
import type { TaskSpec } from '../../../../src/orchestrator/types.js';
import { BUILTIN_SUBAGENT_TYPES } from '../../../../src/subagents/builtin-types.js';
import { PlanReviewPrompt } from '../../../../src/tui/components/PlanReviewPrompt.js';

const mounted: Array<{ unmount: () => void }> = [];
afterEach(() => mounted.splice(0).forEach((view) => view.unmount()));
const rowsOf = (view: { lastFrame: () => string | undefined }) => stripAnsi(view.lastFrame() ?? '').split('\n');

const memoryRow = (index: number): MemoryRow => ({
  entry: { name: `entry-${index}` } as unknown as MemoryEntry,
  name: `entry-${index}`,
  tagline: `tagline ${index}`,
  content: Array.from({ length: 40 }, (_, line) => `content line ${line}`).join('\n'),
  tags: [],
  status: 'active',
  score: 1,
  recalls: 0,
  createdAt: new Date().toISOString(),
  pinned: false,
  unconfirmed: false,
});

describe('panels fit the rows they are given', () => {
  it('/memory: the list and an entry in full stay within maxRows', async () => {
    const rows = Array.from({ length: 30 }, (_, index) => memoryRow(index));
    const source: MemoryPanelSource = { list: async () => rows, archive: async () => '', restore: async () => '', pin: async () => '' };
    const view = await renderAttached(<MemoryPanel source={source} width={80} color={false} onClose={() => {}} maxRows={15} />);
    mounted.push(view);
    await waitFor(() => expect(rowsOf(view).join('\n')).toContain('entry-0'));
    expect(rowsOf(view).length).toBeLessThanOrEqual(15);
    view.stdin.write(KEYS.enter);
    await waitFor(() => expect(rowsOf(view).join('\n')).toContain('content line 0'));
    expect(rowsOf(view).length).toBeLessThanOrEqual(15);
    expect(rowsOf(view).join('\n')).not.toContain('content line 39');
  });

  it('/distill: long content is wrapped and cut to the rows, with a count of the rest', async () => {
    const candidate: EntryInput = { name: 'long-one', tagline: 'a long one', content: Array.from({ length: 30 }, (_, index) => `${'word '.repeat(30)}${index}`).join('\n') } as EntryInput;
    const view = await renderAttached(<DistillReview candidates={[candidate]} width={60} color={false} onSave={async () => {}} onDone={() => {}} maxRows={16} />);
    mounted.push(view);
    await flush();
    expect(rowsOf(view).length).toBeLessThanOrEqual(16);
    expect(rowsOf(view).join('\n')).toMatch(/… \d+ more lines \(e shows them all\)/);
  });

  it('a picker shows fewer entries when its rows are few', async () => {
    const items = Array.from({ length: 20 }, (_, index) => ({ value: `v${index}`, label: `item ${index}` }));
    const view = await renderAttached(<Picker spec={{ title: 'Pick', items, onSelect: () => {} }} width={60} color={false} onDone={() => {}} maxRows={7} />);
    mounted.push(view);
    expect(rowsOf(view).length).toBeLessThanOrEqual(7);
    expect(rowsOf(view).join('\n')).toContain('item 0');
  });

  it('the todo list keeps its current item in view and counts the hidden ones', () => {
    const items = Array.from({ length: 10 }, (_, index) => ({ content: `task ${index}`, status: index < 5 ? ('completed' as const) : index === 5 ? ('in_progress' as const) : ('pending' as const) }));
    const view = render(<TodoPanel items={items} width={60} color={false} maxRows={4} />);
    mounted.push(view);
    const rows = rowsOf(view);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toBe('Todos 5/10 (5 above, 2 below)');
    expect(rows[1]).toContain('◐ task 5');
  });

  it('a plan review of 20 tasks shows a window that follows the selection, within maxRows', async () => {
    const catalog = roleCatalog(BUILTIN_SUBAGENT_TYPES);
    const specs: TaskSpec[] = Array.from({ length: 20 }, (_, index) => ({ id: `t${index}`, task: `look at part ${index}`, role: 'explorer' }));
    const request = (tasks: TaskSpec[]): PlanReviewRequest => reviewRequest(buildPlan(tasks, catalog.resolve, catalog.names), false, catalog.names, (next) => request(next));
    const view = await renderAttached(<PlanReviewPrompt request={request(specs)} width={80} color={false} onDecide={() => {}} maxRows={14} />);
    mounted.push(view);
    expect(rowsOf(view).length).toBeLessThanOrEqual(14);
    expect(rowsOf(view).join('\n')).toMatch(/↓ \d+ more/);
    for (let index = 0; index < 15; index++) {
      view.stdin.write(KEYS.down);
      await flush();
    }
    expect(rowsOf(view).length).toBeLessThanOrEqual(14);
    expect(rowsOf(view).join('\n')).toMatch(/❯ . t15 /);
    expect(rowsOf(view).join('\n')).toMatch(/↑ \d+ more · ↓ \d+ more/);
  });
});
