/**
 * Loads a session file. Damage is tolerated where it can be: a corrupt line (a bad edit, a crash
 * mid-write) is skipped and counted, never fatal, and the history is then repaired so the next
 * request is valid (repair.ts); only a missing or unreadable header is an error, because without
 * it the session's model and system prompt are unknown.
 */
import { readFile } from 'node:fs/promises';
import {
  addUsage,
  ZERO_USAGE,
  type Message,
  type ToolCall,
  type ToolResultMessage,
  type Usage,
} from '../providers/types.js';
import {
  compactionSummaryMessage,
  parseEntry,
  parseHeader,
  SESSION_SCHEMA_VERSION,
  SessionError,
  type SessionEntry,
  type SessionHeader,
} from './format.js';
import { unwrapProxyCall } from '../agent/tool-proxy.js';
import { repairHistory, type RepairReport } from './repair.js';
import { restoreMessageImages } from './images.js';

/** An entry with its index (see format.ts: index = file line - 1, corrupt lines included). */
export interface IndexedEntry {
  index: number;
  entry: SessionEntry;
}

/** What everything in a transcript billed: every assistant message, compacted ones included. */
export interface TranscriptTotals {
  usage: Usage;
  costUsd: number;
  /** Assistant messages, i.e. model responses. */
  turns: number;
}

export interface LoadedSession {
  path: string;
  header: SessionHeader;
  entries: IndexedEntry[];
  /** The effective history to send: compactions replace the messages they cover with one summary,
   * and damage is repaired (see `repairs`). */
  messages: Message[];
  /** Corrupt or torn lines that were skipped. */
  skippedLines: number;
  /** What the repair of the history changed (all zero for an undamaged file). */
  repairs: RepairReport;
  /** Tool calls of the final assistant message that never got a result (interrupted run). The
   * runtime appends `interruptedToolResults(...)` for them before continuing. */
  danglingToolCalls: ToolCall[];
  /** For `CostTracker.setBase` on resume. */
  totals: TranscriptTotals;
}

export interface ReadOptions {
  /** Only entries with a smaller index (a fork copies the finished turns of a live session). */
  entriesBefore?: number;
}

/** Reads and parses a session (or subagent transcript) file. Throws `SessionError` when the file
 * is missing or its header is missing, corrupt or from a newer schema. */
export async function readSession(path: string, options: ReadOptions = {}): Promise<LoadedSession> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') {
      throw new SessionError(`No session file at ${path}.`, 'not_found');
    }
    throw error;
  }
  return parseSessionText(text, path, options);
}

/** Parses session text; `path` names the source in errors. */
export function parseSessionText(text: string, path: string, options: ReadOptions = {}): LoadedSession {
  const lines = text.split('\n');
  // A file ending with '\n' splits into a trailing empty string that is not a line.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const header = parseHeaderLine(lines[0] ?? '', path);

  const entries: IndexedEntry[] = [];
  let skippedLines = 0;
  const end = options.entriesBefore === undefined ? lines.length : Math.min(lines.length, options.entriesBefore + 1);
  for (let lineNo = 1; lineNo < end; lineNo++) {
    const line = lines[lineNo] ?? '';
    if (line.trim() === '') continue;
    const entry = parseEntry(tryParseJson(line));
    if (entry?.type === 'message') entry.message = restoreMessageImages(entry.message, path);
    if (entry) entries.push({ index: lineNo - 1, entry });
    else skippedLines += 1;
  }

  const { messages, report } = repairHistory(effectiveMessages(entries));
  return {
    path,
    header,
    entries,
    messages,
    skippedLines,
    repairs: report,
    danglingToolCalls: danglingToolCalls(messages),
    totals: transcriptTotals(entries),
  };
}

/** Parses and checks a header line; throws `SessionError` naming `path` when it is not one. */
export function parseHeaderLine(line: string, path: string): SessionHeader {
  if (line.trim() === '') {
    throw new SessionError(`${path} is not a seek session: it has no header line.`, 'bad_header');
  }
  const json = tryParseJson(line);
  const version = typeof json === 'object' && json !== null ? (json as { schema_version?: unknown }).schema_version : undefined;
  if (typeof version === 'number' && version > SESSION_SCHEMA_VERSION) {
    throw new SessionError(
      `${path} was written by a newer seek (session schema ${version}; this seek reads ${SESSION_SCHEMA_VERSION}). ` +
        `Upgrade seek to open it.`,
      'unsupported_version',
    );
  }
  const header = parseHeader(json);
  if (!header) {
    throw new SessionError(
      `${path} is not a seek session: its first line is not a valid session header.`,
      'bad_header',
    );
  }
  return header;
}

/**
 * The history a model should see. Each compaction entry drops every message (and earlier summary)
 * with index <= its `replaces_through` and puts its summary first, as one user message.
 */
export function effectiveMessages(entries: readonly IndexedEntry[]): Message[] {
  let history: Array<{ index: number; message: Message }> = [];
  for (const { index, entry } of entries) {
    if (entry.type === 'message') {
      history.push({ index, message: entry.message });
    } else if (entry.type === 'compaction') {
      const kept = history.filter((item) => item.index > entry.replaces_through);
      history = [{ index, message: compactionSummaryMessage(entry.summary) }, ...kept];
    }
  }
  return history.map((item) => item.message);
}

/**
 * Tool calls left without results at the end of a history: the calls of the last assistant message
 * when only tool results (some, or none) follow it. Providers reject a history like that, so a
 * resumed session must answer them first. Empty when the history is well formed.
 */
export function danglingToolCalls(messages: readonly Message[]): ToolCall[] {
  const answered = new Set<string>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message === undefined) continue;
    if (message.role === 'tool') {
      answered.add(message.toolCallId);
      continue;
    }
    if (message.role === 'user') return [];
    return message.toolCalls.filter((call) => !answered.has(call.id));
  }
  return [];
}

/** Synthetic error results for calls an interrupted run never finished. */
export function interruptedToolResults(calls: readonly ToolCall[]): ToolResultMessage[] {
  return calls.map((call) => ({
    role: 'tool',
    toolCallId: call.id,
    toolName: unwrapProxyCall(call).name,
    content: 'Interrupted: the session stopped before this tool call returned a result. It may or may not have run.',
    isError: true,
  }));
}

/** Sums usage and cost over all assistant messages, including ones a compaction replaced. */
export function transcriptTotals(entries: readonly IndexedEntry[]): TranscriptTotals {
  let usage: Usage = { ...ZERO_USAGE };
  let costUsd = 0;
  let turns = 0;
  for (const { entry } of entries) {
    if (entry.type !== 'message' || entry.message.role !== 'assistant') continue;
    turns += 1;
    if (entry.message.usage) usage = addUsage(usage, entry.message.usage);
    costUsd += entry.message.costUsd ?? 0;
  }
  return { usage, costUsd, turns };
}

export function tryParseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
