import { Box, Text } from 'ink';
import { sanitizeTerminalText } from '../markdown/ansi.js';
import { verdictText } from '../../orchestrator/prompts.js';
import type { TaskStatus } from '../../orchestrator/types.js';
import { shortSubSid } from '../../subagents/result-format.js';
import { progressText, type PlanTaskView, type PlanView } from '../state/plans.js';

const GLYPH: Record<TaskStatus, [string, string | undefined]> = {
  pending: ['◌', undefined],
  running: ['⟳', 'cyan'],
  merging: ['⇢', 'cyan'],
  completed: ['✓', 'green'],
  failed: ['✗', 'red'],
  skipped: ['⊘', undefined],
  canceled: ['✗', 'yellow'],
};

export interface PlanGraphProps {
  plan: Pick<PlanView, 'mode' | 'goal' | 'isolatedWriters' | 'tasks'> & { summary?: PlanView['summary'] };
  width: number;
  color: boolean;
  /** Highlights one task (the review prompt's cursor). */
  selectedId?: string;
  /** Shown after the heading (review: what runs together). */
  note?: string;
  /** Task rows shown at most: a window around the selected task, and a row counting the rest. */
  maxTaskRows?: number;
}

/**
 * A plan as a graph, one row per task: status glyph, id, role, the task's first line, and what it
 * waits for (`← a, b`). Live: rows change as the orchestration events arrive.
 */
export function PlanGraph({ plan, width, color, selectedId, note, maxTaskRows }: PlanGraphProps) {
  const { start, end } = taskWindow(plan.tasks.length, Math.max(0, plan.tasks.findIndex((task) => task.id === selectedId)), maxTaskRows);
  const hidden = [start > 0 ? `↑ ${start} more` : '', end < plan.tasks.length ? `↓ ${plan.tasks.length - end} more` : ''].filter(Boolean).join(' · ');
  const idWidth = Math.min(14, Math.max(2, ...plan.tasks.map((task) => task.id.length)));
  const roleWidth = Math.min(16, Math.max(4, ...plan.tasks.map((task) => task.role.length)));
  const heading = [`Plan · ${plan.mode}`, plan.isolatedWriters ? 'editors in worktrees' : undefined, progressText({ ...plan, callId: '' })].filter(Boolean).join(' · ');
  return (
    <Box flexDirection="column" width={width - 4}>
      <Text bold wrap="truncate-end">
        {heading}
        {plan.goal ? <Text dimColor> — {clean(plan.goal)}</Text> : null}
      </Text>
      {note ? <Text dimColor wrap="truncate-end">{note}</Text> : null}
      {plan.tasks.slice(start, end).map((task) => (
        <TaskRow key={task.id} task={task} mode={plan.mode} color={color} selected={task.id === selectedId} idWidth={idWidth} roleWidth={roleWidth} />
      ))}
      {hidden ? <Text dimColor>{`  ${hidden}`}</Text> : null}
    </Box>
  );
}

function TaskRow({ task, mode, color, selected, idWidth, roleWidth }: { task: PlanTaskView; mode: PlanView['mode']; color: boolean; selected: boolean; idWidth: number; roleWidth: number }) {
  const [glyph, tint] = GLYPH[task.status];
  const after = mode === 'graph' && task.dependsOn.length > 0 ? `  ← ${task.dependsOn.join(', ')}` : '';
  const detail = [task.reason, task.verdict ? `verdict ${verdictText(task.verdict)}` : undefined, task.subSid ? shortSubSid(task.subSid) : undefined].filter(Boolean).join(' · ');
  return (
    <Text wrap="truncate-end" bold={selected}>
      {selected ? <Text color={color ? 'cyan' : undefined}>❯ </Text> : '  '}
      <Text color={color ? tint : undefined} dimColor={task.status === 'skipped'}>
        {glyph}
      </Text>{' '}
      {task.id.padEnd(idWidth)} {task.role.padEnd(roleWidth)} {clean(task.task.split('\n')[0] ?? '')}
      <Text dimColor>
        {after}
        {detail ? `  (${detail})` : ''}
      </Text>
    </Text>
  );
}

/** Tasks `start`..`end` shown in `maxRows` rows (one of them kept for the "more" row when not all
 * fit), centred on `selected`. */
function taskWindow(count: number, selected: number, maxRows: number | undefined): { start: number; end: number } {
  if (maxRows === undefined || count <= maxRows) return { start: 0, end: count };
  const shown = Math.max(1, maxRows - 1);
  const start = Math.max(0, Math.min(selected - Math.floor(shown / 2), count - shown));
  return { start, end: start + shown };
}

function clean(text: string): string {
  return sanitizeTerminalText(text).replace(/\s+/g, ' ');
}
