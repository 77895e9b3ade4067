import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, describe, expect, it } from 'vitest';
import { CostTracker } from '../../../../src/cost/tracker.js';
import type { AgentSession } from '../../../../src/runtime/session.js';
import { App } from '../../../../src/tui/App.js';
import { parseSlashCommand, SLASH_COMMANDS, type CommandContext, type PanelSpec } from '../../../../src/tui/commands/index.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { initialSubagents } from '../../../../src/tui/state/subagents.js';
import { worktreeDiff, type WorktreeManagerLike } from '../../../../src/tui/state/worktrees.js';
import type { WorktreeListing } from '../../../../src/worktree/types.js';
import { flush, KEYS, memoryHistory, waitFor } from '../input/helpers.js';

const ROW: WorktreeListing = { id: '20250101-120000-abcdef', path: '/wt/20250101-120000-abcdef', branch: 'seek/wt/20250101-120000-abcdef', changes: 1, createdAt: '2025-01-01T12:00:00.000Z' };

const manager: WorktreeManagerLike = {
  list: async () => [ROW],
  merge: async () => ({ kind: 'cleaned', result: '[worktree: cleaned]' }),
  remove: async () => ({ kind: 'cleaned', result: '[worktree: cleaned]' }),
};

function context(worktrees: WorktreeManagerLike | undefined) {
  const notices: string[] = [];
  const panels: PanelSpec[] = [];
  const ctx = {
    session: { worktrees } as unknown as AgentSession,
    notice: (text: string) => void notices.push(text),
    switchSession: async () => {},
    openPicker: () => {},
    openPanel: (panel: PanelSpec) => void panels.push(panel),
    subagents: () => initialSubagents(),
    runBusy: async () => undefined,
    exit: () => {},
  } satisfies CommandContext;
  return { ctx, notices, panels };
}

function command(name: string) {
  const parsed = parseSlashCommand(`/${name}`);
  if (!parsed || 'unknown' in parsed) throw new Error(`no /${name}`);
  return parsed.command;
}

describe('/worktrees', () => {
  it('is registered, listed by /help, and waits for a running turn to end', async () => {
    expect(SLASH_COMMANDS.some((entry) => entry.name === 'worktrees')).toBe(true);
    expect(command('worktrees').whileRunning).toBeFalsy();
    const { ctx, notices } = context(undefined);
    await command('help').run(ctx, '');
    expect(notices[0]).toMatch(/\n {2}\/worktrees +seek worktrees of this project: diff, merge, remove\n/);
  });

  it('opens the panel when the session has a worktree manager, else says git is needed', async () => {
    const none = context(undefined);
    await command('worktrees').run(none.ctx, '');
    expect(none.panels).toEqual([]);
    expect(none.notices).toEqual(['not a git repository: seek worktrees need one']);
    const some = context(manager);
    await command('worktrees').run(some.ctx, '');
    expect(some.panels).toEqual([{ kind: 'worktrees' }]);
  });

  it('opens from the App over session.worktrees, and Esc gives the input back', async () => {
    const session = {
      id: 'sid',
      model: 'deepseek-v4-flash',
      cwd: '/project',
      contextWindow: 128_000,
      history: [],
      tracker: new CostTracker(),
      policy: { mode: 'ask', subscribe: () => () => {}, cycleMode: () => {} },
      todos: { get: () => [], subscribe: () => () => {} },
      subscribe: () => () => {},
      worktrees: manager,
      async prompt() {},
      async close() {},
    } as unknown as AgentSession;
    const view = render(
      <App session={session} openSession={async () => session} bridge={{}} history={memoryHistory()} fileSearch={() => []} color={false} onSessionChange={() => {}} clearScreen={() => {}} />,
    );
    const frame = () => stripAnsi(view.lastFrame() ?? '');
    await flush();
    for (const char of '/worktrees') view.stdin.write(char);
    await flush();
    view.stdin.write(KEYS.enter);
    await waitFor(() => expect(frame()).toContain('Worktrees 1 · 1 with changes'));
    expect(frame()).toMatch(/❯ 20250101-120000-abcdef 1 +- /);
    view.stdin.write(KEYS.escape);
    await waitFor(() => expect(frame()).not.toContain('Worktrees 1'));
    expect(frame()).toContain('ask seek, / for commands');
    view.unmount();
  });
});

describe('worktreeDiff', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'seek-tui-diff-')));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'ignore' });

  it('is the patch against HEAD (staged, unstaged, new files with their content), index untouched; says when there is nothing', async () => {
    git('init', '-q', '-b', 'main');
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n');
    writeFileSync(join(dir, '.gitignore'), 'ignored.txt\n');
    git('add', '-A');
    git('commit', '-qm', 'init');
    expect(await worktreeDiff(dir)).toEqual(['no changes against HEAD']);

    writeFileSync(join(dir, 'a.txt'), 'one\nTWO\n');
    git('add', 'a.txt');
    writeFileSync(join(dir, 'new file.txt'), 'x\n');
    writeFileSync(join(dir, 'ignored.txt'), 'x\n');
    const lines = await worktreeDiff(dir);
    expect(lines[0]).toBe('diff --git a/a.txt b/a.txt');
    expect(lines).toContain('-two');
    expect(lines).toContain('+TWO');
    expect(lines.slice(lines.indexOf('diff --git a/new file.txt b/new file.txt'))).toEqual([
      'diff --git a/new file.txt b/new file.txt',
      'new file mode 100644',
      'index 0000000..587be6b',
      '--- /dev/null',
      '+++ b/new file.txt\t', // git marks a name with a space this way
      '@@ -0,0 +1 @@',
      '+x',
    ]);
    expect(lines.join('\n')).not.toContain('ignored.txt');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe('M  a.txt\n?? "new file.txt"\n');
  });

  it('throws git\'s message when the directory is not a work tree', async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'seek-tui-nogit-')));
    await expect(worktreeDiff(join(outside))).rejects.toThrow(/not a git repository/i);
    rmSync(outside, { recursive: true, force: true });
  });
});
