/**
 * Promotion (`seek subagent resume`): a child's transcript becomes a new top-level session that
 * `seek --resume` continues like any other. The transcript itself is left untouched (the parent's
 * bill still counts it); the new session is a copy with its own id.
 */
import { sessionFile, subagentTranscriptFile } from '../config/paths.js';
import { newSessionId, SessionError, type NewSessionHeader } from '../session/format.js';
import { findSession } from '../session/list.js';
import { readSession, type LoadedSession } from '../session/reader.js';
import { SessionWriter } from '../session/writer.js';
import { SUBAGENT_SECTION } from './child-setup.js';
import { appendSubagentEvent, readSubagentIndex } from './index-log.js';

export interface PromoteOptions {
  /** Where a failed index append is reported (the promotion itself still stands). */
  onProblem?: (message: string) => void;
  now?: Date;
}

export interface Promotion {
  sessionId: string;
  path: string;
}

/**
 * Copies the transcript of child `subSid` (a full sub-sid) into a new session file and appends
 * `promoted` to the index (when the index knows the child). The new header is the child's with a
 * new id and creation time, without `subagent`, with `parent_sid` kept as provenance and
 * `promoted_from: <sub-sid>`. The child's
 * system prompt is kept, so the copied history is sent with the prompt it was produced under.
 * Message and compaction entries are copied in order with their timestamps; events (the child's
 * `subagent_end` marker, ...) are not. Compactions' `replaces_through` is renumbered to the copy.
 *
 * Throws `SessionError` (not_found) when there is no such child or transcript, and an Error when
 * the child is still running (its transcript is still growing).
 */
export async function promoteSubagent(home: string, pid: string, subSid: string, options: PromoteOptions = {}): Promise<Promotion> {
  const { records } = await readSubagentIndex(home, pid);
  const record = records.find((candidate) => candidate.sub_sid === subSid);
  if (record?.status === 'active') {
    throw new Error(`subagent ${subSid} is still running; wait for it to end or stop it with: seek subagent kill ${subSid}`);
  }
  const child = await loadTranscript(home, pid, subSid, record?.parent_sid);

  const now = options.now ?? new Date();
  const sessionId = newSessionId(now);
  const { id: _id, subagent: _subagent, type: _type, schema_version: _version, created_at: _created, ...kept } = child.header;
  const header: NewSessionHeader & { promoted_from: string } = {
    ...kept,
    // The root prompt: a child's prompt is the root's bytes plus its subagent section, so the
    // promoted session talks as the main agent (and its prefix matches the root session's).
    system_prompt: rootSystemPrompt(child.header.system_prompt),
    id: sessionId,
    created_at: now.toISOString(),
    promoted_from: subSid,
  };
  const target = sessionFile(home, pid, sessionId);
  const writer = SessionWriter.create(target, header);
  try {
    // Old entry index -> index in the copy, for renumbering compactions.
    const renumbered = new Map<number, number>();
    for (const { index, entry } of child.entries) {
      if (entry.type === 'message') {
        renumbered.set(index, writer.append({ ...entry }));
      } else if (entry.type === 'compaction') {
        renumbered.set(index, writer.append({ ...entry, replaces_through: lastCopiedAtOrBefore(renumbered, entry.replaces_through) }));
      }
    }
  } finally {
    await writer.close();
  }
  // A child the index never recorded gets no event: without its `started`, readers would skip it.
  if (record) {
    appendSubagentEvent(home, pid, { event: 'promoted', sub_sid: subSid, ts: new Date().toISOString(), session_id: sessionId }, options.onProblem);
  }
  return { sessionId, path: target };
}

/** The new index of the last copied entry whose old index is <= `oldIndex`; -1 when none. */
function lastCopiedAtOrBefore(renumbered: ReadonlyMap<number, number>, oldIndex: number): number {
  let result = -1;
  for (const [oldI, newI] of renumbered) if (oldI <= oldIndex && newI > result) result = newI;
  return result;
}

/** Reads the transcript from the index record's parent directory, else wherever `findSession`
 * finds the sub-sid (a record-less child, or one whose parent directory differs). A transcript
 * that exists but cannot be read (bad header) is an error, not a reason to look elsewhere. */
async function loadTranscript(home: string, pid: string, subSid: string, parentSid: string | undefined): Promise<LoadedSession> {
  if (parentSid !== undefined) {
    try {
      return await readSession(subagentTranscriptFile(home, pid, parentSid, subSid));
    } catch (error) {
      if (!(error instanceof SessionError && error.code === 'not_found')) throw error;
    }
  }
  const ref = await findSession(home, pid, subSid).catch(() => undefined);
  if (!ref || ref.kind !== 'subagent' || ref.id !== subSid) {
    throw new SessionError(`No transcript for subagent ${subSid} in this project (was it run with --no-save?).`, 'not_found');
  }
  return readSession(ref.path);
}

/** The root agent's system prompt inside a (possibly nested) child's: everything before the first
 * subagent section that `childSystemPrompt` appends. */
export function rootSystemPrompt(childPrompt: string): string {
  const cut = childPrompt.indexOf(SUBAGENT_SECTION);
  return cut === -1 ? childPrompt : childPrompt.slice(0, cut);
}
