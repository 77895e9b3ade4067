import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { CostTracker } from '../../../../src/cost/tracker.js';
import type { AgentSession } from '../../../../src/runtime/session.js';
import { App } from '../../../../src/tui/App.js';
import { parseSlashCommand, SLASH_COMMANDS, type CommandContext, type PanelSpec } from '../../../../src/tui/commands/index.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { initialSubagents } from '../../../../src/tui/state/subagents.js';
import { MAX_DIFF_LINES, worktreeDiffLines, type WorktreeManagerLike } from '../../../../src/tui/state/worktrees.js';
import type { WorktreeListing } from '../../../../src/worktree/types.js';
import { flush, KEYS, memoryHistory, waitFor } from '../input/helpers.js';

const ROW: WorktreeListing = { id: '20250101-120000-abcdef', path: '/wt/20250101-120000-abcdef', branch: 'seek/wt/20250101-120000-abcdef', changes: 1, createdAt: '2025-01-01T12:00:00.000Z' };

const manager: WorktreeManagerLike = {
  list: async () => [ROW],
  merge: async () => ({ kind: 'cleaned', result: '[worktree: cleaned]' }),
  remove: async () => ({ kind: 'cleaned', result: '[worktree: cleaned]' }),
  diff: async () => ({ base: 'abcdef0123456789', text: '' }),
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
      <App session={session} openSession={async () => session} bridge={{}} history={memoryHistory()} fileSearch={() => []} color={false} onSessionChange={() => {}} />,
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

describe('worktreeDiffLines', () => {
  const withDiff = (text: string): WorktreeManagerLike => ({ ...manager, diff: async () => ({ base: 'abcdef0123456789', text }) });

  it('splits the diff into lines, says so when there is nothing new, and cuts a long one with the command for the rest', async () => {
    expect(await worktreeDiffLines(withDiff(' a.txt | 1 +\n\ndiff --git a/a.txt b/a.txt\n+x\n'), '/wt/x')).toEqual([' a.txt | 1 +', '', 'diff --git a/a.txt b/a.txt', '+x']);
    expect(await worktreeDiffLines(withDiff(''), '/wt/x')).toEqual(['nothing new since abcdef012345, the commit it started from']);
    const long = await worktreeDiffLines(withDiff(Array.from({ length: MAX_DIFF_LINES + 3 }, (_, i) => `+${i}`).join('\n')), '/wt/x');
    expect(long).toHaveLength(MAX_DIFF_LINES + 1);
    expect(long.at(-1)).toBe('… 3 more lines: seek worktree diff /wt/x');
  });
});
