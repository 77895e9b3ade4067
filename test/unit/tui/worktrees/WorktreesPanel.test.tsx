import { describe, expect, it } from 'vitest';
import { WorktreesPanel } from '../../../../src/tui/components/WorktreesPanel.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import type { WorktreePanelSource } from '../../../../src/tui/state/worktrees.js';
import { WorktreeError } from '../../../../src/worktree/errors.js';
import type { CleanupOutcome, WorktreeListing } from '../../../../src/worktree/types.js';
import { flush, KEYS, renderAttached, waitFor } from '../input/helpers.js';

const HOME = '/home/u/.seek/projects/0123456789abcdef/worktrees';
const DIRTY: WorktreeListing = { id: '20250103-120000-cccccc', path: `${HOME}/20250103-120000-cccccc`, branch: 'feature/x', changes: 2, createdAt: '2025-01-03T12:00:00.000Z' };
const CLEAN: WorktreeListing = {
  id: '20250102-120000-bbbbbb',
  path: `${HOME}/20250102-120000-bbbbbb`,
  branch: 'seek/wt/20250102-120000-bbbbbb',
  changes: 0,
  ownerSubSid: '20250102-115959-a1b2c3',
  createdAt: '2025-01-02T12:00:00.000Z',
};
const GONE: WorktreeListing = { id: '20250101-120000-aaaaaa', path: `${HOME}/20250101-120000-aaaaaa`, branch: 'seek/wt/20250101-120000-aaaaaa', changes: undefined, createdAt: '2025-01-01T12:00:00.000Z', problem: 'missing_directory' };
const NOW = new Date('2025-01-04T12:00:00.000Z');
const REF = 'refs/seek/discarded/20250104-120000';

/** A source over a list the test controls; records calls; removing a row with changes throws
 * WorktreeError('dirty') unless discard, as the manager does. */
function fakeSource(rows: WorktreeListing[] = [DIRTY, CLEAN, GONE]) {
  const calls: string[] = [];
  const state = { rows: [...rows], mergeOutcome: undefined as CleanupOutcome | undefined };
  const drop = (id: string) => (state.rows = state.rows.filter((row) => row.id !== id));
  const source: WorktreePanelSource = {
    list: async () => [...state.rows],
    async merge(id) {
      calls.push(`merge ${id}`);
      if (state.mergeOutcome) return state.mergeOutcome;
      drop(id);
      return { kind: 'merged', result: `[worktree: merged branch=feature/x commit=${'f'.repeat(40)}]`, branch: 'feature/x', commit: 'f'.repeat(40) };
    },
    async remove(id, options) {
      calls.push(`remove ${id}${options.discard ? ' --discard' : ''}`);
      const row = state.rows.find((entry) => entry.id === id)!;
      if ((row.changes ?? 0) > 0 && !options.discard) throw new WorktreeError(`worktree ${id} has uncommitted changes`, 'dirty');
      drop(id);
      if (!options.discard || !row.changes) return { kind: 'cleaned', result: '[worktree: cleaned]' };
      return { kind: 'discarded', result: `[worktree: discarded changes=${row.changes}] rescue stash at ${REF}`, changes: row.changes, rescueRef: REF };
    },
    async diff(path) {
      calls.push(`diff ${path}`);
      return ['diff --git a/a.txt b/a.txt', '--- a/a.txt', '+++ b/a.txt', '@@ -1,3 +1,3 @@', ' one', '-two', '+TWO', ...Array.from({ length: 30 }, (_, i) => `+line ${i + 1}`), '', 'untracked files (1):', '  new.txt'];
    },
  };
  return { source, calls, state };
}

async function setup(fake = fakeSource()) {
  let closed = 0;
  const view = await renderAttached(<WorktreesPanel source={fake.source} width={100} color={false} now={() => NOW} onClose={() => (closed += 1)} />);
  const rows = () =>
    stripAnsi(view.lastFrame() ?? '')
      .split('\n')
      .slice(1, -1)
      .map((line) => line.replace(/^│ /, '').replace(/ *│$/, ''));
  async function press(...sequences: string[]): Promise<void> {
    await flush();
    for (const sequence of sequences) {
      view.stdin.write(sequence);
      await flush();
    }
  }
  /** The panel's text with wrapped lines joined (messages and questions wrap at the width). */
  const text = () => rows().join(' ').replace(/\s+/g, ' ');
  await waitFor(() => expect(rows()[0]).not.toContain('loading'));
  return { ...fake, view, rows, text, press, closedCount: () => closed };
}

describe('/worktrees panel', () => {
  it('lists id, changes, owner, age, branch and path newest first, marks problems, shows the selected path', async () => {
    const { rows, view } = await setup();
    expect(rows()).toEqual([
      'Worktrees 3 · 1 with changes · 1 with problems',
      '  ID                     CHANGES OWNER  AGE  BRANCH                         PATH',
      '❯ 20250103-120000-cccccc 2       -      1d   feature/x                      /home/u/.seek/proje…',
      '  20250102-120000-bbbbbb 0       a1b2c3 2d   seek/wt/20250102-120000-bbbbbb /home/u/.seek/proje…',
      '  20250101-120000-aaaaaa !       -      3d   seek/wt/20250101-120000-aaaaaa /home/u/.seek/proje…',
      DIRTY.path,
      '↑↓ select · d diff · m merge · r remove · esc close',
    ]);
    view.unmount();
  });

  it('says so when there are none, and Esc closes', async () => {
    const { rows, press, closedCount, view } = await setup(fakeSource([]));
    expect(rows()).toEqual(['Worktrees 0 · 0 with changes', 'no seek-managed worktrees in this project', '↑↓ select · d diff · m merge · r remove · esc close']);
    await press(KEYS.escape);
    expect(closedCount()).toBe(1);
    view.unmount();
  });

  it('explains a problem row under the list', async () => {
    const { rows, press, view } = await setup();
    await press(KEYS.down, KEYS.down);
    expect(rows()).toContain('! missing directory: r drops its records');
    view.unmount();
  });

  it('m asks to confirm; y merges the selected worktree, reports it and lists again', async () => {
    const { rows, press, calls, view } = await setup();
    await press('m');
    expect(rows()).toContain(`merge ${DIRTY.id} into the current branch? y/n`);
    expect(calls).toEqual([]);
    await press('y');
    await waitFor(() => expect(rows()).toContain(`merged feature/x as ffffffffffff; ${DIRTY.id} removed, its branch kept`));
    expect(calls).toEqual([`merge ${DIRTY.id}`]);
    expect(rows()[0]).toBe('Worktrees 2 · 0 with changes · 1 with problems');
    expect(rows()[2]!.startsWith(`❯ ${CLEAN.id}`)).toBe(true); // the selection moved to the next row
    view.unmount();
  });

  it('n and Esc cancel a confirmation without calling the source', async () => {
    const { rows, press, calls, closedCount, view } = await setup();
    await press('m', 'n', 'r', KEYS.escape);
    expect(calls).toEqual([]);
    expect(closedCount()).toBe(0);
    expect(rows().some((row) => row.includes('y/n') || row.includes('d discard'))).toBe(false);
    view.unmount();
  });

  it('a merge conflict opens the report (files, then hunks); Esc goes back to the list', async () => {
    const fake = fakeSource();
    const report = { files: ['a.txt'], hunks: [{ file: 'a.txt', text: '<<<<<<< HEAD\nmain\n=======\nworktree\n>>>>>>> seek' }], message: 'merge stopped on conflicts in 1 file' };
    fake.state.mergeOutcome = { kind: 'merge_conflict', result: '[worktree: merge_conflict files=1]', report };
    const { rows, text, press, view } = await setup(fake);
    await press('m', 'y');
    await waitFor(() => expect(rows()[0]).toBe(`merge conflict · ${DIRTY.id} 1-9 of 9`));
    expect(rows().slice(1, 10)).toEqual(['merge stopped on conflicts in 1 file', 'files:', '  a.txt', '--- a.txt', '<<<<<<< HEAD', 'main', '=======', 'worktree', '>>>>>>> seek']);
    expect(text()).toContain(`merge of ${DIRTY.id} stopped on conflicts and was aborted; both trees are unchanged, the worktree is kept`);
    await press(KEYS.escape);
    expect(rows()[0]).toBe('Worktrees 3 · 1 with changes · 1 with problems');
    view.unmount();
  });

  it('r on a clean worktree asks y/n and removes it', async () => {
    const { rows, press, calls, view } = await setup();
    await press(KEYS.down, 'r');
    expect(rows()).toContain(`remove ${CLEAN.id}? y/n`);
    await press('y');
    await waitFor(() => expect(rows()).toContain(`removed ${CLEAN.id} (it held no uncommitted work)`));
    expect(calls).toEqual([`remove ${CLEAN.id}`]);
    view.unmount();
  });

  it('r on a dirty worktree offers d, which discards with a rescue ref and says how to recover', async () => {
    const { text, press, calls, view } = await setup();
    await press('r');
    expect(text()).toContain(`${DIRTY.id} has 2 changes, uncommitted. d discard them (saved under refs/seek/discarded/ first) · n keep`);
    await press('y'); // only d discards
    expect(calls).toEqual([]);
    await press('d');
    await waitFor(() => expect(calls).toEqual([`remove ${DIRTY.id} --discard`]));
    await waitFor(() => expect(text()).toContain(`discarded 2 changes and removed ${DIRTY.id}; saved at ${REF}.`));
    expect(text()).toContain(`git restore --source=${REF} --worktree -- .`);
    view.unmount();
  });

  it('offers the discard when changes appeared after the list was read', async () => {
    const fake = fakeSource();
    const { text, press, calls, state, view } = await setup(fake);
    state.rows = state.rows.map((row) => (row.id === CLEAN.id ? { ...row, changes: 1 } : row));
    await press(KEYS.down, 'r', 'y');
    await waitFor(() => expect(text()).toContain(`${CLEAN.id} has 1 change, uncommitted. d discard them (saved under refs/seek/discarded/ first) · n keep`));
    await press('d');
    await waitFor(() => expect(calls).toEqual([`remove ${CLEAN.id}`, `remove ${CLEAN.id} --discard`]));
    view.unmount();
  });

  it('d opens the diff of the selected worktree, scrolls, and Esc goes back', async () => {
    const { rows, press, calls, view } = await setup();
    await press('d');
    await waitFor(() => expect(rows()[0]).toBe(`diff · ${DIRTY.id} (feature/x) 1-16 of 40`));
    expect(calls).toEqual([`diff ${DIRTY.path}`]);
    expect(rows().slice(1, 8)).toEqual(['diff --git a/a.txt b/a.txt', '--- a/a.txt', '+++ b/a.txt', '@@ -1,3 +1,3 @@', ' one', '-two', '+TWO']);
    expect(rows().at(-1)).toBe('esc back · ↑↓ scroll · pgup/pgdn page · 24 below');
    await press(KEYS.down, KEYS.down);
    expect(rows()[0]).toBe(`diff · ${DIRTY.id} (feature/x) 3-18 of 40`);
    await press('\u001b[6~', '\u001b[6~'); // page down twice: stops at the end
    expect(rows()[0]).toBe(`diff · ${DIRTY.id} (feature/x) 25-40 of 40`);
    expect(rows().slice(-4, -1)).toEqual(['', 'untracked files (1):', '  new.txt']);
    await press(KEYS.escape);
    expect(rows()[0]).toBe('Worktrees 3 · 1 with changes · 1 with problems');
    view.unmount();
  });

  it('shows no diff for a worktree whose directory is gone', async () => {
    const { rows, press, calls, view } = await setup();
    await press(KEYS.down, KEYS.down, 'd');
    expect(rows()).toContain(`no diff: the directory of ${GONE.id} is missing`);
    expect(calls).toEqual([]);
    view.unmount();
  });
});
