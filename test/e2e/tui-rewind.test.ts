import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import type { TmuxSeek } from '../support/tmux.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();
const SIZE = { width: 80, height: 24 };
const ORIGINAL = 'const a = 1;\nexport const greeting = "hello";\nconst c = 3;\n';

/** The ids of the project's saved sessions. */
function sessionIds(home: string): string[] {
  const projects = join(home, 'projects');
  return readdirSync(projects)
    .map((pid) => join(projects, pid, 'sessions'))
    .filter(existsSync)
    .flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.jsonl')))
    .map((f) => f.replace(/\.jsonl$/, ''));
}

/** Waits until the rows the terminal shows now (no scrollback: earlier frames hold the same words) match. */
async function until(t: TmuxSeek, pattern: RegExp | string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let screen = '';
  while (Date.now() < deadline) {
    screen = t.visible();
    if (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)) return screen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${String(pattern)}; the screen shows:\n${screen}`);
}

/** Waits until the session has moved its `seen` ref (the end of its turn: what it saw last). */
async function turnSettled(root: string, sessionId: string): Promise<void> {
  // The turn's start checkpoint already creates the seen ref; the turn has settled once the ref
  // holds the state the turn left (its end-of-turn commit), not merely exists.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      const subject = execFileSync('git', ['log', '-1', '--format=%s', `refs/seek/checkpoints/${sessionId}/seen`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      if (subject.includes('state at the end of turn')) return;
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`session ${sessionId} never moved its seen ref to the end of its turn`);
}

/** One turn that edits greet.ts (edit_file, answered y). */
async function editingTurn(t: TmuxSeek, root: string, home: string): Promise<void> {
  h.server.enqueue(
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'greet.ts', old_string: 'export const greeting = "hello";', new_string: 'export const greeting = "good morning";' } }] },
    { text: 'Changed the greeting.' },
  );
  await t.waitFor('ask seek');
  t.type('change the greeting');
  t.keys('Enter');
  await t.waitFor('Allow edit greet.ts?');
  await t.answer('y', 'Changed the greeting.');
  expect(readFileSync(join(root, 'greet.ts'), 'utf8')).toContain('good morning');
  // The text shows before the turn ends: wait for its end (Esc would cancel it, an outside edit would count as the turn's).
  await turnSettled(root, sessionIds(home)[0]!);
}

describe.skipIf(!hasTmux)('/rewind in the terminal UI (tmux, 80x24)', () => {
  it('Esc Esc opens the list; the diff first, then code and conversation: the file is back byte for byte and the UI is on a fork', async () => {
    const { root, home } = makeProject({ 'greet.ts': ORIGINAL });
    const t = h.start(root, home, SIZE);
    await editingTurn(t, root, home);
    const [original] = sessionIds(home);
    expect(original).toBeDefined();

    t.keys('Escape');
    await until(t, 'press esc again to rewind');
    t.keys('Escape');
    const list = await until(t, 'Rewind to');
    expect(list).toMatch(/❯ +\d+s ago +1 file \+1 −1 +change the greeting/);
    t.keys('Escape');
    await until(t, '› ask seek, / for commands'); // the empty input is back (the list closed)

    t.type('/rewind');
    t.keys('Enter');
    await until(t, /❯ +\d+s ago +1 file \+1 −1 +change the greeting/);
    t.keys('Enter');
    await until(t, 'Turn 1: change the greeting');
    expect(t.visible()).toMatch(/❯ restore code and conversation.*\n.*restore code only.*\n.*restore conversation only.*\n.*show the diff first/);
    t.keys('Down', 'Down', 'Down');
    await until(t, '❯ show the diff first');
    t.keys('Enter');
    const diff = await until(t, 'What rewinding to 1 changes');
    expect(diff).toContain('-export const greeting = "good morning";');
    expect(diff).toContain('+export const greeting = "hello";');
    t.keys('Escape');
    await until(t, '❯ restore code and conversation');
    t.keys('Enter');

    // The last notice: the code restore, with its undo in the original session (the screen wraps it).
    const done = await t.waitFor(new RegExp(`To undo: /resume\\s+${original}, then /rewind[\\s\\S]*seek\\s+rewind 2 --code --session\\s+${original}`), 20_000);
    expect(readFileSync(join(root, 'greet.ts'), 'utf8')).toBe(ORIGINAL);
    expect(done).toContain('restored the code to checkpoint 1 (1 file changed)');
    expect(done).toContain('conversation rewound to before turn 1');
    const ids = sessionIds(home);
    expect(ids).toHaveLength(2);
    const fork = ids.find((id) => id !== original)!;
    expect(done).toContain(`── conversation rewound · session ${fork} ──`);
    // The rewound prompt is back in the input, and the fork holds nothing of that turn.
    await until(t, '› change the greeting');
    // A draft the user clears stays cleared when the editor comes back after a view that took
    // its place (Ctrl+T's output view here; a picker the same way).
    t.keys('C-c');
    await until(t, '› ask seek, / for commands');
    t.keys('C-t');
    await until(t, 'esc close');
    t.keys('Escape');
    await until(t, '› ask seek, / for commands');
    // The input row (the last `› ` row; the transcript's prompt rows start so too) is empty.
    expect(t.visibleLines().filter((row) => row.startsWith('› ')).at(-1)).toBe('› ask seek, / for commands, @ for files');
    const forkFile = readdirSync(join(home, 'projects')).map((pid) => join(home, 'projects', pid, 'sessions', `${fork}.jsonl`)).find(existsSync)!;
    expect(readFileSync(forkFile, 'utf8')).not.toContain('good morning');
  });

  it('asks before overwriting a file changed outside seek, and "no" leaves everything as it is', async () => {
    const { root, home } = makeProject({ 'greet.ts': ORIGINAL });
    const t = h.start(root, home, SIZE);
    await editingTurn(t, root, home);
    // The turn has ended (editingTurn waited): the session will not take this edit for its own.
    writeFileSync(join(root, 'greet.ts'), 'edited in an editor\n');
    t.type('/rewind');
    t.keys('Enter');
    await until(t, /❯ +\d+s ago +1 file \+1 −3 +change the greeting/);
    t.keys('Enter');
    await until(t, '❯ restore code and conversation');
    t.keys('Down');
    await until(t, '❯ restore code only');
    t.keys('Enter');
    const asked = await until(t, 'Overwrite that file?');
    expect(t.screen()).toMatch(/changed outside seek since this session last saw them, and the rewind would\s+overwrite or\s+delete them:\s+greet\.ts/);
    expect(asked).toContain('❯ no, leave everything as it is');
    t.keys('Enter');
    await t.waitFor('rewind cancelled: nothing changed');
    expect(readFileSync(join(root, 'greet.ts'), 'utf8')).toBe('edited in an editor\n');
    expect(sessionIds(home)).toHaveLength(1);
  });

  it('code only keeps the conversation, and rewinding to the restore point undoes it', async () => {
    const { root, home } = makeProject({ 'greet.ts': ORIGINAL });
    const t = h.start(root, home, SIZE);
    await editingTurn(t, root, home);
    const edited = readFileSync(join(root, 'greet.ts'), 'utf8');
    t.type('/rewind');
    t.keys('Enter');
    await until(t, /❯ +\d+s ago +1 file \+1 −1 +change the greeting/);
    t.keys('Enter');
    await until(t, '❯ restore code and conversation');
    t.keys('Down');
    await until(t, '❯ restore code only');
    t.keys('Enter');
    await t.waitFor(/To undo: \/rewind to\s+"\(before rewinding to 1\)"/);
    expect(readFileSync(join(root, 'greet.ts'), 'utf8')).toBe(ORIGINAL);
    expect(sessionIds(home)).toHaveLength(1);
    expect(t.visible()).not.toContain('resumed session');

    t.type('/rewind');
    t.keys('Enter');
    await until(t, /❯ +\d+s ago +1 file \+1 −1 +\(before rewinding to 1\)/);
    t.keys('Enter');
    const choices = await until(t, 'Checkpoint 2 (before rewinding to 1)');
    expect(choices).toContain('❯ restore code only');
    expect(choices).not.toContain('restore conversation only');
    t.keys('Enter');
    await t.waitFor('restored the code to checkpoint 2 (1 file changed)');
    expect(readFileSync(join(root, 'greet.ts'), 'utf8')).toBe(edited);
  });
});
