import { describe, expect, it } from 'vitest';
import { editorRows, LIVE_ROWS_BESIDE_DIALOG, liveLayout, screenLayout, SPARE_ROWS, textRows } from '../../../../src/tui/state/live-layout.js';
import { clipRows } from '../../../../src/tui/components/LiveItems.js';
import { todoWindow } from '../../../../src/tui/components/TodoPanel.js';
import type { TodoItem } from '../../../../src/agent/types.js';

describe('liveLayout: the live area never reaches the terminal height', () => {
  it('keeps live + todo + bottom + fixed within rows - SPARE_ROWS for every mix of sizes', () => {
    for (const rows of [10, 16, 24, 40, 60]) {
      for (const fixedRows of [1, 2, 4]) {
        for (const liveRows of [0, 1, 5, 30, 200]) {
          for (const todoRows of [0, 4, 30]) {
            for (const dialog of [false, 'question', 'panel'] as const) {
              const layout = liveLayout({ rows, fixedRows, liveRows, todoRows, dialog });
              const label = JSON.stringify({ rows, fixedRows, liveRows, todoRows, dialog, layout });
              expect(layout.live + layout.todo + layout.bottom + fixedRows, label).toBeLessThanOrEqual(rows - SPARE_ROWS);
              expect(layout.live, label).toBeLessThanOrEqual(liveRows);
              expect(layout.todo, label).toBeLessThanOrEqual(todoRows);
              if (dialog === 'panel') expect(layout.live, label).toBeLessThanOrEqual(1);
              expect(layout.bottom, label).toBeGreaterThanOrEqual(1);
            }
          }
        }
      }
    }
  });

  it('gives a question almost all the rows, the live items a few; the editor keeps a reserve while text streams', () => {
    expect(liveLayout({ rows: 24, fixedRows: 2, liveRows: 1, todoRows: 9, dialog: 'question' }).todo).toBe(2); // title and current item
    const asking = liveLayout({ rows: 24, fixedRows: 2, liveRows: 50, todoRows: 0, dialog: 'question' });
    expect(asking.live).toBe(LIVE_ROWS_BESIDE_DIALOG);
    expect(asking.bottom).toBe(24 - SPARE_ROWS - 2 - LIVE_ROWS_BESIDE_DIALOG);
    const streaming = liveLayout({ rows: 24, fixedRows: 2, liveRows: 50, todoRows: 0, dialog: false });
    expect(streaming.bottom).toBe(10);
    expect(streaming.live).toBe(24 - SPARE_ROWS - 2 - 10);
    // Short live items leave the rest to the editor.
    expect(liveLayout({ rows: 24, fixedRows: 2, liveRows: 2, todoRows: 0, dialog: false })).toEqual({ live: 2, todo: 0, bottom: 24 - SPARE_ROWS - 2 - 2 });
  });

  it('folds the live items to one row and hides the todo list beside a panel', () => {
    expect(liveLayout({ rows: 24, fixedRows: 2, liveRows: 50, todoRows: 8, dialog: 'panel' })).toEqual({ live: 1, todo: 0, bottom: 24 - SPARE_ROWS - 2 - 1 });
  });

  it('splits the editor rows between its text and the completion menu', () => {
    expect(editorRows(20, 8)).toEqual({ menuRows: 8, textRows: 9 });
    expect(editorRows(10, 8)).toEqual({ menuRows: 5, textRows: 2 });
    for (let rows = 1; rows <= 30; rows++) {
      const split = editorRows(rows, 8);
      // Text, its two markers, the menu and its "more" row.
      if (rows >= 6) expect(split.textRows + 2 + split.menuRows + 1).toBeLessThanOrEqual(rows);
    }
  });

  it('counts wrapped rows of plain text', () => {
    expect(textRows('', 80)).toBe(1);
    expect(textRows('x'.repeat(80), 80)).toBe(1);
    expect(textRows('x'.repeat(81), 80)).toBe(3); // a word wrap may leave a row short
  });
});

describe('screenLayout', () => {
  it('counts the status bar, the working line with a long retry message, the exit hint and queued messages', () => {
    const base = { rows: 24, width: 80, liveRows: 100, todoRows: 0, working: true, exitHint: false, queued: [], dialog: false as const, menuRows: 8 };
    const plain = screenLayout(base);
    const busy = screenLayout({ ...base, retryMessage: 'x'.repeat(150), exitHint: true, queued: ['short', 'y'.repeat(100)] });
    // The working line with a 200-column retry: 4 rows (3, and one for the word wrap) instead of
    // 1; the hint 1; the queued messages 1 and 3.
    expect(plain.live + plain.bottom - (busy.live + busy.bottom)).toBe(3 + 1 + 4);
    expect(busy.live + busy.bottom + 1 + 4 + 1 + 4).toBeLessThanOrEqual(24 - SPARE_ROWS);
    expect(busy.editor.textRows + 2 + busy.editor.menuRows + 1).toBeLessThanOrEqual(busy.bottom);
  });
});

describe('clipRows', () => {
  const rows = Array.from({ length: 30 }, (_, index) => `row ${index + 1}`);
  it('keeps the newest rows and says how many are above', () => {
    const { marker, shown } = clipRows(rows, 10);
    expect(shown).toEqual(rows.slice(21));
    expect(marker).toBe('↑ 21 more lines (printed in full when finished)');
    expect(shown.length + 1).toBe(10);
  });
  it('shows everything that fits, without a marker', () => {
    expect(clipRows(rows.slice(0, 5), 5)).toEqual({ shown: rows.slice(0, 5) });
  });
});

describe('todoWindow', () => {
  const items: TodoItem[] = Array.from({ length: 10 }, (_, index) => ({ content: `t${index}`, status: index < 6 ? 'completed' : index === 6 ? 'in_progress' : 'pending' }));
  it('starts at the first unfinished item', () => {
    expect(todoWindow(items, 2)).toEqual({ start: 6, end: 8 });
  });
  it('moves up at the end of the list, and shows all when they fit', () => {
    expect(todoWindow(items, 5)).toEqual({ start: 5, end: 10 });
    expect(todoWindow(items, 10)).toEqual({ start: 0, end: 10 });
  });
});
