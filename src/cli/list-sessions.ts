import { resolveProject, seekHome } from '../config/paths.js';
import { formatCost, formatTokens } from '../cost/format.js';
import { listSessions, type SessionSummary } from '../session/list.js';
import type { RootOptions } from './root-options.js';

/** `seek --list [--include-subagents]`: this project's sessions, newest first. */
export async function listSessionsCommand(options: RootOptions): Promise<number> {
  const home = seekHome(process.env);
  const { root, pid } = resolveProject(process.cwd(), home);
  // A file that cannot be read is named, never silently left out of the list.
  const onUnreadable = (_path: string, reason: string): void => void process.stderr.write(`seek: ${reason} It is not listed.\n`);
  const sessions = await listSessions(home, pid, { includeSubagents: options.includeSubagents === true, onUnreadable });
  if (sessions.length === 0) {
    process.stdout.write(`no sessions yet in ${root}\n`);
    return 0;
  }
  const lines = [`${'SESSION'.padEnd(24)} ${'UPDATED'.padEnd(16)} ${'TURNS'.padStart(5)} ${'TOKENS'.padStart(7)} ${'COST'.padStart(8)}  TITLE`];
  for (const session of sessions) {
    lines.push(sessionRow(session, ''));
    for (const child of session.subagents ?? []) lines.push(sessionRow(child, '  └ '));
  }
  process.stdout.write(`${lines.join('\n')}\nresume with: seek --resume <session>\n`);
  return 0;
}

/** One line of the list; the cost is "—" when a model without known prices billed part of it. */
export function sessionRow(session: SessionSummary, indent: string): string {
  const updated = session.updated_at.slice(0, 16).replace('T', ' ');
  const tokens = formatTokens(session.usage.inputTokens + session.usage.outputTokens);
  const title = session.subagent ? `[${session.subagent.type}] ${session.subagent.description}` : session.title;
  return `${(indent + session.id).padEnd(24)} ${updated.padEnd(16)} ${String(session.turns).padStart(5)} ${tokens.padStart(7)} ${formatCost(session.cost_usd, session.cost_known).padStart(8)}  ${title}`;
}
