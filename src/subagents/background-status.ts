/**
 * `agent_status`: what the model learns about background children when it asks, optionally after
 * waiting (with a timeout) for them to end. An ended child's result given here is not delivered
 * again. A child of an earlier run of this session (a resumed parent) is read from the index.
 */
import { readSubagentIndex } from './index-log.js';
import type { BackgroundChild, BackgroundChildren } from './background.js';
import { ambiguousIdText, matchChild } from './child-lookup.js';
import { shortSubSid } from './result-format.js';
import { isProcessAlive } from '../util/process.js';
import type { SubagentRecord } from './types.js';

export interface StatusQuery {
  ids?: readonly string[];
  /** Wait up to this long for the chosen children to end (0: answer now). */
  waitMs: number;
  signal: AbortSignal;
}

export interface StatusContext {
  background: BackgroundChildren;
  seekHome: string;
  projectId: string;
  sessionId: string;
}

export async function backgroundStatus(query: StatusQuery, context: StatusContext): Promise<string> {
  const { background } = context;
  const chosen = query.ids?.length ? query.ids : background.list().map((child) => child.subSid);
  if (chosen.length === 0) return 'No background subagents in this session.';
  const live = chosen.map((id) => background.find(id)).filter((child): child is BackgroundChild => child !== undefined);
  if (query.waitMs > 0 && live.some((child) => !child.report)) {
    const timeout = AbortSignal.any([query.signal, AbortSignal.timeout(query.waitMs)]);
    await Promise.all(live.map((child) => background.ended(child.subSid, timeout)));
  }
  const index = live.length < chosen.length ? await readIndex(context) : [];
  const lines = chosen.map((id) => {
    const here = background.lookup(id);
    if (here.kind === 'found') return describeLive(here.item, background);
    if (here.kind === 'ambiguous') return ambiguousIdText(id, here.items, (child) => child.subSid, (child) => child.description);
    const earlier = matchChild(index, id, (entry) => entry.sub_sid);
    if (earlier.kind === 'ambiguous') return ambiguousIdText(id, earlier.items, (entry) => entry.sub_sid, (entry) => entry.description);
    return earlier.kind === 'found' ? describeRecord(earlier.item) : `${id}: no such subagent of this session`;
  });
  return lines.join('\n\n');
}

function describeLive(child: BackgroundChild, background: BackgroundChildren): string {
  const id = shortSubSid(child.subSid);
  if (!child.report) {
    const seconds = Math.round((Date.now() - child.startedAt) / 1000);
    return `${id} ("${child.description}"): running · ${seconds}s · turns: ${child.turns} · tokens: ${child.tokens}${child.lastAction ? ` · last: ${child.lastAction}` : ''}`;
  }
  background.inbox.drop(child.subSid);
  return `${id} ("${child.description}") ended:\n${child.report.result.content}`;
}

/** A child this process does not run: an earlier run of this session started it. */
function describeRecord(record: SubagentRecord): string {
  const id = shortSubSid(record.sub_sid);
  const figures = `${record.turns ?? 0} turns · tokens: ${(record.tokens?.prompt ?? 0) + (record.tokens?.completion ?? 0)}`;
  const resume = `continue it with agent (resume: "${id}", and a prompt saying what to do now), or the user with \`seek --resume ${record.sub_sid}\``;
  const stale = record.status === 'active' && !isProcessAlive(record.pid); // its process died; recovery has not run yet
  if (record.status === 'active' && !stale) return `${id} ("${record.description}"): active in another seek process (pid ${record.pid}); ${figures}`;
  const state = record.status === 'orphaned' || stale ? 'interrupted (its seek process ended while it ran; not running any more)' : record.status;
  return `${id} ("${record.description}"): ${state}${record.reason ? ` (${record.reason})` : ''} · ${figures}; ${resume}`;
}

async function readIndex(context: StatusContext): Promise<SubagentRecord[]> {
  try {
    const { records } = await readSubagentIndex(context.seekHome, context.projectId);
    return records.filter((record) => record.parent_sid === context.sessionId);
  } catch {
    return [];
  }
}
