/**
 * Request bodies as bytes, assembled from pieces serialised once.
 *
 * History is append-only and a message is never edited once it is in it (the loop and the session
 * replace the array on compaction, never a message), so each message's wire JSON is built the
 * first time it is sent and reused by every later request of the session. What a request costs to
 * build is then what is new in it, not the whole history (a 500-turn session re-serialised ~60 MB
 * per turn through `JSON.stringify` of the body). The body goes to the transport as one Buffer:
 * no string the size of the request is made, and node:http writes a Buffer without the copy it
 * makes of a string body to send it with the headers.
 *
 * The bytes are exactly `JSON.stringify` of the body object with the same keys in the same order
 * (a unit test holds the two side by side), so the provider prefix caches see what they saw.
 */

/** A piece of JSON text and its length in UTF-8 bytes (counted once). */
export interface JsonPiece {
  text: string;
  bytes: number;
}

function piece(text: string): JsonPiece {
  return { text, bytes: Buffer.byteLength(text) };
}

/** `value`'s JSON as a piece. */
export function jsonPiece(value: unknown): JsonPiece {
  return piece(JSON.stringify(value));
}

/** JSON pieces cached per object (a message, a tools array), per provider. Kept as strings, not
 * small Buffers: a small Buffer is a slice of a shared 8 KiB pool, and a cached one would keep its
 * whole slab (and the garbage around it) alive. */
export class JsonPieces<K extends object> {
  private readonly pieces = new WeakMap<K, JsonPiece>();

  /** `value()`'s JSON for `key`, built at the first call. */
  of(key: K, value: () => unknown): JsonPiece {
    let found = this.pieces.get(key);
    if (!found) {
      found = piece(JSON.stringify(value()));
      this.pieces.set(key, found);
    }
    return found;
  }

  /** Like `of`, given the JSON text itself (several array items joined by commas, say). */
  ofText(key: K, text: () => string): JsonPiece {
    let found = this.pieces.get(key);
    if (!found) {
      found = piece(text());
      this.pieces.set(key, found);
    }
    return found;
  }
}

/** The JSON of one string, the last one asked for kept (a session's system prompt never changes). */
export class LastStringPiece {
  private last: { source: string; piece: JsonPiece } | undefined;

  of(source: string, value: (text: string) => unknown): JsonPiece {
    if (this.last?.source !== source) this.last = { source, piece: piece(JSON.stringify(value(source))) };
    return this.last.piece;
  }
}

/** One field of a JSON object: its name, and its value as JSON (a piece or an array of them). */
export type JsonField = [name: string, value: JsonPiece | { array: readonly JsonPiece[] }];

/**
 * `JSON.stringify` of an object whose fields, in order, are `fields` (values given as JSON pieces),
 * followed by the fields of `rest` (serialised here: small ones), written into one Buffer of
 * exactly its size.
 */
export function jsonObjectBytes(fields: readonly JsonField[], rest: Record<string, unknown> = {}): Buffer {
  const parts: JsonPiece[] = [];
  let first = true;
  for (const [name, value] of fields) {
    parts.push(piece(`${first ? '{' : ','}${JSON.stringify(name)}:`));
    first = false;
    if (!('array' in value)) {
      parts.push(value);
      continue;
    }
    parts.push(OPEN);
    value.array.forEach((item, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(item);
    });
    parts.push(CLOSE);
  }
  const tail = JSON.stringify(rest);
  if (tail !== '{}') parts.push(piece(first ? tail.slice(0, -1) : `,${tail.slice(1, -1)}`));
  parts.push(piece(first && tail === '{}' ? '{}' : '}'));
  let size = 0;
  for (const part of parts) size += part.bytes;
  // Its own memory (not the shared pool): the body is dropped after the request is written.
  const body = Buffer.allocUnsafeSlow(size);
  let offset = 0;
  for (const part of parts) offset += body.write(part.text, offset, part.bytes, 'utf8');
  return body;
}

const COMMA = piece(',');
const OPEN = piece('[');
const CLOSE = piece(']');
