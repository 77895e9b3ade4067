import { describe, expect, it } from 'vitest';
import { AgentsPanel } from '../../../../src/tui/components/AgentsPanel.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import type { SubagentsState } from '../../../../src/tui/state/subagents.js';
import { flush, KEYS, renderAttached, waitFor } from '../input/helpers.js';
import { widestLine } from '../conversation/ink-at-width.js';
import { end, fold, start, SUB_A, SUB_B, text, toolEnd, toolStart, turn, usage } from './events.js';

/** A finished explore child (A) and a running plan child (B, started later). */
const EVENTS = [
  start(SUB_A),
  turn(SUB_A, 1),
  text(SUB_A, 'Searching the tree.\n'),
  toolStart(SUB_A, 'a1', 'grep', { pattern: 'parse' }),
  toolEnd(SUB_A, 'a1', 'grep'),
  end(SUB_A, { status: 'failed', reason: 'timeout', turns: 2, costUsd: 0.0123 }),
  start(SUB_B, { parentCallId: 'call-agent-2', agentType: 'plan', description: `plan the refactor ${'of everything '.repeat(8)}` }),
  turn(SUB_B, 1),
  usage(SUB_B, 1500, 200, 0.0042),
  text(SUB_B, 'Reading the session code'),
  toolStart(SUB_B, 'b1', 'read', { path: 'src/runtime/session.ts' }),
];

async function setup(state: SubagentsState = fold(EVENTS)) {
  const killed: string[] = [];
  let closed = 0;
  let running = true;
  const session = {
    killSubagent(subSid: string): boolean {
      killed.push(subSid);
      return running;
    },
  };
  const element = (next: SubagentsState) => (
    <AgentsPanel state={next} width={80} color={false} onKill={(subSid) => session.killSubagent(subSid)} onClose={() => (closed += 1)} />
  );
  const view = await renderAttached(element(state));
  const frame = () => stripAnsi(view.lastFrame() ?? '');
  /** The rows inside the border. */
  const rows = () =>
    frame()
      .split('\n')
      .slice(1, -1)
      .map((line) => line.replace(/^│ /, '').replace(/ *│$/, ''));
  async function press(...sequences: string[]): Promise<void> {
    await flush();
    for (const sequence of sequences) {
      view.stdin.write(sequence);
      await flush();
    }
  }
  return { view, frame, rows, press, killed, closedCount: () => closed, update: (next: SubagentsState) => view.rerender(element(next)), stopRunning: () => (running = false) };
}

describe('/agents panel', () => {
  it('lists children newest first with id, type, status, turns, tokens, cost and description, cut at the width', async () => {
    const { rows, frame, view } = await setup();
    expect(rows()[0]).toBe('Subagents 2 · 1 running');
    expect(rows()[1]).toBe('❯ d4e5f6 plan    running          1t 1.7k tok $0.0042 plan the refactor of …');
    expect(rows()[2]).toBe('  a1b2c3 explore failed: timeout  2t  12k tok $0.0123 find the parser');
    expect(rows()[3]).toBe('↑↓ select · enter transcript · k kill · esc close');
    expect(widestLine(frame())).toBeLessThanOrEqual(80);
    view.unmount();
  });

  it('moves the selection with the arrows and keeps it on its child when a new one starts', async () => {
    const { rows, press, update, view } = await setup();
    update(fold([...EVENTS, start('20261122-101750-666666')]));
    await flush();
    expect(rows()[2]!.startsWith('❯ d4e5f6')).toBe(true); // still the child selected at opening
    update(fold(EVENTS));
    await press(KEYS.down);
    expect(rows()[2]!.startsWith('❯ a1b2c3')).toBe(true);
    update(fold([...EVENTS, start('20261122-101800-777777', { agentType: 'explore' })]));
    await flush();
    expect(rows()[0]).toBe('Subagents 3 · 2 running');
    expect(rows().find((row) => row.startsWith('❯ '))!.startsWith('❯ a1b2c3')).toBe(true);
    view.unmount();
  });

  it('a key pressed the moment a new child appears acts on the rows of that frame (not the frame before)', async () => {
    const onlyA = EVENTS.slice(0, 6);
    const { rows, view, update } = await setup(fold(onlyA));
    expect(rows()[1]!.startsWith('❯ a1b2c3')).toBe(true);
    // Up goes in right after the first frame listing the new child is written, before React runs
    // that frame's effects (which attach its key handler).
    const stdout = view.stdout as unknown as { write: (frame: string) => void };
    const write = stdout.write.bind(stdout);
    let sent = false;
    stdout.write = (text: string) => {
      write(text);
      if (!sent && stripAnsi(text).includes('d4e5f6')) {
        sent = true;
        view.stdin.write(KEYS.up);
      }
    };
    update(fold(EVENTS));
    await waitFor(() => expect(rows().find((row) => row.startsWith('❯ '))!.startsWith('❯ d4e5f6')).toBe(true));
    expect(sent).toBe(true);
    view.unmount();
  });

  it('Enter opens the live transcript of the selected child; it follows the child; Esc goes back', async () => {
    const { rows, press, update, closedCount, view } = await setup();
    await press(KEYS.enter);
    expect(rows()).toEqual([
      'plan d4e5f6 · running · 1 turn · $0.0042',
      expect.stringMatching(/^plan the refactor of everything/),
      'Reading the session code',
      '⋯ read src/runtime/session.ts',
      'esc back · ↑↓ scroll · k kill',
    ]);
    update(fold([...EVENTS, toolEnd(SUB_B, 'b1', 'read'), text(SUB_B, 'Done reading.')]));
    await flush();
    expect(rows().slice(2, 5)).toEqual(['Reading the session code', '✓ read src/runtime/session.ts', 'Done reading.']);
    await press(KEYS.escape);
    expect(rows()[0]).toBe('Subagents 2 · 1 running');
    expect(closedCount()).toBe(0);
    await press(KEYS.escape);
    expect(closedCount()).toBe(1);
    view.unmount();
  });

  it('shows a finished child\'s transcript with its end', async () => {
    const { rows, press, view } = await setup();
    await press(KEYS.down, KEYS.enter);
    expect(rows()).toEqual([
      'explore a1b2c3 · failed: timeout · 2 turns · $0.0123',
      'find the parser',
      'Searching the tree.',
      '✓ grep parse',
      '✗ failed (timeout) · 2 turns',
      'esc back · ↑↓ scroll',
    ]);
    view.unmount();
  });

  it('k asks to confirm, y calls killSubagent with the selected sub-sid', async () => {
    const { rows, press, killed, view } = await setup();
    await press('k');
    expect(rows()).toContain('kill d4e5f6? y/n');
    expect(killed).toEqual([]);
    await press('y');
    expect(killed).toEqual([SUB_B]);
    expect(rows()).toContain('stopping d4e5f6…');
    expect(rows()).not.toContain('kill d4e5f6? y/n');
    view.unmount();
  });

  it('handles keys typed faster than a frame in order (k, y, Esc)', async () => {
    const { press, killed, closedCount, view } = await setup();
    await flush();
    for (const sequence of ['k', 'y', KEYS.escape]) view.stdin.write(sequence);
    await press();
    expect(killed).toEqual([SUB_B]);
    expect(closedCount()).toBe(1);
    view.unmount();
  });

  it('n or Esc cancels the kill; a finished child cannot be killed', async () => {
    const { rows, press, killed, closedCount, view } = await setup();
    await press('k', 'n');
    await press('k', KEYS.escape);
    expect(killed).toEqual([]);
    expect(closedCount()).toBe(0);
    await press(KEYS.down, 'k');
    expect(rows()).toContain('a1b2c3 already failed');
    expect(rows().some((row) => row.startsWith('kill'))).toBe(false);
    view.unmount();
  });

  it('kills from the transcript too, and says when the child had already stopped', async () => {
    const { rows, press, killed, stopRunning, view } = await setup();
    stopRunning();
    await press(KEYS.enter, 'k', 'y');
    expect(killed).toEqual([SUB_B]);
    expect(rows()).toContain('d4e5f6 is not running');
    view.unmount();
  });

  it('shows a long answer in full, wrapped and scrollable, with the transcript path whole on its own line under the box', async () => {
    const path = `/home/someone/.seek/projects/${'p'.repeat(30)}/sessions/20261122-101500/subagents/${SUB_A}.jsonl`;
    const answer = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
    const more = Array.from({ length: 20 }, (_, index) => text(SUB_A, `detail line ${index + 1}\n`));
    const state = fold([start(SUB_A), turn(SUB_A, 1), text(SUB_A, `${answer}\n`), ...more, end(SUB_A, { transcriptPath: path })]);
    const { frame, rows, press, view } = await setup(state);
    await press(KEYS.enter, KEYS.home);
    const inside = rows().join(' ');
    // Every word of the long line is there, on rows that fit the box: wrapped, not cut.
    for (let index = 0; index < 40; index++) expect(inside).toContain(`word${index}`);
    expect(inside).toMatch(/below/);
    const lines = frame().split('\n');
    const label = lines.indexOf('full transcript:');
    expect(label).toBeGreaterThan(0);
    expect(widestLine(lines.slice(0, label).join('\n'))).toBeLessThanOrEqual(80); // the box
    expect(lines[label - 1]).toMatch(/^╰/); // under the box's bottom border
    const after = lines.slice(label + 1);
    expect(after.join('')).toBe(path); // whole, outside the border: no │ in it when copied
    await press(KEYS.end);
    expect(rows().join(' ')).toContain('detail line 20');
    expect(rows().join(' ')).not.toContain('word0 ');
    view.unmount();
  });
});
