import type { SessionEvent } from '../../runtime/events.js';
import type { OrchestrationSummary, PlanMode, TaskStatus, Verdict } from '../../orchestrator/types.js';

/**
 * delegate_tasks plans as the UI shows them (the /agents graph, /cost by task), folded from the
 * orchestration events. A task's child is linked through the `label` its `subagent_start` carries.
 * Pure; objects are replaced, never mutated.
 */
export interface PlanTaskView {
  id: string;
  role: string;
  task: string;
  dependsOn: readonly string[];
  status: TaskStatus;
  subSid?: string;
  reason?: string;
  verdict?: Verdict;
}

export interface PlanView {
  callId: string;
  mode: PlanMode;
  goal?: string;
  isolatedWriters: boolean;
  tasks: readonly PlanTaskView[];
  /** Set when the plan ended: its statistics per task and in total. */
  summary?: OrchestrationSummary;
}

/** Applies one event to the plans; returns `plans` itself for events that are not about them. */
export function reducePlans(plans: readonly PlanView[], event: SessionEvent): readonly PlanView[] {
  switch (event.type) {
    case 'orchestration_start':
      return [
        ...plans.filter((plan) => plan.callId !== event.callId),
        {
          callId: event.callId,
          mode: event.mode,
          ...(event.goal ? { goal: event.goal } : {}),
          isolatedWriters: event.isolatedWriters,
          tasks: event.tasks.map((task) => ({ ...task, status: 'pending' as const })),
        },
      ];
    case 'orchestration_task':
      return updateTask(plans, event.callId, event.taskId, (task) => ({
        ...task,
        status: event.status,
        ...(event.subSid ? { subSid: event.subSid } : {}),
        ...(event.record?.subSid ? { subSid: event.record.subSid } : {}),
        ...(event.record?.reason ? { reason: event.record.reason } : event.status === 'skipped' && event.record?.hint ? { reason: event.record.hint } : {}),
        ...(event.record?.verdict ? { verdict: event.record.verdict } : {}),
      }));
    case 'subagent_start':
      return event.label ? updateTask(plans, event.parentCallId, event.label, (task) => ({ ...task, subSid: event.subSid })) : plans;
    case 'orchestration_end':
      return plans.map((plan) => (plan.callId === event.summary.callId ? { ...plan, summary: event.summary } : plan));
    default:
      return plans;
  }
}

function updateTask(plans: readonly PlanView[], callId: string, taskId: string, change: (task: PlanTaskView) => PlanTaskView): readonly PlanView[] {
  const plan = plans.find((candidate) => candidate.callId === callId);
  if (!plan || !plan.tasks.some((task) => task.id === taskId)) return plans;
  return plans.map((candidate) => (candidate === plan ? { ...plan, tasks: plan.tasks.map((task) => (task.id === taskId ? change(task) : task)) } : candidate));
}

/** `3/6 done`, counting every task that ended. */
export function progressText(plan: PlanView): string {
  const ended = plan.tasks.filter((task) => ['completed', 'failed', 'skipped', 'canceled'].includes(task.status)).length;
  return `${ended}/${plan.tasks.length} done`;
}
