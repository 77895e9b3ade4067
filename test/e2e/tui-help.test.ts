import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

/** The /help notice's rows from "Commands" up to "Keys", as the pane holds them. */
function commandRows(history: string): string[] {
  const rows = history.split('\n');
  const start = rows.findIndex((row) => row.startsWith('· Commands'));
  const end = rows.findIndex((row, index) => index > start && row.trim() === 'Keys');
  return rows.slice(start + 1, end).filter((row) => row.trim() !== '');
}

describe.skipIf(!hasTmux)('/help in the terminal UI (tmux)', () => {
  for (const width of [80, 40]) {
    it(`wraps each description with a hanging indent at ${width} columns, never back to the row's start`, async () => {
      const { root, home } = makeProject({ 'README.md': 'x\n' });
      const t = h.start(root, home, { width, height: 50 });
      await t.waitFor('ask seek');
      t.type('/help');
      t.keys('Enter');
      await t.waitFor(/ctrl\+o[\s\S]*transcript/);
      const rows = commandRows(t.history());
      expect(rows.length).toBeGreaterThan(10);
      // A command's row starts with its name after the notice's indent; every other row continues a
      // description, under the description (80 columns) or under the name (40 columns).
      const continuations = rows.filter((row) => !/^ {4}\/\S/.test(row));
      expect(continuations.length).toBeGreaterThan(0);
      const indent = width === 80 ? '27,' : '8';
      for (const row of continuations) expect(row, rows.join('\n')).toMatch(new RegExp(`^ {${indent}}\\S`));
      for (const row of rows) expect(row.length).toBeLessThanOrEqual(width);
      // Every word is there, in order.
      const words = rows.join(' ').replace(/\s+/g, ' ');
      expect(words).toContain('/distill propose up to 3 project decisions from this session for memory; you review each');
      expect(words).toContain('/rewind go back to the start of a turn: code, conversation, or both');
    });
  }
});
