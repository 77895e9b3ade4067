import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import { TmuxSeek } from '../support/tmux.js';

const h = tuiHarness();
const SIZE = { width: 100, height: 40 };
const NOTES = Array.from({ length: 5 }, (_, index) => `note ${index + 1}`).join('\n') + '\n';
const todos = [
  { content: 'read the notes', status: 'completed' },
  { content: 'fix note 3', status: 'in_progress' },
];

/** The conversation's rows as printed: from the first prompt to the last row before the live
 * area, trailing blanks trimmed. */
function conversationRows(history: string, firstPrompt: string): string[] {
  const rows = history.split('\n').map((row) => row.trimEnd());
  const start = rows.findIndex((row) => row === `› ${firstPrompt}`);
  // The live area starts at the todo list or the prompt row.
  let end = rows.findIndex((row, index) => index > start && (row.startsWith('› ask seek') || /^Todos \d/.test(row)));
  while (end > start && rows[end - 1] === '') end -= 1;
  return rows.slice(start, end);
}

describe.skipIf(!hasTmux)('a resumed session renders as it did live (tmux, golden)', () => {
  it('tool rows, a diff and a compaction: the same rows live and after --continue', async () => {
    const { root, home } = makeProject({ 'notes.txt': NOTES });
    h.server.enqueue(
      { toolCalls: [{ name: 'todo_write', arguments: { items: todos } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'note 3', new_string: 'note three' } }] },
      { text: 'Fixed note 3.' },
      // /compact's summary
      { text: 'The user asked to fix note 3; it now reads "note three".' },
      { text: 'Nothing else to do.' },
    );
    const live = h.start(root, home, { ...SIZE, args: ['--yolo'] });
    await live.waitFor('ask seek');
    live.type('fix the notes');
    live.keys('Enter');
    await live.waitFor(/Fixed note 3\.[\s\S]*ask seek/);
    live.type('/compact');
    live.keys('Enter');
    await live.waitFor(/context compacted[\s\S]*ask seek/);
    live.type('anything else?');
    live.keys('Enter');
    await live.waitFor(/Nothing else to do\.[\s\S]*ask seek/);
    const liveRows = conversationRows(live.history(), 'fix the notes');
    live.type('/exit');
    live.keys('Enter');
    await live.waitFor('[seek exited');

    const resumed = TmuxSeek.start({ cwd: root, env: h.env(home), args: ['--continue', '--yolo'], ...SIZE });
    try {
      await resumed.waitFor(/Nothing else to do\.[\s\S]*ask seek/);
      const resumedRows = conversationRows(resumed.history(), 'fix the notes');
      expect(resumedRows.join('\n')).toContain('context compacted');
      expect(resumedRows.join('\n')).not.toContain('<summary>');
      expect(resumedRows).toEqual(liveRows);
    } finally {
      resumed.kill();
    }
  });
});
