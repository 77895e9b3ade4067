import { describe, expect, it } from 'vitest';
import type { EntryInput, MemoryEntry } from '../../../../src/memory/entry.js';
import { DistillReview } from '../../../../src/tui/components/DistillReview.js';
import { MemoryPanel } from '../../../../src/tui/components/MemoryPanel.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { memoryPanelSource, type MemoryPanelSource, type MemoryRow } from '../../../../src/tui/state/memory.js';
import { rememberEntry, setPinned } from '../../../../src/memory/operations.js';
import { flush, KEYS, renderAttached, waitFor } from '../input/helpers.js';
import { tempStore } from '../../memory/helpers.js';

const row = (name: string, over: Partial<MemoryRow> = {}): MemoryRow => ({
  entry: { name, tagline: `${name} tagline`, content: `${name} content`, tags: [] } as unknown as MemoryEntry,
  name,
  tagline: `${name} tagline`,
  content: `${name} content\nsecond line`,
  tags: [],
  status: 'active',
  score: 0.9,
  recalls: 2,
  createdAt: new Date().toISOString(),
  pinned: false,
  unconfirmed: false,
  ...over,
});

function fakeSource(rows: MemoryRow[]) {
  const calls: string[] = [];
  const source: MemoryPanelSource = {
    list: async () => rows,
    archive: async (name, reason) => (calls.push(`archive ${name}: ${reason}`), `archived "${name}" (reason: ${reason})`),
    restore: async (name) => (calls.push(`restore ${name}`), `restored "${name}"`),
    pin: async (name, pinned) => (calls.push(`pin ${name} ${pinned}`), `${pinned ? 'pinned' : 'unpinned'} "${name}"`),
  };
  return { source, calls };
}

describe('/memory panel', () => {
  it('lists entries with score, recalls, age and flags; Enter shows one in full', async () => {
    const { source } = fakeSource([row('use-pnpm', { pinned: true }), row('old', { status: 'stale', score: 0.3 }), row('gone', { status: 'archived', score: undefined, reason: 'replaced' })]);
    const view = await renderAttached(<MemoryPanel source={source} width={90} color={false} onClose={() => {}} />);
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    await waitFor(() => expect(frame()).toContain('Project memory 1 active · 1 stale · 1 archived'));
    expect(frame()).toMatch(/❯ use-pnpm\s+0\.90\s+2×\s+0s \[pinned\] use-pnpm tagline/);
    expect(frame()).toMatch(/old\s+0\.30\s+2×\s+0s \[stale\] old tagline/);
    expect(frame()).toMatch(/gone\s+-\s+2×\s+0s \[archived\] gone tagline/);
    // Column titles above the rows, each over its column.
    const rows = frame().split('\n');
    const head = rows.find((line) => line.includes('score recalls'))!;
    expect(head).toMatch(/name +score recalls +age about/);
    const first = rows.find((line) => line.includes('use-pnpm tagline'))!;
    expect(first.indexOf('0.90') + 4).toBe(head.indexOf('score') + 5);
    expect(first.indexOf('2×') + 2).toBe(head.indexOf('recalls') + 7);
    expect(first.indexOf('0s') + 2).toBe(head.indexOf('age') + 3);
    view.stdin.write(KEYS.enter);
    await waitFor(() => expect(frame()).toContain('use-pnpm content'));
    expect(frame()).toContain('score 0.90 · recalled 2× · created');
  });

  it('/ filters, p pins, a archives with a typed reason, r restores an archived entry', async () => {
    const { source, calls } = fakeSource([row('use-pnpm'), row('api-errors'), row('gone', { status: 'archived', score: undefined })]);
    const view = await renderAttached(<MemoryPanel source={source} width={90} color={false} onClose={() => {}} />);
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    await waitFor(() => expect(frame()).toContain('use-pnpm'));
    for (const key of ['/', 'a', 'p', 'i', KEYS.enter]) {
      view.stdin.write(key);
      await flush();
    }
    expect(frame()).not.toContain('use-pnpm');
    view.stdin.write('p');
    await waitFor(() => expect(frame()).toContain('pinned "api-errors"')); // keys wait while an action runs
    expect(calls).toEqual(['pin api-errors true']);
    view.stdin.write('a');
    await flush();
    for (const char of 'no longer true') {
      view.stdin.write(char);
    }
    await flush();
    expect(frame()).toContain('archive api-errors: why? no longer true');
    view.stdin.write(KEYS.enter);
    await waitFor(() => expect(frame()).toContain('archived "api-errors" (reason: no longer true)'));
    expect(calls).toContain('archive api-errors: no longer true');
    view.stdin.write(KEYS.escape); // clears the filter
    await flush();
    view.stdin.write(KEYS.down);
    await flush();
    view.stdin.write(KEYS.down);
    await flush();
    view.stdin.write('r');
    await waitFor(() => expect(calls).toContain('restore gone'));
  });

  it('takes a reason typed together with Enter in one read as the reason, then archives', async () => {
    const { source, calls } = fakeSource([row('api-errors')]);
    const view = await renderAttached(<MemoryPanel source={source} width={90} color={false} onClose={() => {}} />);
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    await waitFor(() => expect(frame()).toContain('api-errors'));
    view.stdin.write('a');
    await flush();
    view.stdin.write('replaced by problem details\r'); // one read, as a busy terminal delivers it
    await waitFor(() => expect(calls).toContain('archive api-errors: replaced by problem details'));
  });

  it('the real source orders pinned first, then by score, and shows the archive after', async () => {
    const { store, advance } = tempStore();
    await rememberEntry(store, { name: 'old', tagline: 't', content: 'c' });
    advance(20);
    await rememberEntry(store, { name: 'new', tagline: 't', content: 'c' });
    await rememberEntry(store, { name: 'pinned', tagline: 't', content: 'c' });
    await setPinned(store, 'pinned', true);
    const source = memoryPanelSource(store, 30);
    await source.archive('new', 'testing');
    expect((await source.list()).map((r) => [r.name, r.status])).toEqual([['pinned', 'active'], ['old', 'active'], ['new', 'archived']]);
  });
});

describe('/distill review', () => {
  const CANDIDATES: EntryInput[] = [
    { name: 'use-pnpm', tagline: 'pnpm workspaces', content: 'because npm hoisting broke builds' },
    { name: 'tests-first', tagline: 'tests with new code', content: 'agreed in review' },
    { name: 'third', tagline: 't', content: 'c' },
  ];

  it('y saves, n drops, e edits the content before saving, q skips the rest', async () => {
    const saved: EntryInput[] = [];
    let done = '';
    const view = await renderAttached(<DistillReview candidates={CANDIDATES} width={90} color={false} onSave={async (c) => void saved.push(c)} onDone={(s) => (done = s)} />);
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    expect(frame()).toContain('⚡ distill candidate 1/3: use-pnpm');
    view.stdin.write('e');
    await flush();
    view.stdin.write(' and pnpm is faster');
    await flush();
    view.stdin.write(KEYS.enter);
    await waitFor(() => expect(frame()).toContain('edited: y saves it'));
    view.stdin.write('y');
    await waitFor(() => expect(frame()).toContain('candidate 2/3: tests-first'));
    expect(saved).toEqual([{ ...CANDIDATES[0], content: 'because npm hoisting broke builds and pnpm is faster' }]);
    view.stdin.write('n');
    await waitFor(() => expect(frame()).toContain('candidate 3/3: third'));
    view.stdin.write('q');
    await waitFor(() => expect(done).toBe('distill review done: 1 saved, 1 dropped, 1 skipped'));
    expect(saved).toHaveLength(1);
  });
});
