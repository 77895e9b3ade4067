import { formatCost, formatTokens } from '../../cost/format.js';
import type { SlashCommand } from './types.js';

/** `/cost`: tokens and dollars by turn and by subagent, with cache hits. */
export const costCommand: SlashCommand = {
  name: 'cost',
  description: 'tokens and cost by turn and by subagent',
  run(context) {
    const tracker = context.session.tracker;
    const turns = tracker.turns();
    const rows = turns.slice(-20).map((turn, index) => {
      const number = turns.length - Math.min(20, turns.length) + index + 1;
      const hit = turn.usage.inputTokens ? Math.round((100 * turn.usage.cacheReadTokens) / turn.usage.inputTokens) : 0;
      return `  ${String(number).padStart(4)}  ${turn.model.padEnd(20)} ${formatTokens(turn.usage.inputTokens).padStart(7)} in (${String(hit).padStart(3)}% cached) ${formatTokens(turn.usage.outputTokens).padStart(6)} out  ${formatCost(turn.costUsd)}`;
    });
    const children = tracker.children().map((child, index) => {
      const total = child.cumulative();
      return `  subagent ${index + 1}: ${formatTokens(total.usage.inputTokens)} in ${formatTokens(total.usage.outputTokens)} out  ${formatCost(total.costUsd)}`;
    });
    const own = tracker.own();
    const all = tracker.cumulative();
    const lines = [
      `Turns (${turns.length}${turns.length > 20 ? ', last 20 shown' : ''})`,
      ...rows,
      ...(children.length ? ['Subagents', ...children] : []),
      `This session: ${formatCost(own.costUsd)} · with subagents and earlier runs: ${formatCost(all.costUsd)} · cache hits ${Math.round(tracker.cacheHitShare() * 100)}%`,
    ];
    context.notice(lines.join('\n'));
  },
};
