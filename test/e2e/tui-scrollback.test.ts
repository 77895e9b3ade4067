import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../support/scripted-server/index.js';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

const SHELL_LINES = 40;
const oldFile = Array.from({ length: 70 }, (_, index) => `old line ${index + 1}`).join('\n') + '\n';
const newFile = Array.from({ length: 70 }, (_, index) => `new line ${index + 1}`).join('\n') + '\n';
const CODE_LINES = Array.from({ length: 45 }, (_, index) => `answer line ${index + 1}`);
const ANSWER = [
  'Intro sentence of the answer.',
  '',
  // One block taller than any terminal here: it streams clipped, then prints in full once.
  '```text',
  ...CODE_LINES,
  '```',
  '',
  'Final sentence of the answer: all done.',
].join('\n');

const occurrences = (text: string, line: string) => text.split('\n').filter((row) => row.trimEnd() === line).length;

/**
 * Ink clears the whole terminal, scrollback included, once its live area is as tall as the screen.
 * These run seek after a shell printed known lines, show an approval taller than the terminal and
 * a streamed block taller than it, and check that the shell's lines and every line of the answer
 * are in the pane's history, once.
 */
describe.skipIf(!hasTmux)('terminal UI keeps the scrollback (tmux)', () => {
  for (const [width, height] of [
    [80, 24],
    [120, 40],
  ] as const) {
    it(`at ${width}x${height}: a long approval and a long answer leave the shell's lines and the whole answer in the scrollback`, async () => {
      const { root, home } = makeProject({ 'big.txt': oldFile });
      const todos = ['read big.txt', 'rewrite big.txt', 'check the result', 'report'].map((content, index) => ({ content, status: index === 1 ? 'in_progress' : index === 0 ? 'completed' : 'pending' }));
      h.server.enqueue(
        // A todo list stays on screen under the running call, beside the question.
        { toolCalls: [{ name: 'todo_write', arguments: { items: todos } }] },
        { toolCalls: [{ name: 'edit_file', arguments: { path: 'big.txt', old_string: oldFile, new_string: newFile } }] },
        { text: ANSWER, chunkDelayMs: 2 },
      );
      const before = `for i in $(seq 1 ${SHELL_LINES}); do echo shell-line-$i; done`;
      const t = h.start(root, home, { width, height, before });
      await t.waitFor('ask seek');
      t.type('rewrite big.txt');
      t.keys('Enter');
      await t.waitFor('pgup/pgdn to scroll');
      // The question is whole on the screen: its title at the top, its choices at the bottom.
      const asking = t.visible();
      expect(asking).toMatch(/Allow .*big\.txt/);
      expect(asking).toContain('n) No (esc)');
      expect(asking).toContain('rewrite big.txt');
      t.keys('PageDown');
      await t.waitFor('above');
      t.type('y');
      await t.waitFor('Final sentence of the answer: all done.');
      await t.waitFor('ask seek');
      expect(readFileSync(join(root, 'big.txt'), 'utf8')).toBe(newFile);

      const history = t.history();
      for (let index = 1; index <= SHELL_LINES; index++) expect(occurrences(history, `shell-line-${index}`), `shell-line-${index}`).toBe(1);
      expect(history).toContain('Intro sentence of the answer.');
      for (const line of CODE_LINES) expect(occurrences(history, line), line).toBe(1);
      expect(occurrences(history, 'Final sentence of the answer: all done.')).toBe(1);
    });
  }

  it('a terminal made shorter while an approval shows keeps its scrollback, and the approval fits the new height', async () => {
    const { root, home } = makeProject({ 'big.txt': oldFile });
    h.server.enqueue({ toolCalls: [{ name: 'edit_file', arguments: { path: 'big.txt', old_string: oldFile, new_string: newFile } }] }, { text: 'Rewritten.' });
    const before = `for i in $(seq 1 ${SHELL_LINES}); do echo shell-line-$i; done`;
    const t = h.start(root, home, { width: 100, height: 40, before });
    await t.waitFor('ask seek');
    t.type('rewrite big.txt');
    t.keys('Enter');
    await t.waitFor('pgup/pgdn to scroll');
    t.resize(100, 20);
    // The window shrinks to the new height: the question is whole on the smaller screen.
    await t.waitFor(/rows 1–\d of \d+/);
    const asking = t.visible();
    expect(asking).toMatch(/Allow .*big\.txt/);
    expect(asking).toContain('n) No (esc)');
    t.type('y');
    await t.waitFor('Rewritten.');
    const history = t.history();
    for (let index = 1; index <= SHELL_LINES; index++) expect(occurrences(history, `shell-line-${index}`), `shell-line-${index}`).toBe(1);
  });

  it('at 80x16: /agents on a child whose transcript is taller than the terminal scrolls inside the screen and keeps the scrollback', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    const childLines = Array.from({ length: 60 }, (_, index) => `child line ${index + 1}`);
    h.server.setFallback((request): ScriptedReply => {
      const messages = request.body.messages as Array<{ role: string; content: string }>;
      if (String(messages[0]?.content ?? '').includes('\n# Subagent\n')) return { text: childLines.join('\n') };
      const turn = messages.filter((message) => message.role === 'assistant').length;
      if (turn === 0) return { toolCalls: [{ name: 'agent', arguments: { description: 'read everything', prompt: 'read it all', subagent_type: 'explore' } }] };
      return { text: 'The child is done.' };
    });
    const before = `for i in $(seq 1 ${SHELL_LINES}); do echo shell-line-$i; done`;
    const t = h.start(root, home, { width: 80, height: 16, before });
    await t.waitFor('ask seek');
    t.type('ask a child');
    t.keys('Enter');
    const asked = await t.waitFor(/The child is done\.|Allow/);
    if (!asked.includes('The child is done.')) await t.answer('y', 'The child is done.'); // the agent call itself, when the mode asks
    await t.waitFor('ask seek');
    t.type('/agents');
    t.keys('Enter');
    await t.waitFor('enter transcript');
    t.keys('Enter');
    // Opens on the end of the transcript; the whole box (its top border and title too) is on the
    // visible screen, above the status bar.
    const whole = (visible: string) => {
      expect(visible).toMatch(/╭─+╮\n│ explore \w+ · completed/);
      expect(visible).toMatch(/esc back · ↑↓ scroll[^\n]*\n╰─+╯/);
      expect(visible).toContain('shift+tab mode');
    };
    await t.waitFor(/child line 60[\s\S]*esc back/);
    whole(t.visible());
    t.keys('PageUp');
    await t.waitFor(/ · \d+ below/);
    expect(t.visible()).not.toContain('child line 60');
    whole(t.visible());
    t.keys('Home');
    await t.waitFor(/│ child line 1 +│[\s\S]*esc back/);
    whole(t.visible());
    t.keys('End');
    await t.waitFor(/child line 60[\s\S]*esc back/);
    whole(t.visible());
    t.keys('Escape');
    await t.waitFor('enter transcript');
    t.keys('Escape');
    await t.waitFor('ask seek');
    const history = t.history();
    for (let index = 1; index <= SHELL_LINES; index++) expect(occurrences(history, `shell-line-${index}`), `shell-line-${index}`).toBe(1);
    expect(occurrences(history, 'The child is done.')).toBe(1);
    // The box was redrawn in place and erased when closed: none of its rows were left behind.
    expect(history).not.toMatch(/│ child line \d+ +│/);
    expect(history).not.toMatch(/explore \w+ · completed · 1 turn/);
  });
});
