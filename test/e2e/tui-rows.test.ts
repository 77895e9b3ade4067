import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../support/scripted-server/index.js';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

/** The two sizes the terminal UI is checked at. */
const SIZES = [
  { width: 80, height: 24 },
  { width: 120, height: 40 },
] as const;

interface WireMessage {
  role: string;
  content: string;
}

describe.skipIf(!hasTmux)('approvals and tool rows in tmux', () => {
  it.each(SIZES)('no, and tell seek what to do differently: the words reach the model with the denial at once, and the turn goes on ($width x $height)', async (size) => {
    const { root, home } = makeProject();
    h.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'npm test' } }] }, { text: 'Running yarn test then.' });
    const t = h.start(root, home, size);
    await t.waitFor('ask seek');
    t.type('run the tests');
    t.keys('Enter');
    await t.waitFor('t) No, and tell seek what to do differently');
    t.type('t');
    await t.waitFor('No, and tell seek what to do differently:');
    t.type('use yarn test, npm is not set up here');
    await t.waitFor('› use yarn test, npm is not set up here');
    t.keys('Enter');
    // The row says what was declined and what the user said; the model answers at once.
    const after = await t.waitFor(/⊘ bash npm test[\s\S]*declined · you said: use yarn test[\s\S]*Running yarn test then\.[\s\S]*ask seek/);
    expect(after).not.toContain('Allow bash: npm test?');
    expect(h.server.requests).toHaveLength(2);
    const messages = h.server.requests[1]!.body.messages as WireMessage[];
    // No other user message: the correction travels with the denial, as the call's result.
    expect(messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([expect.stringContaining('run the tests')]);
    const denial = messages.at(-1)!;
    expect(denial.role).toBe('tool');
    expect(denial.content).toMatch(/^The user declined: bash: npm test\. They said what to do differently:\nuse yarn test, npm is not set up here\n/);
  });

  it.each(SIZES)('Ctrl+C at the approval denies it, the box goes, and the next y is typed into the input ($width x $height)', async (size) => {
    const { root, home } = makeProject();
    h.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch nope' } }] });
    const t = h.start(root, home, size);
    await t.waitFor('ask seek');
    t.type('make it');
    t.keys('Enter');
    await t.waitFor('Allow bash: touch nope?');
    t.keys('C-c');
    const gone = await t.waitFor(/⊘ bash touch nope[\s\S]*ask seek/);
    expect(gone).not.toContain('Allow bash: touch nope?');
    t.type('y');
    await t.waitFor('› y');
  });

  it.each(SIZES)('an approved edit keeps its diff in the transcript with line numbers ($width x $height)', async (size) => {
    const { root, home } = makeProject();
    writeFileSync(join(root, 'greet.ts'), 'const a = 1;\nconst b = 2;\nexport const greeting = "hello";\nconst c = 3;\n');
    h.server.enqueue(
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'greet.ts', old_string: 'export const greeting = "hello";', new_string: 'export const greeting = "good morning";' } }] },
      { text: 'Changed the greeting.' },
    );
    const t = h.start(root, home, size);
    await t.waitFor('ask seek');
    t.type('change the greeting');
    t.keys('Enter');
    const prompt = await t.waitFor('Allow edit greet.ts?');
    // The approval numbers the lines: old 3 removed, new 3 added.
    expect(prompt).toMatch(/│ +3 +-export const greeting = "hello";/);
    expect(prompt).toMatch(/│ +3 \+export const greeting = "good morning";/);
    await t.answer('y', 'Changed the greeting.');
    expect(readFileSync(join(root, 'greet.ts'), 'utf8')).toContain('good morning');
    const screen = t.screen();
    const row = screen.indexOf('✓ edit greet.ts');
    expect(row).toBeGreaterThan(-1);
    const below = screen.slice(row);
    expect(below).toMatch(/└ \+1 −1/);
    expect(below).toMatch(/\n +1 +1  const a = 1;/);
    expect(below).toMatch(/\n +3 +-export const greeting = "hello";/);
    expect(below).toMatch(/\n +3 \+export const greeting = "good morning";/);
    expect(below.indexOf('good morning')).toBeLessThan(below.indexOf('Changed the greeting.'));
  });

  it.each(SIZES)('a bash row shows the exit code and the test summary line ($width x $height)', async (size) => {
    const { root, home } = makeProject();
    const script = [
      'echo "> vitest run"',
      'echo " ✓ test/a.test.ts (3 tests)"',
      'echo " ✗ test/b.test.ts (2 tests | 1 failed)"',
      'echo " Test Files  1 failed | 1 passed (2)"',
      'echo "      Tests  1 failed | 4 passed (5)"',
      'exit 1',
    ].join('; ');
    h.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: script } }] }, { text: 'One test fails.' });
    const t = h.start(root, home, size);
    await t.waitFor('ask seek');
    t.type('run the tests');
    t.keys('Enter');
    await t.waitFor('Allow bash:');
    const screen = await t.answer('y', 'One test fails.');
    expect(screen).toMatch(/✗ bash echo "> vitest run"/);
    expect(screen).toContain('└ exit 1 · 4 passed, 1 failed · 5 lines');
    expect(screen).toMatch(/\n +> vitest run\n/); // the first lines of the output
    expect(screen).toContain('… 2 more lines · ctrl+t shows all');
    // Ctrl+T: the row's whole output in a box, the transcript above left as it was.
    t.keys('C-t');
    const box = await t.waitFor(/tool 1 of 1 · ←→ other rows/);
    expect(box).toMatch(/│ +Tests {2}1 failed \| 4 passed \(5\)/);
    t.keys('Escape');
    await t.waitFor('ask seek');
  });

  it.each(SIZES)('a subagent in a worktree asks to write: the approval names the worktree and its branch ($width x $height)', async (size) => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    const call = (name: string, args: Record<string, unknown>): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });
    h.server.setFallback((request) => {
      const messages = request.body.messages as WireMessage[];
      const child = String(messages[0]?.content ?? '').includes('\n# Subagent\n');
      const turn = messages.filter((message) => message.role === 'assistant').length;
      if (child) return turn === 0 ? call('write_file', { path: 'feature.txt', content: 'from the child\n' }) : { text: 'wrote feature.txt' };
      if (turn === 0) return call('agent', { description: 'add feature', prompt: 'add feature.txt', subagent_type: 'general-purpose', isolation: 'worktree' });
      return { text: 'The child is done.' };
    });
    const t = h.start(root, home, size);
    await t.waitFor('ask seek');
    t.type('add a feature in isolation');
    t.keys('Enter');
    let screen = await t.waitFor(/Allow (create feature\.txt|agent)/);
    if (!screen.includes('Allow create feature.txt?')) {
      t.type('y'); // the agent call itself, when the mode asks for it
      screen = await t.waitFor('Allow create feature.txt?');
    }
    expect(screen).toContain('[subagent: add feature] asks:');
    // Wrapped at 80 columns, so the line is read without the box's borders and padding.
    const box = screen
      .split('\n')
      .map((line) => line.replace(/^│ /, '').replace(/ *│$/, ''))
      .join('');
    expect(box, screen).toMatch(/writes to worktree ?\S+ ?\(branch ?seek\/wt\/\S+\)/); // a wrap may eat the space
    await t.answer('y', 'The child is done.');
  });
});
