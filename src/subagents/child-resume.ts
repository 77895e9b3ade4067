/**
 * `agent` with `resume: <sub-sid>`: an earlier child of this session (one that completed, failed,
 * was killed, or was left behind by a parent process that died) continues from its transcript.
 * The continuation is a new child (its own sub-sid, transcript and index record) whose history
 * starts with the earlier one's messages; their usage is dropped from the copy, so nothing is
 * billed twice when the session's children are totalled again. Calls the earlier run never
 * answered get interrupted results first (a provider rejects unanswered calls).
 */
import { subagentTranscriptFile } from '../config/paths.js';
import { isProcessAlive } from '../util/process.js';
import type { Message } from '../providers/types.js';
import { danglingToolCalls, interruptedToolResults, readSession } from '../session/reader.js';
import { readSubagentIndex } from './index-log.js';
import { ambiguousIdText, matchChild } from './child-lookup.js';
import { shortSubSid } from './result-format.js';
import type { SubagentRecord } from './types.js';

export interface EarlierChild {
  record: SubagentRecord;
  /** The history the continuation starts with (the earlier child's context included). */
  messages: Message[];
}

export interface ResumeLookup {
  seekHome: string;
  projectId: string;
  sessionId: string;
  /** Whether this process still runs the child (a background child not ended yet). */
  runningHere: (subSid: string) => boolean;
}

/** The earlier child to continue, or the sentence saying why it cannot be. */
export async function loadEarlierChild(id: string, lookup: ResumeLookup): Promise<EarlierChild | string> {
  let records: SubagentRecord[];
  try {
    records = (await readSubagentIndex(lookup.seekHome, lookup.projectId)).records.filter((record) => record.parent_sid === lookup.sessionId);
  } catch (error) {
    return `could not read the subagent index: ${(error as Error).message}`;
  }
  const match = matchChild(records, id, (candidate) => candidate.sub_sid);
  if (match.kind === 'ambiguous') return ambiguousIdText(id, match.items, (candidate) => candidate.sub_sid, (candidate) => candidate.description);
  if (match.kind === 'missing') return `no subagent "${id}" of this session to resume (agent_status lists them)`;
  const record = match.item;
  if (lookup.runningHere(record.sub_sid)) return `subagent ${shortSubSid(record.sub_sid)} is still running: wait for it (agent_status with wait) before continuing it`;
  if (record.status === 'active' && record.pid !== process.pid && isProcessAlive(record.pid)) {
    return `subagent ${shortSubSid(record.sub_sid)} is still running in another seek process (pid ${record.pid})`;
  }
  try {
    const loaded = await readSession(subagentTranscriptFile(lookup.seekHome, lookup.projectId, record.parent_sid, record.sub_sid));
    const messages = loaded.messages.map(unbilled);
    messages.push(...interruptedToolResults(danglingToolCalls(messages)));
    return { record, messages };
  } catch (error) {
    return `no transcript to continue subagent ${shortSubSid(record.sub_sid)} from (${(error as Error).message}); was it run with --no-save?`;
  }
}

/** The message without what it billed (the earlier transcript still counts that). */
function unbilled(message: Message): Message {
  if (message.role !== 'assistant') return { ...message };
  const { usage: _usage, costUsd: _cost, ...rest } = message;
  return rest;
}
