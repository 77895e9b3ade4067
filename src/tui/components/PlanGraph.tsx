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
}

/**
 * A plan as a graph, one row per task: status glyph, id, role, the task's first line, and what it
 * waits for (`← a, b`). Live: rows change as the orchestration events arrive.
 */
export function PlanGraph({ plan, width, color, selectedId, note }: PlanGraphProps) {
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
      {plan.tasks.map((task) => (
        <TaskRow key={task.id} task={task} mode={plan.mode} color={color} selected={task.id === selectedId} idWidth={idWidth} roleWidth={roleWidth} />
      ))}
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

function clean(text: string): string {
  return sanitizeTerminalText(text).replace(/\s+/g, ' ');
}
