/**
 * Appends to a session file. Durability and cost were both designed for:
 * - each entry is one complete line written by a single `write` on an O_APPEND descriptor, so a
 *   concurrent reader (another terminal running `seek --list`) sees whole lines or nothing new, and
 *   two writers on two sessions never touch each other's file;
 * - writes are synchronous: entries keep their order without a queue, and one small `write(2)`
 *   costs microseconds (the per-turn harness overhead budget is 2 ms);
 * - nothing is fsynced per entry. `flush()` (fdatasync) is called by the runtime at turn end, so a
 *   crash loses at most the current turn, and entries are whole messages, never stream deltas.
 */
import { closeSync, constants, fdatasync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import {
  SESSION_SCHEMA_VERSION,
  SessionError,
  type NewSessionHeader,
  type SessionEntryInput,
  type SessionHeader,
} from './format.js';
import { parseHeaderLine } from './reader.js';

const fdatasyncAsync = promisify(fdatasync);

export class SessionWriter {
  private fd: number | undefined;
  private nextIndex: number;

  private constructor(
    readonly path: string,
    readonly header: SessionHeader,
    fd: number,
    nextIndex: number,
  ) {
    this.fd = fd;
    this.nextIndex = nextIndex;
  }

  /**
   * Creates a new session file (parent directories too) and writes its header. Fails if the file
   * already exists: a session id is never reused. The file is private (0600): transcripts can hold
   * secrets read from the project.
   */
  static create(path: string, header: NewSessionHeader): SessionWriter {
    const { id, created_at: createdAt, ...rest } = header;
    // Spread after the fixed keys: the file starts with type, version, id and time, in that order.
    const full: SessionHeader = {
      type: 'session',
      schema_version: SESSION_SCHEMA_VERSION,
      id,
      created_at: createdAt ?? new Date().toISOString(),
      ...rest,
    };
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL, 0o600);
    const writer = new SessionWriter(path, full, fd, 0);
    try {
      writer.writeLine(JSON.stringify(full));
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return writer;
  }

  /**
   * Opens an existing session to continue it. Validates the header (throws `SessionError`),
   * and if the last line was cut short by a crash, terminates it with a newline so the next entry
   * starts on its own line (the torn line is then skipped by readers, and keeps its index).
   */
  static openForAppend(path: string): SessionWriter {
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
    return new SessionWriter(path, header, fd, lines - 1);
  }

  /** Index the next appended entry will get. */
  get entryCount(): number {
    return this.nextIndex;
  }

  /** Appends one entry as one line with one write; returns its entry index. `ts` defaults to now. */
  append(entry: SessionEntryInput): number {
    // Canonical key order (type, ts, then the rest): listing recognises lines from their first bytes.
    // Canonical key order (type, ts, then the rest; a message's role first): listing recognises
    // lines from their first bytes without parsing them.
    const { type, ts, ...rest } = entry;
    const body = entry.type === 'message' ? { ...rest, message: Object.assign({ role: entry.message.role }, entry.message) } : rest;
    const line = JSON.stringify({ type, ts: ts ?? new Date().toISOString(), ...body });
    this.writeLine(line);
    return this.nextIndex++;
  }

  /** Makes everything appended so far durable (fdatasync). Call at turn end, not per entry. */
  async flush(): Promise<void> {
    if (this.fd === undefined) return;
    await fdatasyncAsync(this.fd);
  }

  /** Flushes and closes. Idempotent; appending afterwards throws. */
  async close(): Promise<void> {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      await fdatasyncAsync(fd);
    } finally {
      closeSync(fd);
    }
  }

  private writeLine(json: string): void {
    if (this.fd === undefined) throw new Error(`Session ${this.header.id} is closed; cannot append.`);
    writeAll(this.fd, `${json}\n`);
  }
}

/** One write(2) for the whole line. A regular file takes it all at once; the loop only guards
 * against a short write (disk nearly full), so no byte is silently dropped. */
function writeAll(fd: number, text: string): void {
  const buffer = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}
