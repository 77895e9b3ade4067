/**
 * The on-disk session format (JSONL, `schema_version` 1): one header line, then one entry a line.
 * Subagent transcripts use the same format. Unknown fields are kept when read (loose objects), so
 * a file written by a newer seek of the same schema version still loads.
 *
 * Entry indexes: the entry on file line `n` (0-based, header = line 0) has index `n - 1`. Every
 * line after the header counts, including corrupt ones, so an index never shifts when a damaged
 * line is skipped. `SessionWriter.append` returns the index it wrote.
 *
 * Forks (schema 1, compatible: older readers keep the unknown key): a session continued while
 * another live seek process was writing it becomes a new session whose header says
 * `"forked_from": {"session_id": "<sid>", "entries": <n>, "pid": <owner pid>}`: the original's
 * entries 0..n-1 (its turns finished when it was forked) were carried over, so the fork's file
 * starts with copies of them (damaged lines left out, compactions renumbered), then its own.
 *
 * Next to a session file, while a process writes it: `<sid>.owner.json` (the lock, see lock.ts).
 */
import { createHash } from 'node:crypto';
import { lazySchema } from '../util/zod.js';
import type { Message, ToolSchema, UserMessage } from '../providers/types.js';

export const SESSION_SCHEMA_VERSION = 1;

export type SessionErrorCode = 'not_found' | 'ambiguous' | 'bad_header' | 'unsupported_version' | 'unreadable_newest';

/** A session that cannot be found or opened. The message is for the user: one clear sentence or
 * two naming the id or file, never a stack trace. `exitStatus`, when set, is the process's exit
 * status if the error ends it (2: `--continue` refused to pick another session). */
export class SessionError extends Error {
  override readonly name = 'SessionError';
  constructor(
    message: string,
    readonly code: SessionErrorCode,
    readonly exitStatus?: number,
  ) {
    super(message);
  }
}

// ---- Session ids ----------------------------------------------------------------------------------

const SESSION_ID_PATTERN = /^\d{8}-\d{6}-[0-9a-f]{6}$/;

/** A new session id `YYYYMMDD-HHMMSS-<6hex>` (UTC). Sub-sids have the same shape. Ids sort by time.
 * The six hex digits keep ids started in the same second apart (24 random bits); an id is a name,
 * not a secret, so they come from Math.random (V8 seeds it per process from the OS), sparing a
 * start the load of node:crypto. */
export function newSessionId(now: Date = new Date()): string {
  const iso = now.toISOString(); // 2025-01-31T12:34:56.789Z
  const date = iso.slice(0, 10).replaceAll('-', '');
  const time = iso.slice(11, 19).replaceAll(':', '');
  const suffix = Math.floor(Math.random() * 0x1000000)
    .toString(16)
    .padStart(6, '0');
  return `${date}-${time}-${suffix}`;
}

export function isSessionId(value: string): boolean {
  return SESSION_ID_PATTERN.test(value);
}

// ---- Header -------------------------------------------------------------------------------------

const headerSchema = lazySchema((z) =>
  z.looseObject({
    type: z.literal('session'),
    schema_version: z.number().int(),
    id: z.string().min(1),
    created_at: z.string(),
    cwd: z.string(),
    project_root: z.string(),
    project_id: z.string(),
    provider: z.string(),
    model: z.string(),
    system_prompt: z.string(),
    tools_hash: z.string(),
    parent_sid: z.string().optional(),
    subagent: z.looseObject({ type: z.string(), description: z.string() }).optional(),
    forked_from: z.looseObject({ session_id: z.string(), entries: z.number().int(), pid: z.number().int().optional() }).optional(),
    seek_version: z.string(),
  }),
);

/** The first line of every session file. Mirrors `headerSchema`; unknown keys are kept on read. */
export interface SessionHeader {
  type: 'session';
  schema_version: number;
  id: string;
  created_at: string;
  cwd: string;
  project_root: string;
  project_id: string;
  provider: string;
  model: string;
  /** Stored so a resumed session sends a byte-identical prefix (prompt cache). */
  system_prompt: string;
  tools_hash: string;
  /** Set on subagent transcripts and on sessions branched from another. */
  parent_sid?: string;
  subagent?: { type: string; description: string };
  /** Set on a fork (see the top of this file). */
  forked_from?: ForkOrigin;
  seek_version: string;
}

/** Where a forked session came from: the session, how many of its entries were copied, and the
 * process that was writing it. */
export interface ForkOrigin {
  session_id: string;
  entries: number;
  pid?: number;
}

/** What a caller supplies to start a session; the writer fills in type, version and time. */
export type NewSessionHeader = Omit<SessionHeader, 'type' | 'schema_version' | 'created_at'> & {
  created_at?: string;
};

export function parseHeader(value: unknown): SessionHeader | undefined {
  const parsed = headerSchema().safeParse(value);
  return parsed.success ? (parsed.data as SessionHeader) : undefined;
}

/** A short stable hash of the tool schemas a session was started with (sha256, 16 hex). A resumed
 * session whose tools hash differs will miss the provider's prefix cache once. */
export function toolsHash(tools: readonly ToolSchema[]): string {
  return createHash('sha256').update(JSON.stringify(tools)).digest('hex').slice(0, 16);
}

// ---- Entries ------------------------------------------------------------------------------------

const usageSchema = lazySchema((z) =>
  z.looseObject({
    inputTokens: z.number(),
    outputTokens: z.number(),
    cacheReadTokens: z.number(),
    cacheWriteTokens: z.number(),
    reasoningTokens: z.number().optional(),
  }),
);

/** A message's images: inline base64 (`data`), or a reference to the project's image store by
 * content hash (`sha256`, session/images.ts), which reading the file resolves. */
const imagesSchema = lazySchema((z) =>
  z.array(z.looseObject({ mimeType: z.string(), data: z.string().optional(), sha256: z.string().regex(/^[0-9a-f]{64}$/).optional() })),
);

const messageSchema = lazySchema((z) =>
  z.discriminatedUnion('role', [
    z.looseObject({ role: z.literal('user'), content: z.string(), images: imagesSchema().optional() }),
    z.looseObject({
      role: z.literal('assistant'),
      content: z.string(),
      reasoning: z.string().optional(),
      reasoningField: z.enum(['reasoning_content', 'reasoning']).optional(),
      toolCalls: z.array(z.looseObject({ id: z.string(), name: z.string(), arguments: z.string() })),
      stopReason: z.enum(['stop', 'tool_calls', 'length', 'refusal', 'error', 'aborted']),
      usage: usageSchema().optional(),
      costUsd: z.number().optional(),
      model: z.string().optional(),
      errorMessage: z.string().optional(),
    }),
    z.looseObject({
      role: z.literal('tool'),
      toolCallId: z.string(),
      toolName: z.string(),
      content: z.string(),
      isError: z.boolean(),
      images: imagesSchema().optional(),
    }),
  ]),
);

/** A message as given, usage and costUsd included (cost is fixed when recorded, never recomputed). */
export interface MessageEntry {
  type: 'message';
  ts: string;
  message: Message;
}

/** Replaces every message entry with index <= `replaces_through` by one user message holding
 * `summary` (see `compactionSummaryMessage`). The replaced lines stay in the file. */
export interface CompactionEntry {
  type: 'compaction';
  ts: string;
  summary: string;
  replaces_through: number;
  /** How the compaction showed (its marker line), for a resumed session's screen. Optional: older
   * files have neither. */
  reason?: 'auto' | 'manual';
  replaced_messages?: number;
}

/** A marker that is not part of the conversation (`loop_end`, `interrupted`, `model_change`...).
 * `position`: set on an entry recorded after entries that followed the place it stands for (a
 * turn's checkpoint, whose snapshot finished after the turn's prompt was written): the index of
 * that place. Readers that care about the place (checkpoints) use it; the others ignore it. */
export interface EventEntry {
  type: 'event';
  ts: string;
  name: string;
  data?: unknown;
  position?: number;
}

export type SessionEntry = MessageEntry | CompactionEntry | EventEntry;

/** An entry to append; `ts` defaults to now. */
export type SessionEntryInput =
  | (Omit<MessageEntry, 'ts'> & { ts?: string })
  | (Omit<CompactionEntry, 'ts'> & { ts?: string })
  | (Omit<EventEntry, 'ts'> & { ts?: string });

const entrySchema = lazySchema((z) =>
  z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('message'), ts: z.string(), message: messageSchema() }),
    z.looseObject({
      type: z.literal('compaction'),
      ts: z.string(),
      summary: z.string(),
      replaces_through: z.number().int(),
    }),
    z.looseObject({ type: z.literal('event'), ts: z.string(), name: z.string(), data: z.unknown().optional(), position: z.number().int().nonnegative().optional() }),
  ]),
);

/** Validates one parsed entry line; undefined for anything that is not a known, well-formed entry. */
export function parseEntry(value: unknown): SessionEntry | undefined {
  const parsed = entrySchema().safeParse(value);
  // The schema mirrors the interfaces above field by field; loose objects only add extra keys.
  return parsed.success ? (parsed.data as SessionEntry) : undefined;
}

/** The one user message that stands in for compacted history. The runtime must build its in-memory
 * history with this same function so a resumed session sends byte-identical messages. */
export function compactionSummaryMessage(summary: string): UserMessage {
  return {
    role: 'user',
    content: `<summary>\nThis session was compacted. Summary of the earlier conversation:\n\n${summary}\n</summary>`,
  };
}
