/**
 * Finding and summarising a project's sessions (`seek --list`, `--continue`, `--resume`).
 * Listing reads whole files but parses as little as it can: tool results (usually the bulk of a
 * transcript) and user messages after the title are recognised from the start of their line and
 * never JSON-parsed; only assistant messages are, for their usage and cost.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sessionsDir, subagentsDir, subagentTranscriptFile } from '../config/paths.js';
import { addUsage, ZERO_USAGE, type Usage } from '../providers/types.js';
import { isSessionId, parseEntry, SessionError, type SessionHeader } from './format.js';
import { parseHeaderLine, tryParseJson } from './reader.js';
import { mapLimit } from '../util/map-limit.js';
import { isCostKnown } from '../cost/tracker.js';
import { isInjectedContext } from './context.js';

export interface SessionSummary {
  id: string;
  path: string;
  created_at: string;
  /** Last modification of the file (ISO). Lists sort on it: the newest session was used last. */
  updated_at: string;
  provider: string;
  model: string;
  /** The first user prompt on one line, at most 80 characters. */
  title: string;
  /** Message entries in the file (compacted ones included). */
  messages: number;
  /** Model responses (assistant messages). */
  turns: number;
  /** Own usage and cost; a subagent's are in its own summary. */
  usage: Usage;
  cost_usd: number;
  /** False when some response was billed by a model without known prices: `cost_usd` is then not a price. */
  cost_known: boolean;
  /** Set for subagent transcripts. */
  parent_sid?: string;
  subagent?: { type: string; description: string };
  /** With `includeSubagents`: this session's subagents, newest first. */
  subagents?: SessionSummary[];
}

export interface ListOptions {
  includeSubagents?: boolean;
  /** Called for each top-level session file that cannot be read (bad header, newer format), with
   * a sentence naming it. Such files are left out of the list; this says so. */
  onUnreadable?: (path: string, reason: string) => void;
}

/** A session file that cannot be read (bad header, newer format, an I/O error). */
export interface UnreadableSession {
  path: string;
  /** One sentence for the user, naming the file (a `SessionError` message). */
  reason: string;
}

/** What `--continue` resumes: the newest session holding a conversation message (a prompt or an
 * answer), or, when the newest file cannot be read, that file (`--continue` then stops: it never
 * picks an older session in its place). */
export interface ContinueChoice {
  session?: SessionRef & { updated_at: string };
  unreadable?: UnreadableSession;
}

/** A session located on disk. */
export interface SessionRef {
  id: string;
  path: string;
  kind: 'session' | 'subagent';
  /** For subagents: the session that spawned it. */
  parent_sid?: string;
}

const TITLE_MAX = 80;
/** Files listed at once; bounds open descriptors on projects with thousands of sessions. */
const READ_CONCURRENCY = 16;

/** The project's sessions, newest first (by last write). Unreadable files are left out, so one
 * damaged session never hides the others. */
export async function listSessions(home: string, pid: string, options: ListOptions = {}): Promise<SessionSummary[]> {
  const refs = await topLevelSessions(home, pid);
  const summaries = await mapLimit(refs, READ_CONCURRENCY, (ref) => summarizeSessionFile(ref.path, options.onUnreadable));
  const present = summaries.filter((s): s is SessionSummary => s !== undefined);
  if (options.includeSubagents) {
    await mapLimit(present, READ_CONCURRENCY, async (parent) => {
      const children = await subagentRefs(home, pid, parent.id);
      const read = await mapLimit(children, READ_CONCURRENCY, (child) => summarizeSessionFile(child.path));
      parent.subagents = sortNewestFirst(
        read.filter((s): s is SessionSummary => s !== undefined).map((s) => ({ ...s, parent_sid: parent.id })),
      );
    });
  }
  return sortNewestFirst(present);
}

/** Who asks for the newest session, for the error when it cannot be read: the command, and how
 * to name another session with it. */
export interface NewestFor {
  what: string;
  another: string;
}

const CONTINUE: NewestFor = { what: '--continue', another: 'resume another with `seek --resume ID`' };

/** The most recently written top-level session that can be continued (see `continueChoice`), or
 * undefined when the project has none. Throws `SessionError` (`unreadable_newest`, exit status 2)
 * when the newest session cannot be read: no older one is taken in its place. */
export async function newestSession(home: string, pid: string, asker: NewestFor = CONTINUE): Promise<(SessionRef & { updated_at: string }) | undefined> {
  const choice = await continueChoice(home, pid);
  if (choice.unreadable) throw newestUnreadable(choice.unreadable, asker);
  return choice.session;
}

/** The error for a newest session that cannot be read: which file, why, what to do. */
export function newestUnreadable(unreadable: UnreadableSession, asker: NewestFor = CONTINUE): SessionError {
  return new SessionError(
    `${asker.what} stopped: the newest session of this project cannot be read. ${unreadable.reason} ` +
      `${asker.what} never takes an older session in its place: ${asker.another} (\`seek --list\` shows them), ` +
      `or move ${unreadable.path} out of the sessions folder to let ${asker.what} take the one before it.`,
    'unreadable_newest',
    2,
  );
}

/**
 * What `--continue` resumes: the most recently written top-level session with a valid header and
 * at least one conversation message (a prompt, so a session killed before its first answer is
 * resumed with its prompt, or an answer). Undamaged files without one (nothing in them to lose: a
 * fork made before any turn) are passed over. When the newest file that is not passed over cannot
 * be read (bad header, newer format, an I/O error, damaged lines and no prompt or answer that can
 * be read), it is returned as `unreadable` and no session is chosen. Stats every file, reads from
 * the newest down until one qualifies.
 */
export async function continueChoice(home: string, pid: string): Promise<ContinueChoice> {
  const refs = await topLevelSessions(home, pid);
  const stamped = await mapLimit(refs, READ_CONCURRENCY, async (ref) => {
    try {
      return { ...ref, mtimeMs: (await stat(ref.path)).mtimeMs };
    } catch {
      return undefined;
    }
  });
  const newestFirst = stamped
    .filter((item): item is SessionRef & { mtimeMs: number } => item !== undefined)
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.id.localeCompare(a.id));
  for (const { mtimeMs, ...ref } of newestFirst) {
    const state = await sessionState(ref.path);
    if (state.kind === 'unreadable') return { unreadable: { path: ref.path, reason: state.reason } };
    if (state.kind === 'resumable') return { session: { ...ref, updated_at: new Date(mtimeMs).toISOString() } };
  }
  return {};
}

type SessionState = { kind: 'resumable' | 'empty' | 'gone' } | { kind: 'unreadable'; reason: string };

/** Whether a session file can be continued: a valid header and a conversation message on file (a
 * user prompt, not seek's own context, or a model response). Only lines that look like messages of
 * those roles are parsed. */
async function sessionState(path: string): Promise<SessionState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' }; // deleted meanwhile
    return { kind: 'unreadable', reason: `${path} cannot be read (${(error as Error).message}).` };
  }
  const lines = text.split('\n');
  try {
    parseHeaderLine(lines[0] ?? '', path);
  } catch (error) {
    if (error instanceof SessionError) return { kind: 'unreadable', reason: error.message };
    throw error;
  }
  if (lines.length < 2) return { kind: 'unreadable', reason: `${path} has a truncated header line; the session cannot be continued.` };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!line.startsWith('{"type":"message"')) continue;
    const head = line.slice(0, 96);
    if (!head.includes('"message":{"role":"assistant"') && !head.includes('"message":{"role":"user"')) continue;
    const entry = parseEntry(tryParseJson(line));
    if (entry?.type !== 'message') continue;
    if (entry.message.role === 'assistant' || (entry.message.role === 'user' && !isInjectedContext(entry.message))) return { kind: 'resumable' };
  }
  // No prompt and no answer: passed over only when nothing in it is damaged (a damaged line may
  // have been the prompt; resuming another session in its place would lose it silently).
  const damaged = lines.slice(1).filter((line) => line.trim() !== '' && parseEntry(tryParseJson(line)) === undefined).length;
  if (damaged > 0) {
    return { kind: 'unreadable', reason: `${path} is damaged: ${damaged} of its lines cannot be read, and none that can holds a prompt or an answer.` };
  }
  return { kind: 'empty' };
}

/**
 * Resolves what a user typed after `--resume`: a full session id, a sub-sid (subagent transcript),
 * a unique prefix of either, or a unique start of the random 6-hex tail. Exact ids win, top-level
 * sessions before subagents. Throws `SessionError` ('not_found' | 'ambiguous') with a message for
 * the user.
 */
/** Every session of the project and every subagent transcript, orphans (parent file gone) included. */
export async function allSessionRefs(home: string, pid: string): Promise<SessionRef[]> {
  const top = await topLevelSessions(home, pid);
  const subs = (await mapLimit(top, READ_CONCURRENCY, (ref) => subagentRefs(home, pid, ref.id))).flat();
  const subIds = new Set(subs.map((s) => s.id));
  // Subagents whose parent file is gone still resolve (their directory survives the parent).
  for (const orphanParent of await orphanParentIds(home, pid, new Set(top.map((t) => t.id)))) {
    for (const ref of await subagentRefs(home, pid, orphanParent)) if (!subIds.has(ref.id)) subs.push(ref);
  }
  return [...top, ...subs];
}

export async function findSession(home: string, pid: string, idOrPrefix: string): Promise<SessionRef> {
  const query = idOrPrefix.trim();
  if (query === '') throw new SessionError('No session id given. Run seek --list to see this project\'s sessions.', 'not_found');
  const all = await allSessionRefs(home, pid);

  const exact = all.find((ref) => ref.id === query);
  if (exact) return exact;
  let matches = uniqueById(all.filter((ref) => ref.id.startsWith(query)));
  if (matches.length === 0 && /^[0-9a-f]{1,6}$/.test(query)) {
    matches = uniqueById(all.filter((ref) => ref.id.slice(16).startsWith(query)));
  }
  const [only] = matches;
  if (only && matches.length === 1) return only;
  if (matches.length === 0) {
    throw new SessionError(`No session "${query}" in this project. Run seek --list to see its sessions.`, 'not_found');
  }
  const shown = matches.slice(0, 5).map((m) => m.id).join(', ');
  const more = matches.length > 5 ? ` and ${matches.length - 5} more` : '';
  throw new SessionError(
    `Session id "${query}" is ambiguous: it matches ${shown}${more}. Type more of the id.`,
    'ambiguous',
  );
}

/** Summarises one session or transcript file; undefined when it is missing or has no valid header
 * (then `onUnreadable` hears why). */
export async function summarizeSessionFile(path: string, onUnreadable?: (path: string, reason: string) => void): Promise<SessionSummary | undefined> {
  let text: string;
  let mtime: Date;
  try {
    [text, mtime] = await Promise.all([readFile(path, 'utf8'), stat(path).then((s) => s.mtime)]);
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  let header: SessionHeader;
  try {
    header = parseHeaderLine(lines[0] ?? '', path);
  } catch (error) {
    if (error instanceof SessionError) onUnreadable?.(path, error.message);
    return undefined;
  }
  let title: string | undefined;
  let messages = 0;
  let turns = 0;
  let usage: Usage = { ...ZERO_USAGE };
  let costUsd = 0;
  let costKnown = true;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!line.startsWith('{"type":"message"')) continue; // events, compactions, corrupt lines
    const role = quickRole(line);
    if (role === 'tool' || (role === 'user' && title !== undefined)) {
      messages += 1;
      continue;
    }
    const entry = parseEntry(tryParseJson(line));
    if (!entry || entry.type !== 'message') continue;
    messages += 1;
    const message = entry.message;
    if (message.role === 'user') {
      if (title === undefined && !isInjectedContext(message)) title = oneLineTitle(message.content);
    } else if (message.role === 'assistant') {
      turns += 1;
      if (message.usage) usage = addUsage(usage, message.usage);
      costUsd += message.costUsd ?? 0;
      if (message.usage && !isCostKnown(message.costUsd, message.model ?? header.model)) costKnown = false;
    }
  }
  const summary: SessionSummary = {
    id: header.id,
    path,
    created_at: header.created_at,
    updated_at: mtime.toISOString(),
    provider: header.provider,
    model: header.model,
    title: title ?? (header.subagent ? oneLineTitle(header.subagent.description) : ''),
    messages,
    turns,
    usage,
    cost_usd: costUsd,
    cost_known: costKnown,
  };
  if (header.parent_sid !== undefined) summary.parent_sid = header.parent_sid;
  if (header.subagent !== undefined) summary.subagent = { type: header.subagent.type, description: header.subagent.description };
  return summary;
}

/** Collapses whitespace and cuts to 80 characters (ellipsis included). */
export function oneLineTitle(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= TITLE_MAX ? flat : `${flat.slice(0, TITLE_MAX - 1).trimEnd()}…`;
}

/**
 * The role of a complete message line, read from its first bytes without parsing; undefined when
 * unsure (then the caller parses). Safe because `"message":{"role":"tool"` cannot occur inside a
 * JSON string (its quotes would be escaped), and in a line written by SessionWriter the only
 * structural `"message":{` at that position is the entry's message. A line not ending in `}` may
 * be torn, so it is parsed (and then skipped).
 */
function quickRole(line: string): 'tool' | 'user' | undefined {
  if (!line.endsWith('}')) return undefined;
  const head = line.slice(0, 96);
  if (head.includes('"message":{"role":"tool"')) return 'tool';
  if (head.includes('"message":{"role":"user"')) return 'user';
  return undefined;
}

/** Memory and other context the runtime injects as user-role messages; never a title. */
async function topLevelSessions(home: string, pid: string): Promise<SessionRef[]> {
  const dir = sessionsDir(home, pid);
  const names = await readdirOrEmpty(dir);
  return names
    .filter((name) => name.endsWith('.jsonl') && isSessionId(name.slice(0, -'.jsonl'.length)))
    .map((name) => ({ id: name.slice(0, -'.jsonl'.length), path: join(dir, name), kind: 'session' as const }));
}

async function subagentRefs(home: string, pid: string, parentSid: string): Promise<SessionRef[]> {
  const names = await readdirOrEmpty(subagentsDir(home, pid, parentSid));
  const refs = await Promise.all(
    names.filter(isSessionId).map(async (subSid): Promise<SessionRef | undefined> => {
      const path = subagentTranscriptFile(home, pid, parentSid, subSid);
      const exists = await stat(path).then((s) => s.isFile(), () => false);
      return exists ? { id: subSid, path, kind: 'subagent', parent_sid: parentSid } : undefined;
    }),
  );
  return refs.filter((r): r is SessionRef => r !== undefined);
}

/** Session side directories (`sessions/<sid>/`) whose `<sid>.jsonl` no longer exists. */
async function orphanParentIds(home: string, pid: string, known: ReadonlySet<string>): Promise<string[]> {
  const names = await readdirOrEmpty(sessionsDir(home, pid));
  return names.filter((name) => isSessionId(name) && !known.has(name));
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

function uniqueById(refs: SessionRef[]): SessionRef[] {
  const seen = new Set<string>();
  return refs.filter((ref) => (seen.has(ref.id) ? false : (seen.add(ref.id), true)));
}

function sortNewestFirst(list: SessionSummary[]): SessionSummary[] {
  return list.sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id));
}
