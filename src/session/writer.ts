/**
 * Appends to a session file. Durability and cost were both designed for:
 * - each entry is one complete line written by a single `write` on an O_APPEND descriptor, so a
 *   concurrent reader (another terminal running `seek --list`) sees whole lines or nothing new, and
 *   two writers on two sessions never touch each other's file;
 * - writes are synchronous: entries keep their order without a queue, and one small `write(2)`
 *   costs microseconds (the per-turn harness overhead budget is 2 ms);
 * - nothing is fsynced per entry but the user's prompts: a prompt is on disk (fdatasync) before the
 *   request that answers it goes out, so a session killed before its answer keeps it. The rest waits
 *   for `flush()` (fdatasync), called by the runtime at turn end, so a crash loses at most the
 *   current turn's other entries, and entries are whole messages, never stream deltas.
 *
 * A session exists once something happened: `deferred` writers keep the header and every entry in
 * memory until the first message that starts a conversation (a user prompt or a model response,
 * never seek's own context or synthetic results), and only then create the file, in one write. A
 * session left before that leaves no file behind. The runtime's writers hold the session's lock
 * (lock.ts) from then on, record finished turns in it at every flush, and release it on close.
 */
import { closeSync, constants, fdatasync, fdatasyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import {
  SESSION_SCHEMA_VERSION,
  SessionError,
  type NewSessionHeader,
  type SessionEntryInput,
  type SessionHeader,
} from './format.js';
import { isInjectedContext } from './context.js';
import { storeMessageImages } from './images.js';
import { claimNewSession, type SessionLock } from './lock.js';
import { parseHeaderLine } from './reader.js';

const fdatasyncAsync = promisify(fdatasync);

export class SessionWriter {
  private fd: number | undefined;
  private nextIndex: number;
  /** Lines not yet on disk: a deferred session before its first message (header first). */
  private pending: string[] | undefined;
  /** Entries a deferred session starts with (a fork's copied history). */
  private preambleEntries = 0;
  private closed = false;

  private constructor(
    readonly path: string,
    readonly header: SessionHeader,
    fd: number | undefined,
    nextIndex: number,
    private lock: SessionLock | undefined,
    pending?: string[],
  ) {
    this.fd = fd;
    this.nextIndex = nextIndex;
    this.pending = pending;
  }

  /**
   * Creates a new session file (parent directories too) and writes its header now. Fails if the
   * file already exists: a session id is never reused. The file is private (0600): transcripts can
   * hold secrets read from the project. Subagent transcripts use this; they hold no lock.
   * `preamble` entries follow the header (a fork made by `seek rewind`).
   */
  static create(path: string, header: NewSessionHeader, options: { preamble?: readonly SessionEntryInput[] } = {}): SessionWriter {
    const writer = SessionWriter.deferred(path, header, options);
    writer.materialize({ lock: false });
    return writer;
  }

  /**
   * A new session whose file is created with its first conversation message (see the top of this
   * file), then locked by this process. `preamble` entries (a fork's copied history, compactions
   * already renumbered) are written right after the header and take the first indexes; they count
   * as finished turns.
   */
  static deferred(path: string, header: NewSessionHeader, options: { preamble?: readonly SessionEntryInput[] } = {}): SessionWriter {
    const { id, created_at: createdAt, ...rest } = header;
    // Spread after the fixed keys: the file starts with type, version, id and time, in that order.
    const full: SessionHeader = {
      type: 'session',
      schema_version: SESSION_SCHEMA_VERSION,
      id,
      created_at: createdAt ?? new Date().toISOString(),
      ...rest,
    };
    const preamble = (options.preamble ?? []).map((entry) => entryLine(entry, path));
    const writer = new SessionWriter(path, full, undefined, preamble.length, undefined, [`${JSON.stringify(full)}\n`, ...preamble]);
    writer.preambleEntries = preamble.length;
    return writer;
  }

  /**
   * Opens an existing session to continue it. Validates the header (throws `SessionError`),
   * and if the last line was cut short by a crash, terminates it with a newline so the next entry
   * starts on its own line (the torn line is then skipped by readers, and keeps its index). `lock`
   * (taken by `lockSession`) is settled at every flush and released on close.
   */
  static openForAppend(path: string, options: { lock?: SessionLock } = {}): SessionWriter {
    const text = readFileSync(path, 'utf8');
    const firstNewline = text.indexOf('\n');
    const header = parseHeaderLine(firstNewline === -1 ? text : text.slice(0, firstNewline), path);
    if (firstNewline === -1) {
      throw new SessionError(`${path} has a truncated header line; the session cannot be continued.`, 'bad_header');
    }
    const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND);
    let lines = countNewlines(text);
    if (!text.endsWith('\n')) {
      writeAll(fd, '\n');
      lines += 1;
    }
    options.lock?.settle(lines - 1);
    return new SessionWriter(path, header, fd, lines - 1, options.lock);
  }

  /** Index the next appended entry will get. */
  get entryCount(): number {
    return this.nextIndex;
  }

  /** Whether the file exists (a deferred session before its first message has none). */
  get created(): boolean {
    return this.pending === undefined;
  }

  /** Appends one entry as one line with one write; returns its entry index. `ts` defaults to now.
   * A deferred session keeps the line until its first conversation message, then creates the file.
   * A user's prompt is made durable (fdatasync) before this returns. */
  append(entry: SessionEntryInput): number {
    if (this.closed) throw new Error(`Session ${this.header.id} is closed; cannot append.`);
    this.write(entryLine(entry, this.path), startsConversation(entry), isPrompt(entry));
    return this.nextIndex++;
  }

  /**
   * Reserves the place of an entry known later (a checkpoint whose snapshot is still being taken
   * while the turn's request goes out), at the index the next entry gets now. Nothing waits for it:
   * entries appended meanwhile (the turn's prompt above all) are written at once. When `fill` comes
   * after them, the entry is appended at the end with `"position": <reserved index>`, the place it
   * stands for (session/format.ts); readers that care (checkpointsOf) use that. A fill with nothing
   * appended since is written in place, without `position`; a second fill, or one after close, is
   * ignored.
   */
  reserve(): (entry: SessionEntryInput) => void {
    if (this.closed) throw new Error(`Session ${this.header.id} is closed; cannot append.`);
    const position = this.nextIndex;
    let filled = false;
    return (entry) => {
      if (filled || this.closed) return;
      filled = true;
      // Only events are reserved (a checkpoint, or its failure); anything else goes in as it is.
      this.append(this.nextIndex === position || entry.type !== 'event' ? entry : { ...entry, position });
    };
  }

  private write(line: string, conversation: boolean, prompt: boolean): void {
    if (this.pending) {
      this.pending.push(line);
      if (conversation) this.materialize({ lock: true });
    } else {
      writeAll(this.fd!, line);
    }
    // Killed before the answer (or the machine lost), the prompt is still there for --continue.
    if (prompt && this.fd !== undefined) fdatasyncSync(this.fd);
  }

  /** Makes everything appended so far durable (fdatasync) and records it as finished turns in the
   * lock. Call at turn end, not per entry. */
  async flush(): Promise<void> {
    if (this.fd === undefined) return;
    await fdatasyncAsync(this.fd);
    this.lock?.settle(this.nextIndex);
  }

  /** Flushes, closes and releases the lock. Idempotent; appending afterwards throws. A deferred
   * session that never started leaves nothing behind. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pending = undefined;
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (fd !== undefined) {
        try {
          await fdatasyncAsync(fd);
        } finally {
          closeSync(fd);
        }
      }
    } finally {
      this.lock?.release();
      this.lock = undefined;
    }
  }

  /** Creates the file with everything pending, in one write. */
  private materialize(options: { lock: boolean }): void {
    const lines = this.pending ?? [];
    mkdirSync(dirname(this.path), { recursive: true });
    const fd = openSync(this.path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      writeAll(fd, lines.join(''));
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    this.fd = fd;
    this.pending = undefined;
    // The header and the preamble are finished; what follows belongs to the turn now running.
    if (options.lock) this.lock = claimNewSession(this.path, this.preambleEntries);
  }
}

/** One entry as a line. Canonical key order (type, ts, then the rest; a message's role first):
 * listing recognises lines from their first bytes without parsing them. */
function entryLine(entry: SessionEntryInput, path: string): string {
  const { type, ts, ...rest } = entry;
  // A message's images go to the project's image store; the line keeps their hashes (images.ts).
  const body = entry.type === 'message' ? { ...rest, message: Object.assign({ role: entry.message.role }, storeMessageImages(entry.message, path)) } : rest;
  return `${JSON.stringify({ type, ts: ts ?? new Date().toISOString(), ...body })}\n`;
}

/** A prompt the user gave (not seek's own context): made durable before its request. */
function isPrompt(entry: SessionEntryInput): boolean {
  return entry.type === 'message' && entry.message.role === 'user' && !isInjectedContext(entry.message);
}

/** A user prompt or a model response: what makes a session worth keeping. */
function startsConversation(entry: SessionEntryInput): boolean {
  if (entry.type !== 'message') return false;
  return entry.message.role === 'assistant' || (entry.message.role === 'user' && !isInjectedContext(entry.message));
}

/** One write(2) for the whole line. A regular file takes it all at once; the loop only guards
 * against a short write (disk nearly full), so no byte is silently dropped. */
function writeAll(fd: number, text: string): void {
  if (text === '') return;
  const buffer = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}
