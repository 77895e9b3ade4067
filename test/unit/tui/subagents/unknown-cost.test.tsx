/**
 * A child billed by a model without known prices shows "—" in the /agents panel, live (from its
 * usage events) and once ended (from its outcome); a priced child keeps its dollar figure.
 */
import { describe, expect, it } from 'vitest';
import { AgentsPanel } from '../../../../src/tui/components/AgentsPanel.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import type { SubagentsState } from '../../../../src/tui/state/subagents.js';
import { renderAttached } from '../input/helpers.js';
import { end, fold, start, SUB_A, SUB_B, turn, usage, wrap } from './events.js';

const UNPRICED = 'no-such-model-for-prices';

function unpricedUsage(subSid: string): ReturnType<typeof wrap> {
  return wrap(subSid, { type: 'usage', turn: 1, usage: { inputTokens: 900, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, model: UNPRICED });
}

async function panelRows(state: SubagentsState): Promise<string[]> {
  const view = await renderAttached(<AgentsPanel state={state} width={80} color={false} onKill={() => true} onClose={() => {}} />);
  const rows = stripAnsi(view.lastFrame() ?? '').split('\n');
  view.unmount();
  return rows;
}

describe('/agents panel with an unpriced model', () => {
  it('marks a running child billed by an unknown model as unknown, a priced one as known', () => {
    const state = fold([start(SUB_A, { model: UNPRICED }), turn(SUB_A, 1), unpricedUsage(SUB_A), start(SUB_B), turn(SUB_B, 1), usage(SUB_B, 1500, 200, 0.0042)]);
    expect(state.children.find((child) => child.subSid === SUB_A)!.costKnown).toBe(false);
    expect(state.children.find((child) => child.subSid === SUB_B)!.costKnown).toBe(true);
  });

  it('shows — for the unknown child and the dollar figure for the known one', async () => {
    const state = fold([
      start(SUB_A, { model: UNPRICED }),
      turn(SUB_A, 1),
      unpricedUsage(SUB_A),
      end(SUB_A, { costUsd: 0, costKnown: false, turns: 1 }),
      start(SUB_B),
      turn(SUB_B, 1),
      usage(SUB_B, 1500, 200, 0.0042),
    ]);
    const rows = await panelRows(state);
    const unknown = rows.find((row) => row.includes('a1b2c3'))!;
    const known = rows.find((row) => row.includes('d4e5f6'))!;
    expect(unknown).toContain('—');
    expect(unknown).not.toContain('$');
    expect(known).toContain('$0.0042');
  });
});
