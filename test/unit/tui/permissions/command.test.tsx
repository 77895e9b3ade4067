import { tempDir } from '../../../support/temp-dirs.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { CostTracker } from '../../../../src/cost/tracker.js';
import { PermissionPolicy } from '../../../../src/policy/policy.js';
import type { AgentSession } from '../../../../src/runtime/session.js';
import type { AskAnswer } from '../../../../src/policy/tool-gate.js';
import { App, type PermissionBridge } from '../../../../src/tui/App.js';
import { parseSlashCommand, SLASH_COMMANDS, type CommandContext, type PanelSpec } from '../../../../src/tui/commands/index.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { initialSubagents } from '../../../../src/tui/state/subagents.js';
import { flush, KEYS, memoryHistory, waitFor } from '../input/helpers.js';

function command(name: string) {
  const parsed = parseSlashCommand(`/${name}`);
  if (!parsed || 'unknown' in parsed) throw new Error(`no /${name}`);
  return parsed.command;
}

/** A session with a real policy, over a temporary project and SEEK_HOME. */
function session() {
  const base = tempDir('seek-perm-app-');
  const projectRoot = join(base, 'repo');
  const seekHome = join(base, 'home');
  mkdirSync(projectRoot);
  mkdirSync(seekHome);
  const policy = new PermissionPolicy({ root: projectRoot, sandbox: { available: true } });
  const fake = {
    id: 'sid',
    model: 'deepseek-v4-flash',
    cwd: projectRoot,
    seekHome,
    projectRoot,
    contextWindow: 128_000,
    history: [],
    tracker: new CostTracker(),
    policy,
    todos: { get: () => [], subscribe: () => () => {} },
    subscribe: () => () => {},
    async prompt() {},
    async close() {},
  };
  return { session: fake as unknown as AgentSession, policy, seekHome, projectRoot };
}

function renderApp(target: AgentSession, bridge: PermissionBridge = {}) {
  const view = render(
    <App session={target} openSession={async () => target} bridge={bridge} history={memoryHistory()} fileSearch={() => []} color={false} onSessionChange={() => {}} />,
  );
  return { view, frame: () => stripAnsi(view.lastFrame() ?? '') };
}

describe('/permissions', () => {
  it('is registered, usable mid-turn, listed by /help, and opens its panel', async () => {
    expect(SLASH_COMMANDS.some((entry) => entry.name === 'permissions')).toBe(true);
    expect(command('permissions').whileRunning).toBe(true);
    const notices: string[] = [];
    const panels: PanelSpec[] = [];
    const ctx = {
      session: {} as AgentSession,
      notice: (text: string) => void notices.push(text),
      switchSession: async () => {},
      openPicker: () => {},
      openPanel: (panel: PanelSpec) => void panels.push(panel),
      subagents: () => initialSubagents(),
      runBusy: async () => undefined,
      exit: () => {},
    } satisfies CommandContext;
    await command('help').run(ctx, '');
    expect(notices[0]).toMatch(/\n {2}\/permissions +permission rules in effect: list, add, remove/);
    await command('permissions').run(ctx, '');
    expect(panels).toEqual([{ kind: 'permissions' }]);
  });

  it('opens from the App over the session policy: a rule added there applies at once; Esc gives the input back', async () => {
    const { session: target, policy } = session();
    const { view, frame } = renderApp(target);
    await flush();
    view.stdin.write('/permissions');
    await flush();
    view.stdin.write(KEYS.enter);
    await waitFor(() => expect(frame()).toContain('no rules: the defaults apply'));
    expect(frame()).toContain('Permissions mode ask · sandbox available · 0 rules');
    view.stdin.write('a');
    await flush();
    view.stdin.write('bash(npm test)');
    await flush();
    view.stdin.write(KEYS.enter);
    await flush();
    view.stdin.write('s');
    // The row shows as soon as the policy changes, before the panel's action ends and it hears keys
    // again: wait for the action's own message, or the Esc below could land while it is still busy.
    await waitFor(() => expect(frame()).toContain('allow bash(npm test) added for this session'));
    expect(frame()).toMatch(/allow +bash\(npm test\) +this session/);
    expect(policy.rules).toMatchObject([{ tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' }]);
    view.stdin.write(KEYS.escape);
    await waitFor(() => expect(frame()).not.toContain('Permissions mode'));
    expect(frame()).toContain('ask seek, / for commands');
    view.unmount();
  });

  it('names the session\'s own config files in the approval prompt\'s "always" step', async () => {
    const { session: target, seekHome } = session();
    const bridge: PermissionBridge = {};
    const { view, frame } = renderApp(target, bridge);
    await flush();
    const answer: Promise<AskAnswer> = bridge.ask!({
      tool: 'bash',
      callId: 'c1',
      action: { kind: 'bash', paths: ['/x'], command: 'npm test', summary: 'bash: npm test' },
      cwd: '/x',
      reason: 'bash needs approval',
      alwaysRule: { tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' },
    });
    await waitFor(() => expect(frame()).toContain('adds bash(npm test)'));
    await flush(); // the prompt's key handler attaches after its first frame
    view.stdin.write('a');
    await waitFor(() => expect(frame()).toContain('— for:'));
    expect(frame()).toContain('— .seek/config.local.json (kept out of git)');
    expect(frame()).toContain(`— ${join(seekHome, 'config.json')}`);
    view.stdin.write('l');
    await expect(answer).resolves.toBe('always-local');
    view.unmount();
  });
});
