import { describe, expect, it } from 'vitest';
import { CostTracker } from '../../../../src/cost/tracker.js';
import type { AgentSession } from '../../../../src/runtime/session.js';
import { parseSlashCommand, SLASH_COMMANDS, type CommandContext, type PanelSpec } from '../../../../src/tui/commands/index.js';
import { initialSubagents, type SubagentsState } from '../../../../src/tui/state/subagents.js';
import { fold, start, SUB_A, SUB_B } from './events.js';

/** A command context over a fake session: records notices and opened panels. */
function context(state: SubagentsState, tracker = new CostTracker()) {
  const notices: string[] = [];
  const panels: PanelSpec[] = [];
  const ctx = {
    session: { tracker } as unknown as AgentSession,
    notice: (text: string) => void notices.push(text),
    switchSession: async () => {},
    openPicker: () => {},
    openPanel: (panel: PanelSpec) => void panels.push(panel),
    subagents: () => state,
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

function childTracker(input: number, output: number, costUsd: number): CostTracker {
  const child = new CostTracker();
  child.record({ usage: { inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd, model: 'm' });
  return child;
}

describe('/agents', () => {
  it('is registered, usable while a turn runs, and listed by /help', async () => {
    expect(SLASH_COMMANDS.some((entry) => entry.name === 'agents')).toBe(true);
    expect(command('agents').whileRunning).toBe(true);
    const { ctx, notices } = context(initialSubagents());
    await command('help').run(ctx, '');
    expect(notices[0]).toMatch(/\n {2}\/agents +subagents of this session: watch, kill\n/);
  });

  it('opens the agents panel when the session has children, else says there are none', async () => {
    const empty = context(initialSubagents());
    await command('agents').run(empty.ctx, '');
    expect(empty.panels).toEqual([]);
    expect(empty.notices).toEqual(['no subagents in this session yet']);
    const some = context(fold([start(SUB_A)]));
    await command('agents').run(some.ctx, '');
    expect(some.panels).toEqual([{ kind: 'agents' }]);
  });
});

describe('/cost with subagents', () => {
  it('names each child by type, short sub-sid and description; totals unchanged', async () => {
    const tracker = new CostTracker();
    tracker.adoptChild(childTracker(12_000, 300, 0.0123));
    tracker.adoptChild(childTracker(2_000, 50, 0.002));
    const state = fold([
      start(SUB_A),
      start('20261122-101700-999999', { parentSubSid: SUB_A, depth: 2 }), // nested: its tracker is SUB_A's child
      start(SUB_B, { parentCallId: 'call-agent-2', agentType: 'plan', description: 'plan the refactor' }),
    ]);
    const { ctx, notices } = context(state, tracker);
    await command('cost').run(ctx, '');
    const lines = notices[0]!.split('\n');
    expect(lines).toContain('  explore a1b2c3 "find the parser": 12k in 300 out  $0.0123');
    expect(lines).toContain('  plan d4e5f6 "plan the refactor": 2k in 50 out  $0.0020');
    expect(lines[lines.length - 1]).toBe('This session: $0.00 · with subagents and earlier runs: $0.0143 · cache hits 0%');
  });

  it('keeps neutral names when the children the UI saw do not line up with the trackers', async () => {
    const tracker = new CostTracker();
    tracker.adoptChild(childTracker(1_000, 10, 0.001));
    tracker.adoptChild(childTracker(1_000, 10, 0.001));
    const { ctx, notices } = context(fold([start(SUB_B)]), tracker);
    await command('cost').run(ctx, '');
    expect(notices[0]).toContain('  subagent 1: 1k in 10 out');
    expect(notices[0]).toContain('  subagent 2: 1k in 10 out');
  });
});
