/**
 * The `delegate_tasks` result the parent model reads (and `seek run` prints):
 *
 *   [delegate_tasks: completed|partial|failed|canceled] <n> tasks (serial|graph): <counts>
 *   <id> <role> <status>[ reason=<r>][ verdict=<v>] turns=<n> model_calls=<n> tool_calls=<n> tokens=<n>
 *   …one line per task…
 *
 *   ## <id> (<role>) <status>
 *   <summary, or what went wrong and where the work is>
 *   …
 *
 *   totals: turns=<n> model_calls=<n> tool_calls=<n> tokens=<n>
 *
 * Lines are `key=value` so scripts can parse them. No cost in it: a pricing change must not change
 * the bytes (as for `agent`); cost is in the JSON output and /cost.
 */
import { verdictText } from './prompts.js';
import type { OrchestrationSummary, TaskRecord } from './types.js';

export function formatResult(summary: OrchestrationSummary): string {
  const { totals, records } = summary;
  const counts = (['completed', 'failed', 'skipped', 'canceled'] as const)
    .filter((key) => totals[key] > 0)
    .map((key) => `${totals[key]} ${key}`)
    .join(', ');
  const lines = [`[delegate_tasks: ${summary.status}] ${totals.tasks} task${totals.tasks === 1 ? '' : 's'} (${summary.mode}): ${counts}`];
  for (const record of records) lines.push(taskLine(record));
  for (const record of records) lines.push('', `## ${record.id} (${record.role}) ${record.status}`, taskBody(record));
  lines.push(
    '',
    `totals: turns=${totals.turns} model_calls=${totals.modelCalls} tool_calls=${totals.toolCalls} tokens=${totals.tokens.prompt + totals.tokens.completion}`,
  );
  for (const note of summary.notes ?? []) lines.push(`note: ${note}`);
  return lines.join('\n');
}

export function taskLine(record: TaskRecord): string {
  const parts = [record.id, record.role, record.status];
  if (record.reason) parts.push(`reason=${record.reason}`);
  if (record.verdict) parts.push(`verdict=${verdictText(record.verdict)}`);
  if (record.status === 'skipped' || (record.status === 'canceled' && record.turns === 0)) {
    parts.push(`(${record.hint ?? ''})`);
    return parts.join(' ');
  }
  parts.push(
    `turns=${record.turns}`,
    `model_calls=${record.modelCalls}`,
    `tool_calls=${record.toolCalls}`,
    `tokens=${record.tokens.prompt + record.tokens.completion}`,
  );
  if (record.reused) parts.push('reused');
  return parts.join(' ');
}

function taskBody(record: TaskRecord): string {
  const lines: string[] = [];
  if (record.status === 'completed') {
    lines.push(record.summary ?? '(no summary)');
    if (record.merge && 'commit' in record.merge) lines.push(`— merged branch ${record.worktree?.branch ?? '?'} as ${record.merge.commit}`);
    else if (record.hint) lines.push(`— ${record.hint}`);
    if (record.reused) lines.push('— completed in an earlier run of this plan; not run again');
  } else if (record.status === 'skipped') {
    lines.push(`not run: its dependency ${record.hint ?? ''}`);
  } else {
    lines.push(record.hint ?? `${record.status}`);
    if (record.worktree?.kept && !(record.hint ?? '').includes(record.worktree.path)) {
      lines.push(`— the work is kept in ${record.worktree.path} (branch ${record.worktree.branch})`);
    }
  }
  if (record.subSid) lines.push(`— sub-sid: ${record.subSid}`);
  return lines.join('\n');
}
