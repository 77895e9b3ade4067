import { sanitizeTerminalText, type Line, type Style } from '../../markdown/ansi.js';
import { truncateLine } from '../../markdown/width.js';
import { BODY_INDENT, HINT_PREFIX, type ToolItem } from './tool-lines.js';

/**
 * The lines under a finished `delegate_tasks` row: the plan's outcome, then one line per task
 * (status glyph, id, role, status, the first line of its result), read from the result text (a
 * contract, see orchestrator/result.ts), so a resumed session shows the same.
 */

export interface PlanResultTask {
  id: string;
  role: string;
  status: string;
  /** `reason=timeout`, `verdict=…`: what the task line says beyond its numbers. */
  detail: string;
  /** The first line of the task's section: its summary, or what went wrong. */
  result: string;
}

export interface PlanResult {
  /** `completed · 3 tasks (graph): 2 completed, 1 failed`. */
  headline: string;
  status: string;
  tasks: PlanResultTask[];
}

const HEAD = /^\[delegate_tasks: (\w+)\] (.*)$/;
const TASK_LINE = /^(\S+) (\S+) (completed|failed|skipped|canceled)\b(.*)$/;
const SECTION = /^## (\S+) \((\S+)\) (\w+)$/;

export function parsePlanResult(output: string): PlanResult | null {
  const lines = output.split('\n');
  const head = HEAD.exec(lines[0] ?? '');
  if (!head) return null;
  const tasks: PlanResultTask[] = [];
  let at = 1;
  for (; at < lines.length && lines[at] !== ''; at++) {
    const task = TASK_LINE.exec(lines[at]!);
    if (!task) continue;
    // The numbers are /agents' business, a skipped task's `(hint)` is its section's first line.
    const detail = task[4]!.split(' ').filter((part) => /^(reason|verdict)=/.test(part)).join(' ');
    tasks.push({ id: task[1]!, role: task[2]!, status: task[3]!, detail, result: '' });
  }
  for (; at < lines.length; at++) {
    const section = SECTION.exec(lines[at]!);
    if (!section) continue;
    const task = tasks.find((candidate) => candidate.id === section[1]);
    const body = lines.slice(at + 1).find((line) => line.trim() !== '' && !line.startsWith('— '));
    if (task && body !== undefined && !SECTION.test(body) && !body.startsWith('totals: ')) task.result = body.trim();
  }
  return { headline: `${head[1]} · ${head[2]}`, status: head[1]!, tasks };
}

const GLYPH: Record<string, { text: string; style: Style }> = {
  completed: { text: '✓', style: { fg: 'green' } },
  failed: { text: '✗', style: { fg: 'red' } },
  skipped: { text: '⊘', style: { dim: true } },
  canceled: { text: '✗', style: { fg: 'yellow' } },
};
const DIM: Style = { dim: true };

/** `└ completed · 3 tasks (graph): 3 completed`, then `✓ t1 explorer  found the parser in …` per
 * task; null when the output is not a plan result (a denied call, an error). */
export function planResultLines(item: ToolItem, width: number): Line[] | null {
  if (item.status === 'running' || item.status === 'denied') return null;
  const plan = parsePlanResult(item.output ?? '');
  if (!plan) return null;
  const tone: Style = plan.status === 'completed' ? { fg: 'green' } : plan.status === 'partial' ? { fg: 'yellow' } : { fg: 'red' };
  const lines: Line[] = [truncateLine([{ text: BODY_INDENT }, { text: HINT_PREFIX, style: DIM }, { text: sanitizeTerminalText(plan.headline), style: tone }], width)];
  const idWidth = Math.min(14, Math.max(0, ...plan.tasks.map((task) => task.id.length)));
  const roleWidth = Math.min(14, Math.max(0, ...plan.tasks.map((task) => task.role.length)));
  for (const task of plan.tasks) {
    const glyph = GLYPH[task.status] ?? { text: '·', style: DIM };
    const status = task.status === 'completed' ? '' : `${task.status}${task.detail ? ` ${task.detail}` : ''}`;
    const said = [status, task.result].filter(Boolean).join(' · ');
    lines.push(
      truncateLine(
        [
          { text: `${BODY_INDENT}  ` },
          glyph,
          { text: ` ${task.id.padEnd(idWidth)} ` },
          { text: task.role.padEnd(roleWidth), style: DIM },
          { text: said ? `  ${sanitizeTerminalText(said)}` : '' },
        ],
        width,
      ),
    );
  }
  return lines;
}
