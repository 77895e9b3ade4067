import { useInputAttached } from '../input/use-input-attached.js';
import { Box, Text } from 'ink';
import { useLatestInput } from '../input/use-latest-input.js';
import { useRef, useState } from 'react';
import { dropTask, nextRole, setRole, specsOf, type PlanDecision, type PlanReviewRequest } from '../../orchestrator/review.js';
import type { TaskSpec } from '../../orchestrator/types.js';
import { PlanGraph } from './PlanGraph.js';

export interface PlanReviewPromptProps {
  request: PlanReviewRequest;
  width: number;
  color: boolean;
  onDecide: (decision: PlanDecision) => void;
  /** Rows the prompt may take, border included; long plans show a window of their tasks. */
  maxRows?: number;
}

/** The review's rows besides its tasks: border, title, the graph's heading and note, a message,
 * key hints. */
const REVIEW_CHROME_ROWS = 7;

interface ReviewUi {
  request: PlanReviewRequest;
  specs: TaskSpec[];
  selected: number;
  message?: string;
}

/**
 * The delegate_tasks plan before it runs (interactive ask mode): the graph and what runs together.
 * Enter or y runs it; ↑↓ select a task; d drops it (tasks waiting for it run without its result);
 * r switches its role to the next one; n or Esc rejects the plan. Every edit is validated again.
 */
export function PlanReviewPrompt({ request, width, color, onDecide, maxRows }: PlanReviewPromptProps) {
  // Keys may come faster than frames: handlers read and write the ref, then ask for a render.
  const ui = useRef<ReviewUi>({ request, specs: specsOf(request.plan), selected: 0 });
  const [, render] = useState(0);
  const update = (change: Partial<ReviewUi>): void => {
    ui.current = { ...ui.current, ...change };
    render((n) => n + 1);
  };
  const edit = (specs: TaskSpec[], what: string): void => {
    if (specs.length === 0) return update({ message: 'a plan needs at least one task; press n to reject it instead' });
    try {
      const next = ui.current.request.revise(specs);
      update({ request: next, specs, selected: Math.min(ui.current.selected, specs.length - 1), message: what });
    } catch (error) {
      update({ message: `not possible: ${(error as Error).message}` });
    }
  };

  useLatestInput((input, key) => {
    const now = ui.current;
    const letter = key.ctrl || key.meta ? '' : input.toLowerCase();
    const task = now.specs[now.selected];
    if (key.return || letter === 'y') return onDecide({ kind: 'run', tasks: now.specs });
    if (key.escape || letter === 'n') return onDecide({ kind: 'reject' });
    if (key.upArrow) return update({ selected: Math.max(0, now.selected - 1), message: undefined });
    if (key.downArrow) return update({ selected: Math.min(now.specs.length - 1, now.selected + 1), message: undefined });
    if (!task?.id) return;
    if (letter === 'd') edit(dropTask(now.specs, task.id), `dropped ${task.id}`);
    if (letter === 'r') {
      const role = nextRole(now.request.roles, task.role);
      edit(setRole(now.specs, task.id, role), `${task.id} is now ${role}`);
    }
  });
  const attached = useInputAttached(); // after useInput: effects run in order
  if (!attached) return null; // the question appears only once it can hear its answer

  const { request: current, specs, selected, message } = ui.current;
  const plan = { ...current.plan, isolatedWriters: current.isolatedWriters, tasks: current.plan.tasks.map((task) => ({ ...task, status: 'pending' as const })) };
  const runsAs = current.waves.map((wave) => (wave.length > 1 ? `[${wave.join(' ∥ ')}]` : wave[0])).join(' → ');
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color ? 'yellow' : undefined} paddingX={1} width={width}>
      <Text bold color={color ? 'yellow' : undefined}>
        Run this plan? ({specs.length} subagent task{specs.length === 1 ? '' : 's'})
      </Text>
      <PlanGraph plan={plan} width={width} color={color} selectedId={specs[selected]?.id} note={`runs as: ${runsAs}`} {...(maxRows === undefined ? {} : { maxTaskRows: Math.max(2, maxRows - REVIEW_CHROME_ROWS) })} />
      {message ? <Text dimColor wrap="truncate-end">{message}</Text> : null}
      <Text dimColor wrap="truncate-end">
        enter/y run · n/esc reject · ↑↓ select · d drop task · r change role
      </Text>
    </Box>
  );
}
