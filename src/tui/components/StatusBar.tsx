import { Box, Text } from 'ink';
import type { PermissionMode } from '../../policy/policy.js';
import { formatCost, formatTokens } from '../../cost/format.js';

export interface StatusInfo {
  model: string;
  /** Prompt + output tokens of the latest response, against the model's window. */
  contextTokens: number;
  contextWindow: number;
  /** Session totals, subagents included (no hidden bill). */
  inputTokens: number;
  outputTokens: number;
  cacheHitShare: number;
  costUsd: number;
  /** False when a model without known prices was used: the cost shows as "—", not as $0. */
  costKnown?: boolean;
  mode: PermissionMode;
  running: boolean;
  compactions: number;
  /** Running subagents (all depths). */
  activeAgents: number;
  /** A subagent ended moments ago (a brief "✓ agent done"). */
  agentDone?: boolean;
  queued: number;
  /** The branch of the worktree the session works in (enter_worktree), if any. */
  worktreeBranch?: string;
}

const MODE_LABEL: Record<PermissionMode, string> = {
  deny: 'deny',
  ask: 'ask',
  auto: 'auto (sandboxed)',
  yolo: 'yolo',
  plan: 'plan (read-only)',
  plan_execute: 'plan: executing',
};

const MODE_COLOR: Record<PermissionMode, string> = { deny: 'red', ask: 'cyan', auto: 'green', yolo: 'yellow', plan: 'magenta', plan_execute: 'magenta' };

/** One line under the input: model, context use, tokens, cache hits, cost, mode, running agents.
 * Drops the least important parts first when the terminal is narrow. */
export function StatusBar({ info, width, color }: { info: StatusInfo; width: number; color: boolean }) {
  const contextShare = info.contextWindow > 0 ? info.contextTokens / info.contextWindow : 0;
  const contextPct = Math.min(100, Math.round(contextShare * 100));
  const contextColor = contextShare >= 0.85 ? 'red' : contextShare >= 0.6 ? 'yellow' : 'green';
  const parts: Array<{ text: string; color?: string; priority: number }> = [
    { text: MODE_LABEL[info.mode], color: MODE_COLOR[info.mode], priority: 0 },
    { text: info.model, priority: 1 },
    { text: `ctx ${contextPct}%${info.compactions ? ` (compacted ×${info.compactions})` : ''}`, color: contextColor, priority: 2 },
    { text: formatCost(info.costUsd, info.costKnown ?? true), priority: 3 },
    { text: `↑${formatTokens(info.inputTokens)} ↓${formatTokens(info.outputTokens)}`, priority: 4 },
    { text: `cache ${Math.round(info.cacheHitShare * 100)}%`, priority: 5 },
  ];
  // Where edits land matters as much as the mode: never dropped for width.
  if (info.worktreeBranch) parts.splice(1, 0, { text: `⎇ ${info.worktreeBranch}`, color: 'green', priority: 1 });
  if (info.activeAgents > 0) parts.splice(1, 0, { text: `⤴ ${info.activeAgents} agent${info.activeAgents > 1 ? 's' : ''}`, color: 'blue', priority: 1 });
  if (info.agentDone) parts.splice(info.activeAgents > 0 ? 2 : 1, 0, { text: '✓ agent done', color: 'green', priority: 2 });
  if (info.queued > 0) parts.push({ text: `${info.queued} queued`, color: 'cyan', priority: 2 });
  const hint = info.running ? 'esc to cancel' : 'shift+tab mode · /help';

  const separator = ' · ';
  let shown = [...parts];
  const length = (items: typeof parts) => items.reduce((sum, part) => sum + part.text.length, 0) + separator.length * (items.length - 1);
  // Mode, model and agents (priority ≤ 1) are never dropped for the hint: when they alone leave
  // no room, the hint goes (Working already says "esc to cancel") and the text is truncated.
  while (shown.some((part) => part.priority > 1) && length(shown) + hint.length + 2 > width) {
    const drop = shown.reduce((worst, part) => (part.priority > worst.priority ? part : worst));
    shown = shown.filter((part) => part !== drop);
  }
  const showHint = length(shown) + hint.length + 2 <= width;
  return (
    <Box width={width} justifyContent="space-between">
      <Text wrap="truncate">
        {shown.map((part, index) => (
          <Text key={part.text}>
            {index > 0 ? <Text dimColor>{separator}</Text> : null}
            {color && part.color ? <Text color={part.color}>{part.text}</Text> : <Text>{part.text}</Text>}
          </Text>
        ))}
      </Text>
      {showHint ? <Text dimColor>{hint}</Text> : null}
    </Box>
  );
}
