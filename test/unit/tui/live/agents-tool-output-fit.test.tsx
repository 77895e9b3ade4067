import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrchestrationEvent } from '../../../../src/orchestrator/types.js';
import type { SessionEvent } from '../../../../src/runtime/events.js';
import { AgentsPanel } from '../../../../src/tui/components/AgentsPanel.js';
import { ToolOutputPanel } from '../../../../src/tui/components/ToolOutputPanel.js';
import type { ToolItem } from '../../../../src/tui/components/conversation/tool-lines.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { initialSubagents, reduceSubagentEvents } from '../../../../src/tui/state/subagents.js';
import { widestLine } from '../conversation/ink-at-width.js';
import { end, start, SUB_A, text, turn } from '../subagents/events.js';
import { flush, KEYS, renderAttached } from '../input/helpers.js';

const mounted: Array<{ unmount: () => void }> = [];
afterEach(() => mounted.splice(0).forEach((view) => view.unmount()));

type View = Awaited<ReturnType<typeof renderAttached>>;
const rowsOf = (view: View) => stripAnsi(view.lastFrame() ?? '').split('\n');
const frameOf = (view: View) => stripAnsi(view.lastFrame() ?? '');

/** A transcript path on a line of its own: the one line seek writes wider than the terminal (never
 * broken, the terminal soft-wraps it). */
const PATH_LINE = /^\/\S+\.jsonl$/;
/** Rows the frame takes in a terminal `width` columns wide, which soft-wraps a longer line. */
const terminalRows = (frame: string, width: number) => frame.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(stringWidth(line) / width)), 0);

/** Presses each key and checks, after every one, that the frame stays within `maxRows` rows of
 * the terminal and `width` columns (but for a transcript path, which the terminal wraps). */
async function pressWithin(view: View, maxRows: number, width: number, ...keys: string[]): Promise<void> {
  for (const key of keys) {
    view.stdin.write(key);
    await flush();
    expect(terminalRows(frameOf(view), width), `after ${JSON.stringify(key)}:\n${frameOf(view)}`).toBeLessThanOrEqual(maxRows);
    expect(widestLine(rowsOf(view).filter((line) => !PATH_LINE.test(line)).join('\n'))).toBeLessThanOrEqual(width);
  }
}

const TRANSCRIPT_LINES = 60;
/** The last row of a finished child's transcript. */
const END_ROW = /│ · completed · 3 turns +│/;
const transcriptPath = `/home/someone/.seek/projects/${'deeply-nested-project-directory/'.repeat(3)}subagents/${SUB_A}.jsonl`;
/** A finished child whose answer is 60 lines, some of them wrapping, and whose transcript path is
 * wider than the terminal (the terminal wraps it under the box over two rows at 80 columns). */
function longChild(): SessionEvent[] {
  const answer = Array.from({ length: TRANSCRIPT_LINES }, (_, index) => (index % 7 === 3 ? `line ${index + 1} ${'long words '.repeat(12)}` : `line ${index + 1}`)).join('\n');
  return [start(SUB_A), turn(SUB_A, 1), text(SUB_A, `${answer}\n`), end(SUB_A, { transcriptPath })];
}

describe('/agents fits the rows it is given', () => {
  // The path under the box is left out when fewer than three transcript rows would be left.
  for (const [maxRows, pathShown] of [
    [8, false],
    [12, false],
    [20, true],
  ] as const) {
    it(`a long transcript scrolls inside ${maxRows} rows (path under the box: ${pathShown}), its keys all working`, async () => {
      const state = reduceSubagentEvents(initialSubagents(), longChild(), 1_000);
      const view = await renderAttached(<AgentsPanel state={state} width={80} color={false} onKill={() => true} onClose={() => {}} maxRows={maxRows} />);
      mounted.push(view);
      expect(rowsOf(view).length).toBeLessThanOrEqual(maxRows);
      await pressWithin(view, maxRows, 80, KEYS.enter);
      // Opens on the end: the last row, a count of the rows above, the path when it fits.
      expect(frameOf(view)).toMatch(END_ROW);
      const opened = / · (\d+) above/.exec(frameOf(view))?.[1];
      expect(opened).toBeDefined();
      expect(frameOf(view)).not.toMatch(/│ line 1 +│/);
      expect(frameOf(view).includes('full transcript:')).toBe(pathShown);
      // The path whole, on one line (the terminal wraps it; seek never breaks it).
      if (pathShown) expect(rowsOf(view)).toContain(transcriptPath);
      await pressWithin(view, maxRows, 80, KEYS.up);
      expect(frameOf(view)).toContain(' · 1 below');
      await pressWithin(view, maxRows, 80, '\u001b[5~'); // PgUp
      expect(frameOf(view)).not.toMatch(END_ROW);
      await pressWithin(view, maxRows, 80, KEYS.home);
      expect(frameOf(view)).toMatch(/│ line 1 +│/);
      expect(frameOf(view)).not.toMatch(/ · \d+ above/);
      await pressWithin(view, maxRows, 80, '\u001b[6~', KEYS.down);
      expect(frameOf(view)).toMatch(/ · \d+ above/);
      await pressWithin(view, maxRows, 80, KEYS.end);
      expect(frameOf(view)).toMatch(END_ROW);
      expect(frameOf(view)).toContain(` · ${opened} above`); // back where it opened
      expect(frameOf(view)).not.toMatch(/ · \d+ below/);
      await pressWithin(view, maxRows, 80, KEYS.escape);
      expect(frameOf(view)).toContain('Subagents 1 · 0 running');
    });
  }

  it('a running child with a long transcript (no path yet) fits as well', async () => {
    const [started, turned, answer] = longChild();
    const state = reduceSubagentEvents(initialSubagents(), [started!, turned!, answer!], 1_000);
    const view = await renderAttached(<AgentsPanel state={state} width={60} color={false} onKill={() => true} onClose={() => {}} maxRows={10} />);
    mounted.push(view);
    await pressWithin(view, 10, 60, KEYS.enter, 'k'); // k: the "kill? y/n" row
    expect(frameOf(view)).toContain('? y/n');
    expect(frameOf(view)).toContain(`line ${TRANSCRIPT_LINES}`);
  });

  it('many children under a plan of 20 tasks: list and plan share the rows, the selection stays in view', async () => {
    const tasks = Array.from({ length: 20 }, (_, index) => ({ id: `t${index}`, role: 'explorer', task: `look at part ${index}`, dependsOn: [] }));
    const plan: OrchestrationEvent = { type: 'orchestration_start', callId: 'call-1', mode: 'graph', isolatedWriters: false, tasks };
    const children = Array.from({ length: 15 }, (_, index) => start(`20261122-1016${String(index).padStart(2, '0')}-c${String(index).padStart(5, '0')}`, { description: `child ${index}` }));
    const state = reduceSubagentEvents(initialSubagents(), [plan, ...children], 1_000);
    const view = await renderAttached(<AgentsPanel state={state} width={80} color={false} onKill={() => true} onClose={() => {}} maxRows={14} />);
    mounted.push(view);
    expect(rowsOf(view).length).toBeLessThanOrEqual(14);
    expect(frameOf(view)).toContain('Plan · graph');
    expect(frameOf(view)).toMatch(/↓ \d+ more/); // the plan's hidden tasks are counted
    await pressWithin(view, 14, 80, ...Array.from({ length: 14 }, () => KEYS.down));
    expect(frameOf(view)).toMatch(/❯ \S+ explore .* child 0/); // newest first: the oldest is last
  });
});

function toolItem(lines: number): ToolItem {
  const output = Array.from({ length: lines }, (_, index) => (index === 5 ? `output ${index + 1} ${'x'.repeat(200)}` : `output ${index + 1}`)).join('\n');
  return {
    kind: 'tool',
    id: 'c1',
    name: 'bash',
    summary: 'seq 100',
    status: 'done',
    durationMs: 5,
    output,
    display: { kind: 'command', command: 'seq 100', cwd: '/project', exitCode: 0, output },
  };
}

describe('Ctrl+T output fits the rows it is given', () => {
  for (const maxRows of [6, 10, 20]) {
    it(`100 lines of output scroll inside ${maxRows} rows`, async () => {
      const view = await renderAttached(<ToolOutputPanel items={[toolItem(100)]} width={80} color={false} onClose={() => {}} maxRows={maxRows} />);
      mounted.push(view);
      expect(rowsOf(view).length).toBeLessThanOrEqual(maxRows);
      expect(frameOf(view)).toContain('output 1');
      expect(frameOf(view)).toMatch(/ · \d+ below/);
      await pressWithin(view, maxRows, 80, KEYS.down, '\u001b[6~', ' ');
      expect(frameOf(view)).toMatch(/ · \d+ above/);
      await pressWithin(view, maxRows, 80, KEYS.end);
      expect(frameOf(view)).toContain('output 100');
      expect(frameOf(view)).not.toMatch(/ · \d+ below/);
      await pressWithin(view, maxRows, 80, '\u001b[5~', KEYS.up, KEYS.home);
      expect(frameOf(view)).toContain('output 1');
      expect(frameOf(view)).not.toMatch(/ · \d+ above/);
    });
  }

  it('at 40 columns the footer keeps the counts and esc close, cutting the key hints instead', async () => {
    const view = await renderAttached(<ToolOutputPanel items={[toolItem(100)]} width={40} color={false} onClose={() => {}} maxRows={10} />);
    mounted.push(view);
    expect(frameOf(view)).toMatch(/│ tool 1\/1 · \d+ below · esc close · … │/);
    await pressWithin(view, 10, 40, KEYS.end);
    expect(frameOf(view)).toMatch(/│ tool 1\/1 · \d+ above · esc close · … │/);
  });
});
