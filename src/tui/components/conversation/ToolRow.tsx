import { Text } from 'ink';
import { linesToString, type Line } from '../../markdown/ansi.js';
import { prefixLines, truncateLine } from '../../markdown/width.js';
import type { SubagentView } from '../../state/subagents.js';
import type { ItemViewOptions } from '../../types.js';
import { agentHintLine, runningAgentLines } from './agent-lines.js';
import { planResultLines } from './plan-lines.js';
import { BODY_INDENT, bodyWidth, detailBody, headerLine, HINT_PREFIX, liveOutputLines, previewLines, resultHint, type ToolItem } from './tool-lines.js';

/**
 * The lines of a tool row (exported for tests and for plain-text transcripts). `agents` are the
 * children answering this call when it is an `agent` call (see state/subagents.ts).
 */
export function toolRowLines(item: ToolItem, options: ItemViewOptions, agents: readonly SubagentView[] = []): Line[] {
  const width = Math.max(1, options.width);
  const lines: Line[] = [headerLine(item, width)];
  if (item.status === 'running') return [...lines, ...liveOutputLines(item, width), ...runningAgentLines(agents, width, item.summary)];
  const indent: Line = [{ text: BODY_INDENT }];
  const agentHint = item.name === 'agent' ? agentHintLine(item, agents, width) : null;
  if (options.detail) {
    const body = detailBody(item, bodyWidth(width));
    if (body.length > 0) return [...lines, ...(agentHint ? [agentHint] : []), ...prefixLines(body, indent, indent)];
  }
  if (agentHint) return [...lines, agentHint];
  const plan = item.name === 'delegate_tasks' ? planResultLines(item, width) : null;
  if (plan) return [...lines, ...plan];
  const hint = resultHint(item);
  if (hint !== null) lines.push(truncateLine([...indent, { text: HINT_PREFIX, style: { dim: true } }, ...hint], width));
  const preview = previewLines(item, bodyWidth(width) - HINT_PREFIX.length);
  const under: Line = [{ text: BODY_INDENT + ' '.repeat(HINT_PREFIX.length) }];
  return [...lines, ...prefixLines(preview, under, under)];
}

/**
 * One tool call: a compact line (status glyph, name, key argument, duration), the live tail of a
 * running command's output (or what a running subagent does), a one-line outcome (exit code and
 * test summary, match counts, lines written) and the first lines of the output or the applied
 * diff (see previewLines); in
 * detail mode the full result instead (coloured diff, command output, list, todos, or the
 * model-facing text), capped at ~200 lines.
 */
export function ToolRow({ item, options, agents }: { item: ToolItem; options: ItemViewOptions; agents?: readonly SubagentView[] }) {
  return <Text>{linesToString(toolRowLines(item, options, agents), options.color)}</Text>;
}
