import { formatCost, formatTokens } from '../../cost/format.js';
import type { CostTracker } from '../../cost/tracker.js';
import { shortSubSid } from '../../subagents/result-format.js';
import type { SubagentsState } from '../state/subagents.js';
import type { SlashCommand } from './types.js';

/** `/cost`: tokens and dollars by turn and by subagent, with cache hits. */
export const costCommand: SlashCommand = {
  name: 'cost',
  description: 'tokens and cost by turn, by subagent and by plan task',
  whileRunning: true,
  run(context) {
    const tracker = context.session.tracker;
    const turns = tracker.turns();
    const rows = turns.slice(-20).map((turn, index) => {
      const number = turns.length - Math.min(20, turns.length) + index + 1;
      const hit = turn.usage.inputTokens ? Math.round((100 * turn.usage.cacheReadTokens) / turn.usage.inputTokens) : 0;
      return `  ${String(number).padStart(4)}  ${turn.model.padEnd(20)} ${formatTokens(turn.usage.inputTokens).padStart(7)} in (${String(hit).padStart(3)}% cached) ${formatTokens(turn.usage.outputTokens).padStart(6)} out  ${formatCost(turn.costUsd, turn.costKnown)}`;
    });
    const labels = subagentLabels(tracker, context.subagents());
    const children = tracker.children().map((child, index) => {
      const total = child.cumulative();
      return `  ${labels[index]}: ${formatTokens(total.usage.inputTokens)} in ${formatTokens(total.usage.outputTokens)} out  ${formatCost(total.costUsd, total.costKnown)}`;
    });
    const own = tracker.own();
    const all = tracker.cumulative();
    const lines = [
      `Turns (${turns.length}${turns.length > 20 ? ', last 20 shown' : ''})`,
      ...rows,
      ...(children.length ? ['Subagents', ...children] : []),
      ...planLines(context.subagents()),
      `This session: ${formatCost(own.costUsd, own.costKnown)} · with subagents and earlier runs: ${formatCost(all.costUsd, all.costKnown)} · cache hits ${Math.round(tracker.cacheHitShare() * 100)}%`,
    ];
    context.notice(lines.join('\n'));
  },
};

/** delegate_tasks plans that ended: per task its calls, tokens and cost, then the plan's totals. */
export function planLines(state: SubagentsState): string[] {
  const ended = state.plans.filter((plan) => plan.summary);
  if (ended.length === 0) return [];
  const lines = ['Plans (delegate_tasks)'];
  for (const plan of ended) {
    const { totals, records, status } = plan.summary!;
    lines.push(`  ${plan.mode} plan, ${status}: ${totals.completed}/${totals.tasks} completed · ${totals.modelCalls} model calls · ${totals.toolCalls} tool calls · ${formatTokens(totals.tokens.prompt + totals.tokens.completion)} tok · ${formatCost(totals.costUsd, totals.costKnown ?? true)}`);
    for (const task of records) {
      const numbers = task.reused ? 'reused from an earlier run' : `${task.modelCalls} model calls · ${task.toolCalls} tool calls · ${formatTokens(task.tokens.prompt + task.tokens.completion)} tok · ${formatCost(task.costUsd, task.costKnown ?? true)}`;
      lines.push(`    ${task.id} ${task.role} ${task.status}${task.reason ? ` (${task.reason})` : ''}: ${task.status === 'skipped' ? 'not run' : numbers}`);
    }
  }
  return lines;
}

/**
 * A label per child tracker: `explore a1b2c3 "find the parser"`. The session's tracker adopts its
 * direct children in the order they start, the same order the UI saw their `subagent_start`; the
 * numbers still come from the trackers. When the two lists do not line up (children the UI never
 * saw), every row keeps the neutral `subagent N` rather than risk a wrong name.
 */
export function subagentLabels(tracker: CostTracker, state: SubagentsState): string[] {
  const known = state.children.filter((child) => child.parentSubSid === undefined);
  const trackers = tracker.children();
  return trackers.map((_child, index) => {
    const child = known.length === trackers.length ? known[index] : undefined;
    if (!child) return `subagent ${index + 1}`;
    const description = child.description.length > 40 ? `${child.description.slice(0, 39)}…` : child.description;
    return `${child.type} ${shortSubSid(child.subSid)} "${description}"`;
  });
}
