import { formatCost, formatTokens } from '../../../cost/format.js';
import { parseAgentResult, shortSubSid } from '../../../subagents/result-format.js';
import { sanitizeTerminalText, type Line, type Style } from '../../markdown/ansi.js';
import { truncateLine } from '../../markdown/width.js';
import type { SubagentView } from '../../state/subagents.js';
import { count } from './text-blocks.js';
import { BODY_INDENT, HINT_PREFIX, type ToolItem } from './tool-lines.js';

/**
 * The extra lines of an `agent` tool row. While its child runs: one dim line per child saying what
 * it does now. Once finished: the result status (parsed from the result text, a contract) with the
 * child's turns, tokens and cost. One line each, cut at the width.
 */

const DIM: Style = { dim: true };

/** `  ⤷ t2 explore: find the parser · turn 2 · grep TODO in src` (or `thinking…`) for each running
 * child: its task id (a plan's) or short id, its role and description, so two children of the same
 * role are told apart. The description is left out when the row above already says it
 * (`rowSummary`, an `agent` call's own description). */
export function runningAgentLines(agents: readonly SubagentView[], width: number, rowSummary?: string): Line[] {
  return agents
    .filter((agent) => agent.status === 'running')
    .map((agent) => {
      const doing = agent.currentTool ? [agent.currentTool.name, agent.currentTool.summary].filter(Boolean).join(' ') : agent.turns > 0 ? 'thinking…' : 'starting…';
      const who = `${agent.label ?? shortSubSid(agent.subSid)} ${agent.type}`;
      const what = rowSummary !== undefined && oneLine(rowSummary) === oneLine(agent.description) ? '' : oneLine(agent.description);
      const parts = [what ? `${who}: ${what}` : who, ...(agent.turns > 0 ? [`turn ${agent.turns}`] : []), sanitizeTerminalText(doing)];
      return truncateLine([{ text: BODY_INDENT }, { text: '⤷ ', style: DIM }, { text: who, style: { bold: true } }, { text: parts.join(' · ').slice(who.length), style: DIM }], width);
    });
}

function oneLine(text: string): string {
  const line = sanitizeTerminalText(text).replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/**
 * `└ completed · 3 turns · 12k tokens · $0.0123` for a finished agent call, or `└ failed
 * reason=timeout · …`. Null when the result is not an agent result (a denied call, say): the
 * generic hint applies then. Without the child's state (a resumed session), turns and tokens come
 * from the result's footer and the cost is left out.
 */
export function agentResultHint(item: ToolItem, agents: readonly SubagentView[]): Line | null {
  if (item.status === 'running' || item.status === 'denied') return null;
  const background = backgroundHint(item.output ?? '');
  if (background) return background;
  const parsed = parseAgentResult(item.output ?? '');
  if (!parsed) return null;
  const status: Line =
    parsed.status === 'completed'
      ? [{ text: 'completed', style: { fg: 'green' } }]
      : [{ text: `failed reason=${parsed.reason}`, style: { fg: parsed.reason === 'killed' ? 'yellow' : 'red' } }];
  const child = [...agents].reverse().find((agent) => agent.status !== 'running');
  const stats = child ? childStats(child) : footerStats(item.output ?? '');
  const tail = stats.length ? [{ text: ` · ${stats.join(' · ')}`, style: DIM }] : [];
  return [...status, ...tail];
}

/** `[agent: started in background]` (or `moved to background`, Ctrl+B), background.ts: the call
 * returned while its child goes on, so `⤴ running in the background · a1b2c3` (the status bar's
 * `⤴ N agents` counts it; a notice says when it ends), not the result text's line count. */
function backgroundHint(output: string): Line | null {
  const started = /^\[agent: (started in|moved to) background\]/.exec(output);
  if (!started) return null;
  // \u2014 is the em dash (escaped: see scripts/build.mjs on ASCII).
  const subSid = /\u2014 sub-sid: (\S+)/.exec(output)?.[1];
  const what = started[1] === 'started in' ? 'running in the background' : 'moved to the background';
  return [{ text: `\u2934 ${what}`, style: { fg: 'blue' } }, ...(subSid ? [{ text: ` \u00b7 ${subSid}`, style: DIM }] : [])];
}

/** The whole hint line under a finished agent row, or null (see agentResultHint). */
export function agentHintLine(item: ToolItem, agents: readonly SubagentView[], width: number): Line | null {
  const hint = agentResultHint(item, agents);
  return hint ? truncateLine([{ text: BODY_INDENT }, { text: HINT_PREFIX, style: DIM }, ...hint], width) : null;
}

function childStats(child: SubagentView): string[] {
  return [count(child.turns, 'turn'), `${formatTokens(child.inputTokens + child.outputTokens)} tokens`, formatCost(child.costUsd, child.costKnown ?? true)];
}

/** `— sub-sid: a1b2c3 · turns: 3 · tokens: 12345` (result-format.ts) → `3 turns`, `12k tokens`. */
function footerStats(output: string): string[] {
  // \u2014 is the em dash, \u00b7 the middle dot (escaped: see scripts/build.mjs on ASCII).
  const footer = /\u2014 sub-sid: \S* \u00b7 turns: (\d+) \u00b7 tokens: (\d+)/.exec(output);
  return footer ? [count(Number(footer[1]), 'turn'), `${formatTokens(Number(footer[2]))} tokens`] : [];
}
